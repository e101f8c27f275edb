"""One memory file's episode scored: counts at every checkpoint, and the judge's edges against the kept pairs.

Gold: the kept pairs of :mod:`memlab.data.memory_files.memories` (the hand check in the data folder's
``SOURCE.md``). A kept pair is a replacement whether the newer changes a value (SUPERSEDE) or rewords it (shown
beside its new wording it is a duplicate): both are right.

Checkpoints (after every commit; one after which the file does not exist is counted, not scored), over the facts
the block speaks for (a summary speaks for its sources): ``n_block_facts``; ``n_block_current`` (still in the
file); ``n_block_stale_inferable`` (removed by then as the older side of a kept pair: a judge could have known);
``n_block_gone_other`` (removed otherwise: reported, not inferable); ``n_current``, ``n_current_in_block`` and
``n_coverage_slots`` = ``min(n_current, K)``, K the items the run's selector shows under its budget from a pool
of exactly the current facts (at least ``n_current_in_block``): coverage within the budget.

Edges (the final store's SUPERSEDE and DUPLICATE edges; verdicts held for review are not edges): ``rep_tp`` on a
kept pair; ``rep_fp`` whose older fact stood beside the newer in the file (identical texts excepted); other
edges (the older removed, but not as this pair's kept side) are ``n_edges_unscored``; ``rep_fn`` a kept pair
without an edge; ``n_kept_candidates`` kept pairs the judge was shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from memlab.core.types import EdgeType
from memlab.data.memory_files.corpus import GONE, Fact, MemoryFile
from memlab.data.memory_files.memories import kept_pairs
from memlab.pipeline.episode import EpisodeOutcome
from memlab.pipeline.inject import build_block, memory_candidate
from memlab.pipeline.store import MemoryStore
from memlab.wiring.components import Components

#: The edges that count as "the newer replaces the older".
REPLACING = {EdgeType.SUPERSEDES: "SUPERSEDE", EdgeType.DUPLICATES: "DUPLICATE"}

#: Counts a file (and, summed, a repository) contributes.
COUNTS: tuple[str, ...] = (
    "n_checkpoints", "n_checkpoints_gone", "n_block_facts", "n_block_current", "n_block_stale_inferable",
    "n_block_gone_other", "n_current", "n_current_in_block", "n_coverage_slots", "n_kept_pairs", "n_kept_candidates",
    "rep_tp", "rep_fp", "rep_fn", "n_rep_supersede", "n_rep_duplicate", "n_edges_unscored", "n_facts", "n_retired",
    "n_pairs_below_cut", "n_moved", "n_file_deletions", "n_rewrites",
)  # fmt: skip


def capacity(store: MemoryStore, components: Components, current: Sequence[str], at: datetime) -> int:
    """Items the run's selector shows under the run's budget from a pool of exactly ``current`` (memory ids)."""
    pool = [memory_candidate(store, components, store.memories[i], at) for i in current]
    return len(build_block(pool, components.settings.budget_tokens, components.selector, at).items)


def file_score(
    mfile: MemoryFile, ids: Mapping[str, str], outcome: EpisodeOutcome, components: Components
) -> tuple[dict[str, float], list[dict[str, Any]], dict[str, Any]]:
    """``(counts, predictions, info)`` of one file's episode; ``ids`` maps fact id -> memory id.

    Predictions hold ids, relations and counts only (never the facts' text).
    """
    fact_of = {ids[f.id]: f for f in mfile.facts}
    pairs = kept_pairs(mfile)
    inferable = {older.id for older, _ in pairs}
    counts = dict.fromkeys(COUNTS, 0.0)
    store = outcome.store
    checkpoints: list[dict[str, Any]] = []
    for k, (at, block) in enumerate(outcome.blocks):
        counts["n_checkpoints"] += 1
        if mfile.gone_after(k):
            counts["n_checkpoints_gone"] += 1
            continue
        shown: list[Fact] = []
        for item in block.items:
            summary = store.summaries.get(item.id) if item.kind == "summary" else None
            sources = summary.source_ids if summary is not None else (item.id,)
            shown.extend(fact_of[s] for s in sources if s in fact_of)
        current = [f for f in mfile.facts if f.live_after(k)]
        n_current_shown = sum(1 for f in shown if f.live_after(k))
        n_inferable = sum(1 for f in shown if not f.live_after(k) and f.id in inferable)
        row = {
            "n_block_facts": len(shown),
            "n_block_current": n_current_shown,
            "n_block_stale_inferable": n_inferable,
            "n_block_gone_other": len(shown) - n_current_shown - n_inferable,
            "n_current": len(current),
            "n_current_in_block": n_current_shown,
            "n_coverage_slots": min(
                len(current), max(capacity(store, components, [ids[f.id] for f in current], at), n_current_shown)
            ),
        }
        for key, value in row.items():
            counts[key] += value
        checkpoints.append({"commit": k, **row})
    edges = {(e.target, e.source): REPLACING[e.type] for e in store.edges.values() if e.type in REPLACING}
    gold = {(ids[o.id], ids[n.id]) for o, n in pairs}
    records: list[dict[str, Any]] = []
    for older, newer in pairs:
        key = (ids[older.id], ids[newer.id])
        relation = edges.get(key)
        counts["n_kept_pairs"] += 1
        counts["n_kept_candidates"] += key in store.judged
        counts["rep_tp" if relation else "rep_fn"] += 1
        counts["n_rep_supersede"] += relation == "SUPERSEDE"
        counts["n_rep_duplicate"] += relation == "DUPLICATE"
        records.append({"record": "kept_pair", "older": older.id, "newer": newer.id, "jaccard": older.jaccard,
                        "candidate": key in store.judged, "predicted": relation})  # fmt: skip
    for (o, n), relation in sorted(edges.items()):
        if (o, n) in gold or o not in fact_of or n not in fact_of:
            continue
        older, newer = fact_of[o], fact_of[n]
        wrong = older.live_after(newer.recorded) and older.text.strip() != newer.text.strip()
        counts["rep_fp" if wrong else "n_edges_unscored"] += 1
        records.append({"record": "edge", "older": older.id, "newer": newer.id, "predicted": relation, "false": wrong})
    counts["n_facts"] = float(len(mfile.facts))
    counts["n_retired"] = float(sum(1 for f in mfile.facts if f.removal == "retired"))
    counts["n_pairs_below_cut"] = float(sum(1 for f in mfile.facts if f.removal == "paired") - len(pairs))
    counts["n_moved"] = float(sum(1 for f in mfile.facts if f.moved or f.moved_away))
    counts["n_file_deletions"] = float(sum(1 for k in range(len(mfile.commits)) if mfile.gone_after(k)))
    counts["n_rewrites"] = float(sum(1 for c in mfile.commits if c.rewrite))
    info = {"checkpoints": checkpoints, "n_gone_facts": sum(1 for f in mfile.facts if f.removal in GONE)}
    return counts, records, info
