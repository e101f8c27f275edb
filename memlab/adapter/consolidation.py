"""Repository consolidation: notes → store → pipeline → derived notes and the SessionStart candidate cache."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from memlab.adapter import jsonl_refs, records
from memlab.adapter.gitcli import Repo
from memlab.adapter.locking import file_lock
from memlab.adapter.notes_store import LoadResult, load_memories, paused_gc
from memlab.adapter.spec import check_models, missing_package_error, policy_id, spec_id
from memlab.adapter.state import (
    CACHE_FILE,
    CACHE_FORMAT,
    CANDIDATE_COLUMNS,
    LAST_ATTEMPT_FILE,
    LAST_RUN_FILE,
    cache_problem,
    cache_rows,
    clock,
    read_json,
    write_json_atomic,
)
from memlab.errors import MemlabError
from memlab.pipeline.store import MemoryStore

#: ``progress(step, total, label)``: what install shows while the first consolidation runs.
Progress = Callable[[int, int, str], None]
STEPS = 5


@dataclass
class Loaded:
    """A repository's memories and derived state, loaded into a :class:`MemoryStore`."""

    store: MemoryStore
    load: LoadResult
    meta: dict[str, dict[str, Any]]
    errors: list[str] = field(default_factory=list)
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)
    total: int = 0


def _parse_into(
    errors: list[str], label: str, items: dict[str, dict[str, Any]], parse: Callable, add: Callable
) -> None:
    for rid, rec in items.items():
        try:
            add(rid, parse(rec))
        except Exception as exc:  # decode validated the record; anything left is still skipped, never fatal
            errors.append(f"{label} {rid}: {type(exc).__name__}: {str(exc)[:80]}")


def load_store(
    repo: Repo, policy: str | None, *, deadline: float | None = None, max_memories: int | None = None
) -> Loaded:
    """Read memories and ``policy``'s derived records (:func:`~memlab.adapter.spec.policy_id`); derived records
    about unknown memories, and every other policy's, are ignored.

    With ``max_memories`` only the newest that many memories enter the store (``Loaded.total`` says how
    many there were): the per-run cap of a consolidation, checked before any heavy phase.
    """
    load = load_memories(repo, deadline=deadline)
    kept = load.memories[-max_memories:] if max_memories and len(load.memories) > max_memories else load.memories
    with paused_gc():  # 100,000 states at once
        store = MemoryStore(kept)
    errors = list(load.errors)
    texts = jsonl_refs.read_texts(repo, jsonl_refs.DERIVED_REFS)
    decoded: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, (text, problem) in texts.items():
        recs, bad, _ = jsonl_refs.decode(text, kind, policy)
        decoded[kind] = recs
        errors += [f"{jsonl_refs.DERIVED_REFS[kind]} {e}" for e in bad] + ([problem] if problem else [])

    def add_state(mid: str, state: Any) -> None:
        if mid in store.memories:
            store.states[mid] = state

    def add_summary(sid: str, summary: Any) -> None:
        if all(i in store.memories for i in summary.source_ids):
            store.summaries[sid] = summary

    _parse_into(errors, "mem-meta", decoded["meta"], records.state_from, add_state)
    _parse_into(errors, "mem-summaries", decoded["summaries"], records.summary_from, add_summary)
    known = store.memories.keys() | store.summaries.keys()

    def add_edge(_: str, edge: Any) -> None:
        if edge.source in known and edge.target in known:
            store.add_edge(edge)

    _parse_into(errors, "mem-edges", decoded["edges"], records.edge_from, add_edge)
    return Loaded(store, load, decoded["meta"], errors, decoded["runs"], len(load.memories))


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


def new_memory_count(loaded: Loaded) -> int:
    """Memories never consolidated (no ``mem-meta`` record yet)."""
    return sum(1 for mid in loaded.store.memories if mid not in loaded.meta)


def needed(repo: Repo, loaded: Loaded, spec: dict[str, Any], min_new: int) -> tuple[bool, str]:
    """Whether a consolidation is due: a missing, invalid or other-spec cache, or ``min_new`` new memories."""
    cache = read_json(repo.memlab_dir / CACHE_FILE)
    problem = cache_problem(cache)
    if problem:
        return True, problem
    if cache.get("spec") != spec_id(spec):
        return True, "the cache came from another spec"
    fresh = new_memory_count(loaded)
    if fresh >= max(1, min_new):
        return True, f"{fresh} new memories"
    return False, f"{fresh} new memories (< {max(1, min_new)})"


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


def consolidate_repo(
    repo: Repo,
    spec: dict[str, Any],
    *,
    full: bool = False,
    dry_run: bool = False,
    now: datetime | None = None,
    if_needed: bool = False,
    min_new: int = 0,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Consolidate a repository's memories with the spec's strategies and persist everything.

    With ``if_needed`` the call returns at once when another consolidation holds the lock, and otherwise
    decides under the lock whether anything is due (so concurrent triggers run one consolidation).
    Order of writes: derived refs (meta, summaries, edges, then the run record), then the candidate cache.
    A process killed between writes leaves each ref readable (one atomic update each); a rerun loads what
    was written and completes.

    Returns:
        A report: counts, tier distribution, errors and timings (only ``not_run``, the reason, when nothing was due).
    """
    from memlab.adapter.spec import build_components
    from memlab.pipeline.consolidate import consolidate

    now = now or clock()
    step = progress or (lambda *_: None)
    t0 = time.perf_counter()
    with file_lock(repo.memlab_dir / "consolidate.lock", timeout=600, blocking=not if_needed) as held:
        if not held:
            return {"not_run": "another consolidation is running"}
        if not dry_run:
            attempt = {"unix": time.time(), "at": clock().isoformat(), "pid": os.getpid()}
            with contextlib.suppress(MemlabError):  # only a throttle: a full disk fails later, clearly
                write_json_atomic(repo.memlab_dir / LAST_ATTEMPT_FILE, attempt)
        step(1, STEPS, "reading notes")
        cap = int(spec["hook"].get("max_memories") or 0)
        policy = policy_id(spec)
        loaded = load_store(repo, policy, max_memories=cap or None)
        if if_needed:
            due, reason = needed(repo, loaded, spec, min_new)
            if not due:
                return {"not_run": reason}
        store = loaded.store
        step(2, STEPS, "loading strategies")
        check_models(spec, repo)
        components = build_components(spec)
        step(3, STEPS, f"consolidating {len(store.memories):,} memories")
        try:
            result = consolidate(store, components, now, full=full)
        except ModuleNotFoundError as exc:
            raise missing_package_error("consolidation", "(a strategy of the spec)", exc) from None
        report: dict[str, Any] = {
            "run_id": result.run_id,
            "now": now.isoformat(),
            "records": loaded.load.records,
            "memories": len(store.memories),
            "skipped": len(loaded.load.errors),
            "errors": loaded.errors[:50],
            "summaries": len(store.summaries),
            "edges": len(store.edges),
            "tier_counts": dict(result.tier_counts),
            "edges_created": dict(result.edges_created),
            "policy": policy,
            "dry_run": dry_run,
        }
        if loaded.total > len(store.memories):
            report["degraded"] = f"consolidated the newest {len(store.memories):,} of {loaded.total:,} memories"
        if dry_run:
            report["seconds"] = round(time.perf_counter() - t0, 3)
            return report
        step(4, STEPS, "writing derived notes")
        report["meta_written"] = write_meta(repo, store, policy)
        _maybe_kill("meta")
        summaries = [records.summary_record(s) for s in store.summaries.values()]
        jsonl_refs.append_records(repo, "summaries", summaries, policy)
        jsonl_refs.append_records(repo, "edges", [records.edge_record(e) for e in store.edges.values()], policy)
        _maybe_kill("edges")
        run = records.run_record(result, {"records": report["records"]})
        jsonl_refs.append_records(repo, "runs", [run], policy)
        for kind in jsonl_refs.DERIVED_REFS:
            jsonl_refs.compact(repo, kind, orphan_filter(loaded) if kind == "meta" else None)
        _maybe_kill("compact")
        step(5, STEPS, "writing the SessionStart cache")
        cands = candidate_records(store, components, now, int(spec["hook"]["max_item_chars"]))
        cache = {
            "format": CACHE_FORMAT,
            "now": now.isoformat(),
            "run_id": result.run_id,
            "policy": policy,
            "spec": spec_id(spec),
            "memories": len(store.memories),
            "tips": loaded.load.tips,
            "fields": list(CANDIDATE_COLUMNS),
            "rows": cache_rows(cands),
        }
        write_json_atomic(repo.memlab_dir / CACHE_FILE, cache)
        report["candidates"] = len(cands)
        report["seconds"] = round(time.perf_counter() - t0, 3)
        write_json_atomic(repo.memlab_dir / LAST_RUN_FILE, {"at": clock().isoformat(), **report})
        return report


#: A ``mem-meta`` record for a memory that exists in no note is dropped by compaction after this long.
ORPHAN_GRACE = timedelta(days=30)


def orphan_filter(loaded: Loaded) -> Callable[[dict[str, Any]], bool] | None:
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


def require_repo_memories(loaded: Loaded) -> None:
    """Raise when a repository holds no memory at all."""
    if not loaded.store.memories:
        raise MemlabError("no memories under refs/notes/mem/*; capture one with `memlab hook capture`")
