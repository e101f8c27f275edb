"""``dataset=gitnotes_real``: consolidate the real git-notes-memory notes and measure what collapses.

There is no gold beyond exact duplicates (records with identical summary and content, 4,808 redundant
records of 6,299). Metrics:

* ``dup_collapsed_exact``: fraction of redundant exact-duplicate records marked duplicate (target 1.0);
  ``dup_edges_non_exact``: DUPLICATES edges between records that are not exact duplicates (paraphrase
  merges the judge made; not necessarily wrong, reported for inspection).
* ``near_dup_clusters``: clusters the clusterer found (summaries written: ``summaries_created``).
* ``compression_ratio``: memories in / memories still retrievable in standard mode (current, not a
  duplicate, hot or warm tier).
* ``tier_frac_*``; ``latency_consolidate_s`` (all phases), ``latency_<phase>_s``, ``throughput_mem_per_s``;
  ``injected_tokens`` of the SessionStart block at the last record's time.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from memlab.benchmarks import metrics
from memlab.benchmarks.base import BenchmarkResult, DatasetCard
from memlab.benchmarks.gitnotes_real.loader import EXPECTED_SHA256, file_sha256, load_notes
from memlab.benchmarks.project_history import history_metrics as hm
from memlab.components import Components
from memlab.pipeline.consolidate import PHASES, consolidate
from memlab.pipeline.inject import build_block
from memlab.pipeline.recall import eligible
from memlab.pipeline.store import MemoryStore
from memlab.types import EdgeType


class GitNotesRealBenchmark:
    """The real notes as a workload.

    Args:
        path: ``notes.jsonl`` (conf: ``${paths.data_dir}/git-notes-memory-notes/notes.jsonl``).
        limit: Use only the first ``limit`` records (file order = time order); ``null`` for all.
    """

    name: ClassVar[str] = "gitnotes_real"
    version: ClassVar[int] = 1

    def __init__(self, path: str = "", limit: int | None = None) -> None:
        self.path = path
        self.limit = limit

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Load, consolidate at the last record's time, measure."""
        path = Path(self.path)
        memories = load_notes(path, self.limit)
        digest = file_sha256(path)
        card = DatasetCard(
            "git-notes-memory-notes",
            "1" if digest == EXPECTED_SHA256 else "1-modified",
            digest,
            "MIT (zircote/git-notes-memory-manager)",
            f"{path}" + (f" (first {self.limit} records)" if self.limit else ""),
            "dup_collapsed_exact",
        )
        t0 = time.perf_counter()
        store = MemoryStore(memories)
        now = max(m.timestamp for m in memories)
        result = consolidate(store, components, now)
        consolidate_s = time.perf_counter() - t0
        groups = hm.exact_duplicate_groups(memories)
        duplicate_of = {m.id: store.state(m.id).duplicate_of for m in memories}
        exact_pairs = {(mid, g[0]) for g in groups for mid in g[1:]}
        group_of = {mid: i for i, g in enumerate(groups) for mid in g}
        dup_edges = [e for e in store.edges.values() if e.type is EdgeType.DUPLICATES]
        non_exact = [e for e in dup_edges if group_of.get(e.source, -1) != group_of.get(e.target, -2)]
        t1 = time.perf_counter()
        block = build_block(store, components, now)
        inject_s = time.perf_counter() - t1
        retrievable = eligible(store, "standard", now)
        out = {
            "dup_collapsed_exact": hm.dup_collapsed_exact(groups, duplicate_of),
            "dup_redundant_exact": float(len(exact_pairs)),
            "dup_groups_exact": float(len(groups)),
            "dup_edges": float(len(dup_edges)),
            "dup_edges_non_exact": float(len(non_exact)),
            "near_dup_clusters": float(result.clusters_found),
            "summaries_created": float(result.summaries_created),
            "supersede_edges": float(result.edges_created.get(EdgeType.SUPERSEDES.value, 0)),
            "merge_edges": float(result.edges_created.get(EdgeType.MERGES.value, 0)),
            "compression_ratio": hm.compression_ratio(len(memories), len(retrievable)),
            "n_memories": float(len(memories)),
            "n_retrievable": float(len(retrievable)),
            "n_judged_pairs": float(len(store.judged)),
            "injected_tokens": float(block.tokens),
            "latency_consolidate_s": consolidate_s,
            "latency_inject_s": inject_s,
            "throughput_mem_per_s": len(memories) / consolidate_s if consolidate_s > 0 else 0.0,
        }
        out.update(metrics.tier_fractions(result.tier_counts))
        for phase in PHASES:
            out[f"latency_{phase}_s"] = float(result.phase_seconds.get(phase, 0.0))
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
            "now": now.isoformat(),
            "missed_exact_duplicates": missed[:50],
            "edges_created": dict(result.edges_created),
            "review_queue": len(result.review),
        }
        return BenchmarkResult(
            out,
            predictions,
            card,
            info,
            tier_counts=dict(result.tier_counts),
            artifacts={"injected_block.md": block.text.encode("utf-8")},
        )
