"""``dataset=gitnotes_real``: consolidate the real git-notes-memory notes and measure what collapses.

The notes are one episode without queries (with ``pipeline.schedule=end``, the experiment's setting, one
consolidation of the whole store: what ``memlab install`` does on a repository's existing notes). There is
no gold beyond exact duplicates (records with identical summary and content, 4,808 redundant records of
6,299). Metrics:

* ``dup_collapsed_exact``: fraction of redundant exact-duplicate records marked duplicate (target 1.0);
  ``dup_edges_non_exact``: DUPLICATES edges between records that are not exact duplicates (paraphrase
  merges the judge made; not necessarily wrong, reported for inspection).
* ``near_dup_clusters``: clusters the clusterer found in the last run (summaries written:
  ``summaries_created``).
* ``compression_ratio``: memories in / memories still retrievable in standard mode (current, not a
  duplicate, hot or warm tier).
* ``tier_frac_*``; ``latency_consolidate_s`` (all consolidation phases), ``latency_<phase>_s``,
  ``throughput_mem_per_s``; ``injected_tokens`` of the SessionStart block at the last record's time.
* Counts beside the rates: ``n_dup_redundant_exact``, ``n_retrievable``, ``n_memories``. A rate whose
  denominator is empty (no exact duplicate, nothing retrievable, no consolidation time) is absent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks import metrics
from memlab.benchmarks.base import POLICY, BenchmarkCard, BenchmarkResult, DatasetCard, EpisodeBenchmark
from memlab.benchmarks.gitnotes_real.loader import EXPECTED_SHA256, load_notes
from memlab.benchmarks.project_history import history_metrics as hm
from memlab.benchmarks.project_history.evaluate import final_tier_counts, latency_metrics
from memlab.components import Components
from memlab.errors import MemlabError
from memlab.pipeline.consolidate import PHASES
from memlab.pipeline.episode import Episode
from memlab.pipeline.recall import eligible
from memlab.sha import file_sha256
from memlab.types import EdgeType, Memory

LICENCE = "MIT (zircote/git-notes-memory-manager)"


@dataclass(frozen=True)
class NotesData:
    """The notes as one episode, and their provenance."""

    memories: tuple[Memory, ...]
    card: DatasetCard

    @property
    def episodes(self) -> tuple[Episode, ...]:
        """One episode, no queries."""
        return (Episode("gitnotes_real", self.memories),)


class GitNotesRealBenchmark(EpisodeBenchmark):
    """The real notes as a workload.

    Args:
        path: ``notes.jsonl`` (conf: ``${paths.data_dir}/git-notes-memory-notes/notes.jsonl``).
        limit: Use only the first ``limit`` records (file order = time order); ``null`` for all.
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "gitnotes_real",
        "1",
        LICENCE,
        "dup_collapsed_exact",
        tuple(g for g in POLICY if g != "retriever"),  # no queries: only the SessionStart block is built
        "a real project's 6,299 git-notes memories: duplicates collapsed, compression, consolidation time",
        headline=("compression_ratio", "near_dup_clusters", "latency_consolidate_s"),
    )

    def __init__(self, path: str = "", limit: int | None = None) -> None:
        self.path = path
        self.limit = limit

    def check(self) -> None:
        """The notes file exists."""
        if not Path(self.path).is_file():
            raise MemlabError(
                f"git-notes-memory notes file not found: {self.path}; put notes.jsonl under "
                "../shared/datasets/git-notes-memory-notes/ or pass dataset.path=/abs/notes.jsonl"
            )

    def load(self, seed: int) -> NotesData:
        """Read the notes."""
        self.check()
        path = Path(self.path)
        memories = load_notes(path, self.limit)
        digest = file_sha256(path)
        card = DatasetCard(
            "git-notes-memory-notes",
            "1" if digest == EXPECTED_SHA256 else "1-modified",
            digest,
            LICENCE,
            f"{path}" + (f" (first {self.limit} records)" if self.limit else ""),
            self.card.main_metric,
        )
        return NotesData(tuple(memories), card)

    def score(self, data: NotesData, outcomes: Sequence[Any], components: Components, seed: int) -> BenchmarkResult:
        """Duplicates collapsed, compression, tiers, time."""
        outcome = outcomes[0]
        store, block, now = outcome.store, outcome.block, outcome.end
        memories = data.memories
        groups = hm.exact_duplicate_groups(memories)
        duplicate_of = {m.id: store.state(m.id).duplicate_of for m in memories}
        exact_pairs = {(mid, g[0]) for g in groups for mid in g[1:]}
        group_of = {mid: i for i, g in enumerate(groups) for mid in g}
        dup_edges = [e for e in store.edges.values() if e.type is EdgeType.DUPLICATES]
        non_exact = [e for e in dup_edges if group_of.get(e.source, -1) != group_of.get(e.target, -2)]
        edges = {t.value: 0 for t in EdgeType}
        for edge in store.edges.values():
            edges[edge.type.value] += 1
        retrievable = eligible(store, "standard", now)
        consolidate_s = sum(outcome.seconds.get(p, 0.0) for p in PHASES)
        last = outcome.last_run
        tiers = final_tier_counts(outcome)
        out = {
            "dup_collapsed_exact": hm.dup_collapsed_exact(groups, duplicate_of),
            "dup_redundant_exact": float(len(exact_pairs)),
            "n_dup_redundant_exact": float(len(exact_pairs)),
            "dup_groups_exact": float(len(groups)),
            "dup_edges": float(len(dup_edges)),
            "dup_edges_non_exact": float(len(non_exact)),
            "near_dup_clusters": float(last.clusters_found if last else 0),
            "summaries_created": float(len(store.summaries)),
            "supersede_edges": float(edges[EdgeType.SUPERSEDES.value]),
            "merge_edges": float(edges[EdgeType.MERGES.value]),
            "compression_ratio": hm.compression_ratio(len(memories), len(retrievable)),
            "n_memories": float(len(memories)),
            "n_retrievable": float(len(retrievable)),
            "n_judged_pairs": float(len(store.judged)),
            "injected_tokens": float(block.tokens),
            "latency_consolidate_s": consolidate_s,
            "throughput_mem_per_s": len(memories) / consolidate_s if consolidate_s > 0 else None,
            **metrics.tier_fractions(tiers),
            **latency_metrics(outcome),
        }
        missed = sorted(mid for mid, _ in exact_pairs if not duplicate_of.get(mid))
        predictions = [
            {
                "memory": e.target,
                "duplicate": e.source,
                "exact": group_of.get(e.source, -1) == group_of.get(e.target, -2),
            }
            for e in sorted(dup_edges, key=lambda e: (e.target, e.source))
        ]
        info = {
            "now": now.isoformat() if now else None,
            "missed_exact_duplicates": missed[:50],
            "edges": edges,
            "consolidations": [r.counts() for r in outcome.runs],
            "review_queue": len(store.review_queue),
        }
        return BenchmarkResult(
            metrics.defined(out),
            predictions,
            data.card,
            info,
            tier_counts=tiers,
            artifacts={"injected_block.md": block.text.encode("utf-8")},
        )
