"""Repository consolidation: notes → store → pipeline → derived notes and the SessionStart candidate cache."""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from memlab.adapter import jsonl_refs, records
from memlab.adapter.gitcli import Repo
from memlab.adapter.locking import file_lock
from memlab.adapter.notes_store import LoadResult, load_memories
from memlab.adapter.spec import config_hash, missing_package_error
from memlab.adapter.state import CACHE_FILE, LAST_RUN_FILE, clock, write_json_atomic
from memlab.errors import MemlabError
from memlab.pipeline.store import MemoryStore

CACHE_FORMAT = 1


@dataclass
class Loaded:
    """A repository's memories and derived state, loaded into a :class:`MemoryStore`."""

    store: MemoryStore
    load: LoadResult
    meta: dict[str, dict[str, Any]]
    errors: list[str] = field(default_factory=list)
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)


def load_store(repo: Repo) -> Loaded:
    """Read memories and every derived ref; derived records about unknown memories are ignored."""
    load = load_memories(repo)
    store = MemoryStore(load.memories)
    errors = list(load.errors)
    meta, errs = jsonl_refs.read_records(repo, "meta")
    errors += errs
    for mid, rec in meta.items():
        if mid in store.memories:
            try:
                store.states[mid] = records.state_from(rec)
            except (KeyError, ValueError, TypeError) as exc:
                errors.append(f"mem-meta {mid}: {exc}")
    summaries, errs = jsonl_refs.read_records(repo, "summaries")
    errors += errs
    for sid, rec in summaries.items():
        try:
            summary = records.summary_from(rec)
        except (KeyError, ValueError, TypeError) as exc:
            errors.append(f"mem-summaries {sid}: {exc}")
            continue
        if all(i in store.memories for i in summary.source_ids):
            store.summaries[sid] = summary
    edges, errs = jsonl_refs.read_records(repo, "edges")
    errors += errs
    for eid, rec in edges.items():
        try:
            store.add_edge(records.edge_from(rec))
        except (KeyError, ValueError, TypeError) as exc:
            errors.append(f"mem-edges {eid}: {exc}")
    runs, errs = jsonl_refs.read_records(repo, "runs")
    errors += errs
    return Loaded(store, load, meta, errors, runs)


def candidate_records(store: MemoryStore, components: Any, now: datetime, max_item_chars: int) -> list[dict]:
    """The SessionStart candidates at ``now`` as JSON objects (the pipeline's own candidate builder)."""
    from memlab.pipeline.inject import candidates

    out = []
    for c in candidates(store, components, now, None, max_item_chars=max_item_chars):
        data = asdict(c)
        data["timestamp"] = c.timestamp.isoformat()
        data["tier"] = c.tier.value
        out.append(data)
    return out


def consolidate_repo(
    repo: Repo, spec: dict[str, Any], *, full: bool = False, dry_run: bool = False, now: datetime | None = None
) -> dict[str, Any]:
    """Consolidate a repository's memories with the spec's strategies and persist everything.

    Order of writes: derived refs (meta, summaries, edges, then the run record), then the candidate cache.
    A process killed between writes leaves each ref readable (one atomic update each); a rerun loads what
    was written and completes.

    Returns:
        A report: counts, tier distribution, errors and timings.
    """
    from memlab.adapter.spec import build_components
    from memlab.pipeline.consolidate import consolidate

    now = now or clock()
    t0 = time.perf_counter()
    with file_lock(repo.memlab_dir / "consolidate.lock", timeout=600):
        loaded = load_store(repo)
        store = loaded.store
        components = build_components(spec)
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
            "spec_hash": config_hash(spec.get("strategies")),
            "dry_run": dry_run,
        }
        if dry_run:
            report["seconds"] = round(time.perf_counter() - t0, 3)
            return report
        changed = [
            records.state_record(s)
            for mid, s in sorted(store.states.items())
            if _strip(loaded.meta.get(mid)) != records.state_record(s)
        ]
        jsonl_refs.append_records(repo, "meta", changed)
        _maybe_kill("meta")
        jsonl_refs.append_records(repo, "summaries", [records.summary_record(s) for s in store.summaries.values()])
        jsonl_refs.append_records(repo, "edges", [records.edge_record(e) for e in store.edges.values()])
        _maybe_kill("edges")
        run = records.run_record(result, {"spec_hash": report["spec_hash"], "records": report["records"]})
        jsonl_refs.append_records(repo, "runs", [run])
        for kind in jsonl_refs.DERIVED_REFS:
            jsonl_refs.compact(repo, kind)
        cands = candidate_records(store, components, now, int(spec["hook"]["max_item_chars"]))
        cache = {
            "format": CACHE_FORMAT,
            "now": now.isoformat(),
            "run_id": result.run_id,
            "spec_hash": report["spec_hash"],
            "budget_tokens": components.settings.budget_tokens,
            "memories": len(store.memories),
            "tips": loaded.load.tips,
            "candidates": cands,
        }
        write_json_atomic(repo.memlab_dir / CACHE_FILE, cache)
        report["candidates"] = len(cands)
        report["meta_written"] = len(changed)
        report["seconds"] = round(time.perf_counter() - t0, 3)
        write_json_atomic(repo.memlab_dir / LAST_RUN_FILE, {"at": clock().isoformat(), **report})
        return report


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
