"""``dataset=gitnotes_real``: consolidate the real git-notes-memory notes; score the block on hand labels.

The notes are one episode without queries (with ``pipeline.schedule=end``, the experiment's setting, one
consolidation of the whole store: what ``memlab install`` does on a repository's existing notes).

**Quality** (with ``labels``, a ``memlab.gitnotes_labels/1`` file: :mod:`.labels`; the default is the developers'
labels of the namespaces ``learnings``, ``patterns``, ``progress`` and ``research``, datasets/gitnotes_labels/):
``block_nonmemory_share``, the share of the SessionStart block's labelled items that are not memories (captured
fragments, examples, noise; the main metric, lower is better), ``block_share_<kind>``, ``block_memory_coverage``;
per relation ``dup_``/``amend_``/``supersede_`` precision, recall and F1 on the labelled pairs, duplicates found
with identical content and re-worded (``dup_found_identical``, ``dup_found_reworded``); ``dup_pairs_in_block``,
``superseded_in_block`` and ``blockers_fixed_shown`` (:mod:`.quality`). Only labelled records count; the labels'
split and path are logged (``info.labels``).

**Scale** (no labels needed): ``dup_collapsed_exact`` (redundant exact-duplicate records marked duplicate),
``dup_edges_non_exact``, ``near_dup_clusters``, ``compression_ratio``, ``tier_frac_*``, ``latency_consolidate_s``,
``latency_<phase>_s``, ``throughput_mem_per_s``, ``injected_tokens``, with the counts beside the rates
(``n_dup_redundant_exact``, ``n_retrievable``, ``n_memories``). A rate whose denominator is empty is absent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks import metrics
from memlab.benchmarks.base import POLICY, BenchmarkCard, BenchmarkResult, DatasetCard, EpisodeBenchmark
from memlab.benchmarks.gitnotes_real import quality
from memlab.benchmarks.project_history import history_metrics as hm
from memlab.benchmarks.project_history.evaluate import final_tier_counts, latency_metrics
from memlab.core.errors import MemlabError
from memlab.core.sha import file_sha256
from memlab.core.types import EdgeType, Memory
from memlab.data.gitnotes_real.labels import NotesLabels, load_labels, record_key
from memlab.data.gitnotes_real.loader import EXPECTED_SHA256, load_notes
from memlab.pipeline.consolidate import PHASES
from memlab.pipeline.episode import Episode
from memlab.pipeline.recall import eligible
from memlab.wiring.components import Components

LICENCE = "MIT (zircote/git-notes-memory-manager)"


@dataclass(frozen=True)
class NotesData:
    """The notes as one episode, and their provenance."""

    memories: tuple[Memory, ...]
    card: DatasetCard
    labels: NotesLabels | None = None

    @property
    def episodes(self) -> tuple[Episode, ...]:
        """One episode, no queries."""
        return (Episode("gitnotes_real", self.memories),)


@dataclass(eq=False)
class GitNotesRealBenchmark(EpisodeBenchmark):
    """The real notes as a workload.

    Args:
        path: ``notes.jsonl`` (conf: ``${paths.data_dir}/git-notes-memory-notes/notes.jsonl``).
        limit: Use only the first ``limit`` records (file order = time order); ``null`` for all.
        labels: A ``memlab.gitnotes_labels/1`` file (``null``: scale figures only).
        namespaces: Read only these namespaces (``null``: all).
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "gitnotes_real",
        "2",
        LICENCE,
        "block_nonmemory_share",
        tuple(g for g in POLICY if g != "retriever"),  # no queries: only the SessionStart block is built
        "a real project's 6,299 git-notes memories: what the block shows (hand labels), duplicates, time",
        headline=("dup_f1", "supersede_precision", "block_memory_coverage", "latency_consolidate_s"),
    )

    path: str = ""
    limit: int | None = None
    labels: str | None = None
    namespaces: Sequence[str] | None = None

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
        if self.namespaces is not None:
            memories = [m for m in memories if m.namespace in set(self.namespaces)]
        digest = file_sha256(path)
        card = DatasetCard(
            "git-notes-memory-notes",
            "1" if digest == EXPECTED_SHA256 else "1-modified",
            digest,
            LICENCE,
            f"{path}" + (f" (first {self.limit} records)" if self.limit else ""),
            self.card.main_metric,
        )
        return NotesData(tuple(memories), card, load_labels(self.labels) if self.labels else None)

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
            **(label_quality(memories, store, block, data.labels) if data.labels else {}),
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
            "labels": {"path": data.labels.path, "split": data.labels.split, "namespaces": data.labels.namespaces}
            if data.labels
            else None,
        }
        return BenchmarkResult(
            metrics.defined(out),
            predictions,
            data.card,
            info,
            tier_counts=tiers,
            artifacts={"injected_block.md": block.text.encode("utf-8")},
        )


def label_quality(memories: Sequence[Memory], store: Any, block: Any, labels: NotesLabels) -> dict[str, float | None]:
    """The block's and the relations' quality on ``labels`` (:mod:`.quality`), per distinct record."""
    key_of = {m.id: record_key(m.namespace, m.summary, m.content) for m in memories}
    present = set(key_of.values())
    block_keys = []
    for c in block.items:
        if c.kind == "memory" and c.id in key_of:
            block_keys.append(key_of[c.id])
        elif c.kind == "summary" and c.id in store.summaries:  # shown as a memory it cites, else as a source
            keys = [key_of[i] for i in store.summaries[c.id].source_ids if key_of.get(i) in labels.kinds]
            if keys:
                block_keys.append(next((k for k in keys if labels.kinds[k] == "memory"), keys[0]))
    edges: dict[str, set[frozenset[str]]] = {"DUPLICATE": set(), "MERGE": set(), "SUPERSEDE": set()}
    kind = {EdgeType.DUPLICATES: "DUPLICATE", EdgeType.MERGES: "MERGE", EdgeType.SUPERSEDES: "SUPERSEDE"}
    for edge in store.edges.values():
        if edge.source in key_of and edge.target in key_of and edge.type in kind:
            edges[kind[edge.type]].add(frozenset((key_of[edge.source], key_of[edge.target])))
    content = {key_of[m.id]: " ".join(m.content.split()) for m in memories}
    identical = [frozenset(p) for p in labels.pairs if content.get(p[0], 0) == content.get(p[1], 1)]
    predicted = {**edges, "DUPLICATE": quality.related_keys(quality.connected(edges["DUPLICATE"]))}
    return {
        **quality.block_quality(block_keys, labels, present),
        **quality.pair_quality(predicted, labels, present, identical),
        **quality.block_relations(block_keys, labels, present),
    }
