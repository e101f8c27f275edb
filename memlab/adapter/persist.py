"""What a consolidation writes: derived records of its policy, vectors, the SessionStart cache.

Order of writes: derived refs (meta, then this clone's own state, :mod:`memlab.adapter.derived`, summaries,
edges, then the run record, then compaction), then the vectors (:mod:`memlab.adapter.vectors`), the ids of the
memories read that are not candidates (a session tells a memory no consolidation has seen from them) and the
candidate cache. A process killed between writes leaves each ref readable (one atomic update each); a rerun loads
what was written and completes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from memlab.adapter import derived, jsonl_refs, records
from memlab.adapter.gitcli import Repo
from memlab.adapter.spec import policy_id, spec_id
from memlab.adapter.state import CACHE_FILE, CACHE_FORMAT, CANDIDATE_COLUMNS, SEEN_FILE, cache_rows, write_json_atomic
from memlab.pipeline.store import MemoryStore


def _merge_activation(record: dict[str, Any], current: dict[str, Any] | None) -> dict[str, Any]:
    """``record`` with the activation fields of the record stored now (recalls may have run meanwhile)."""
    if current:
        for key in records.ACTIVATION_FIELDS:
            if key in current:
                record[key] = current[key]
    return record


def write_meta(repo: Repo, store: MemoryStore, policy: str) -> int:
    """Append the changed state records, re-reading activations under the writer lock; returns how many."""
    ours = {mid: records.state_record(s) for mid, s in sorted(store.states.items())}

    def make(current: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for mid, rec in ours.items():
            merged = _merge_activation(dict(rec), current.get(mid))
            if _strip(current.get(mid)) != merged:
                out.append(merged)
        return out

    return jsonl_refs.update_records(repo, "meta", make, policy)


def candidate_records(store: MemoryStore, components: Any, now: datetime, max_item_chars: int) -> list[dict]:
    """The SessionStart candidates at ``now`` as JSON objects (the pipeline's own candidate builder)."""
    from memlab.pipeline.inject import candidates

    out = []
    for c in candidates(store, components, now, None, max_item_chars=max_item_chars):
        data = c.as_dict()
        data["timestamp"] = c.timestamp.isoformat()
        data["tier"] = c.tier.value
        out.append(data)
    return out


def persist(
    repo: Repo, spec: dict[str, Any], loaded: Any, components: Any, result: Any, now: datetime, known: set | None
) -> dict:
    """Write a run's derived records, vectors and SessionStart cache (an incremental run, ``known``: the edges
    the store held before it, writes its new edges only, no summary, and compacts nothing); what was written.
    """
    from memlab.pipeline.inject import superseded_claim

    store, policy = loaded.store, policy_id(spec)
    written = {"meta_written": write_meta(repo, store, policy)}
    written["hints_ignored"] = derived.save(repo, store, loaded.meta, policy, result.run_id)
    _maybe_kill("meta")
    if known is None:
        summaries = [records.summary_record(s) for s in store.summaries.values()]
        jsonl_refs.append_records(repo, "summaries", summaries, policy)
    edges = [records.edge_record(e) for key, e in store.edges.items() if known is None or key not in known]
    jsonl_refs.append_records(repo, "edges", edges, policy)
    _maybe_kill("edges")
    run = records.run_record(result, {"records": loaded.load.records})
    jsonl_refs.append_records(repo, "runs", [run], policy)
    for kind in jsonl_refs.DERIVED_REFS if known is None else ():
        jsonl_refs.compact(repo, kind, orphan_filter(loaded) if kind == "meta" else None)
    _maybe_kill("compact")
    components.embedder.save(prune=known is None)
    cands = candidate_records(store, components, now, int(spec["hook"]["max_item_chars"]))
    shown = {c["id"] for c in cands}  # the other memories read, apart: every session parses the cache
    write_json_atomic(repo.memlab_dir / SEEN_FILE, sorted(m.id for m in loaded.load.memories if m.id not in shown))
    cache = {
        "format": CACHE_FORMAT,
        "now": now.isoformat(),
        "run_id": result.run_id,
        "policy": policy,
        "spec": spec_id(spec),
        "claim": superseded_claim(components),
        "judge": components.judge.tally(),
        "memories": len(store.memories),
        "tips": loaded.load.tips,
        "fields": list(CANDIDATE_COLUMNS),
        "rows": cache_rows(cands),
    }
    write_json_atomic(repo.memlab_dir / CACHE_FILE, cache)
    written["candidates"] = len(cands)
    return written


#: A ``mem-meta`` record for a memory that exists in no note is dropped by compaction after this long.
ORPHAN_GRACE = timedelta(days=30)


def orphan_filter(loaded: Any) -> Callable[[dict[str, Any]], bool] | None:
    """Which ``mem-meta`` records compaction drops: ids no note holds, written over :data:`ORPHAN_GRACE` ago.

    ``None`` (drop nothing) when some memory ref could not be listed: its memories may only be unreadable.
    """
    if any("cannot list its notes" in e for e in loaded.load.errors):
        return None
    ids = {m.id for m in loaded.load.memories}
    cutoff = datetime.now(UTC) - ORPHAN_GRACE

    def drop(record: dict[str, Any]) -> bool:
        if record["id"] in ids:
            return False
        try:
            return records.written_at(record, datetime.now(UTC)) < cutoff
        except ValueError:
            return False

    return drop


def _strip(record: dict[str, Any] | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {k: v for k, v in record.items() if k != "written_at"}


def _maybe_kill(point: str) -> None:
    """Test hook: ``MEMLAB_TEST_KILL_AT=<point>`` kills the process there (simulates a crash)."""
    if os.environ.get("MEMLAB_TEST_KILL_AT") == point:
        os._exit(137)
