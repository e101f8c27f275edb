"""Repository consolidation: notes → store → pipeline → derived notes and the SessionStart candidate cache."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memlab.adapter import derived, jsonl_refs, records
from memlab.adapter.gitcli import Repo
from memlab.adapter.locking import file_lock
from memlab.adapter.notes_store import LoadResult, load_memories, paused_gc
from memlab.adapter.persist import persist
from memlab.adapter.spec import check_models, missing_package_error, policy_id, spec_id
from memlab.adapter.state import (
    CACHE_FILE,
    LAST_ATTEMPT_FILE,
    LAST_RUN_FILE,
    cache_problem,
    clock,
    read_json,
    write_json_atomic,
)
from memlab.core.errors import MemlabError
from memlab.pipeline.store import MemoryStore

#: ``progress(step, total, label)``: what install shows while the first consolidation runs.
Progress = Callable[[int, int, str], None]
STEPS = 4
#: What an incremental run reads (no clusterer, summarizer, temporal resolver or reader: ~0.7 s of start-up less).
INCREMENTAL_GROUPS = ("embedder", "admission", "retention", "judge", "selector", "retriever")


@dataclass
class Loaded:
    """A repository's memories and derived state, loaded into a :class:`MemoryStore`."""

    store: MemoryStore
    load: LoadResult
    meta: dict[str, dict[str, Any]]
    errors: list[str] = field(default_factory=list)
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)
    total: int = 0
    policy: str | None = None


def _parse_into(
    errors: list[str], label: str, items: dict[str, dict[str, Any]], parse: Callable, add: Callable
) -> None:
    for rid, rec in items.items():
        try:
            add(rid, parse(rec))
        except Exception as exc:  # decode validated the record; anything left is still skipped, never fatal
            errors.append(f"{label} {rid}: {type(exc).__name__}: {str(exc)[:80]}")


def load_store(
    repo: Repo,
    policy: str | None,
    *,
    deadline: float | None = None,
    max_memories: int | None = None,
    kinds: tuple[str, ...] = tuple(jsonl_refs.DERIVED_REFS),
    save_cache: bool = True,
) -> Loaded:
    """Read memories and ``policy``'s derived records of ``kinds`` (:func:`~memlab.adapter.spec.policy_id`);
    derived records about unknown memories, and every other policy's, are ignored.

    With ``max_memories`` only the newest that many memories enter the store (``Loaded.total`` says how
    many there were): the per-run cap of a consolidation, checked before any heavy phase. With ``save_cache``
    false the parsed-notes cache is read but not written (:func:`~memlab.adapter.notes_store.load_memories`).
    """
    load = load_memories(repo, deadline=deadline, cap=max_memories, save=save_cache)  # newest held while reading
    with paused_gc():  # 100,000 states at once
        store = MemoryStore(load.memories)
    errors = list(load.errors)
    texts = jsonl_refs.read_texts(repo, kinds)
    decoded: dict[str, dict[str, dict[str, Any]]] = {kind: {} for kind in jsonl_refs.DERIVED_REFS}
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
    derived.apply(repo, store, policy)  # tiers and supersessions: this clone's own conclusions, never a record's
    _parse_into(errors, "mem-summaries", decoded["summaries"], records.summary_from, add_summary)
    known = store.memories.keys() | store.summaries.keys()

    def add_edge(_: str, edge: Any) -> None:
        if edge.source in known and edge.target in known:
            store.add_edge(edge)

    _parse_into(errors, "mem-edges", decoded["edges"], records.edge_from, add_edge)
    return Loaded(store, load, decoded["meta"], errors, decoded["runs"], load.total, policy)


def new_memories(loaded: Loaded) -> frozenset[str]:
    """Memories this clone never consolidated under the loaded policy (:func:`memlab.adapter.derived.consolidated`:
    a ``mem-meta`` record, which anyone can push, never marks a memory as consolidated).
    """
    seen = derived.consolidated(loaded.store, loaded.policy or "")
    return frozenset(mid for mid in loaded.store.memories if mid not in seen)


def new_memory_count(loaded: Loaded) -> int:
    """How many :func:`new_memories` there are."""
    return len(new_memories(loaded))


def needed(loaded: Loaded, cache: Any, spec: dict[str, Any], min_new: int | None) -> tuple[bool, str]:
    """Whether a consolidation is due: a missing, invalid or other-spec cache, or ``min_new`` new memories."""
    problem = cache_problem(cache)
    if problem:
        return True, problem
    if cache.get("spec") != spec_id(spec):
        return True, "the cache came from another spec"
    if loaded.store.memories and not derived.consolidated(loaded.store, loaded.policy or ""):
        return True, "no consolidation of this policy in this clone"
    fresh, least = new_memory_count(loaded), max(1, min_new or 0)
    if min_new is not None and fresh >= least:
        return True, f"{fresh} new memories"
    return False, f"{fresh} new memories (< {least})"


def consolidate_repo(
    repo: Repo,
    spec: dict[str, Any],
    *,
    full: bool = False,
    dry_run: bool = False,
    now: datetime | None = None,
    if_needed: bool = False,
    min_new: int | None = None,
    incremental: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Consolidate a repository's memories with the spec's strategies and persist everything.

    With ``if_needed`` the call returns at once when another consolidation holds the lock, and otherwise
    decides under the lock whether anything is due (so concurrent triggers run one consolidation).
    With ``incremental`` (the Stop hook's) it waits for the lock, then consolidates only the memories new to
    the policy (:func:`memlab.pipeline.consolidate.consolidate` with ``fresh``), and does so again while
    memories arrived during the run; a full run instead when the cache is not this spec's, or when ``min_new``
    new memories are there. What it writes, in which order: :func:`memlab.adapter.persist.persist`.

    Returns:
        A report: counts, tier distribution, errors and timings (only ``not_run``, the reason, when nothing was due).
    """
    from memlab.adapter.notes_store import ref_tips

    with contextlib.ExitStack() as stack:
        if incremental and not stack.enter_context(file_lock(repo.memlab_dir / "incremental.lock", blocking=False)):
            return {"not_run": "an incremental consolidation is waiting already"}  # it reads the notes after us
        lock = file_lock(repo.memlab_dir / "consolidate.lock", timeout=600, blocking=incremental or not if_needed)
        if not stack.enter_context(lock):
            return {"not_run": "another consolidation is running"}
        for _ in range(3):
            args = (full, dry_run, now or clock(), if_needed, min_new, incremental, progress)
            report, tips = _consolidate(repo, spec, *args)
            if not incremental or "not_run" in report or ref_tips(repo) == tips:
                break
        return report


#: Recall vectors are kept for the newest ``RECALL_KEEP * hook.max_memories`` memories (see keep_recall_vectors).
RECALL_KEEP = 4


def keep_recall_vectors(repo: Repo, loaded: Loaded, components: Any, now: datetime, cap: int) -> None:
    """Embed through the run's :class:`~memlab.adapter.vectors.RepoEmbedder` (which keeps them) the recall text of
    every unit ``memlab recall`` searches: the consolidated store's and the memories past ``hook.max_memories``.

    The cap bounds the judge's work, not what a person can find: serving only the capped set would hide an old
    decision someone asks for (or make recall embed thousands of texts per call). So recall searches every memory
    and embeds only its query; the full run embeds each text once (the next reads it from the file) and, while the
    cap cuts, reads the notes a second time, in the background. That second read holds at most
    :data:`RECALL_KEEP` times the cap, newest first, so a store of a million memories costs no more memory than a
    few caps (issue 41); recall embeds anything older on the call that reaches it.
    """
    from memlab.adapter.notes_store import load_memories
    from memlab.pipeline.recall import recall

    older = []
    if cap and loaded.total > len(loaded.store.memories):
        kept = load_memories(repo, cap=RECALL_KEEP * cap).memories
        older = [m for m in kept if m.id not in loaded.store.memories]
    for store in (loaded.store, MemoryStore(older)):
        if store.memories:
            recall(store, components, next(iter(store.memories.values())).summary, now, mode="exhaustive", track=False)


def _consolidate(
    repo: Repo,
    spec: dict[str, Any],
    full: bool,
    dry_run: bool,
    now: datetime,
    if_needed: bool,
    min_new: int | None,
    incremental: bool,
    progress: Progress | None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """One run under the lock (:func:`consolidate_repo`); the report and the memory refs' tips it read."""
    import dataclasses

    from memlab.adapter.spec import build_components
    from memlab.adapter.vectors import RepoEmbedder
    from memlab.pipeline.consolidate import consolidate

    step = progress or (lambda *_: None)
    t0 = time.perf_counter()
    step(1, STEPS, "reading notes")
    cap = int(spec["hook"].get("max_memories") or 0)
    policy = policy_id(spec)
    loaded = load_store(repo, policy, max_memories=cap or None)
    store, tips = loaded.store, loaded.load.tips
    fresh = new_memories(loaded)
    cache = read_json(repo.memlab_dir / CACHE_FILE)
    full_due, reason = needed(loaded, cache, spec, min_new)
    if incremental and not full_due:
        if not fresh:
            return {"not_run": "no memory new to this policy"}, tips
    elif if_needed and not full_due:
        return {"not_run": reason}, tips
    run_fresh = fresh if incremental and not full_due else None
    if not dry_run and run_fresh is None:
        attempt = {"unix": time.time(), "at": clock().isoformat(), "pid": os.getpid()}
        with contextlib.suppress(MemlabError):  # only a throttle: a full disk fails later, clearly
            write_json_atomic(repo.memlab_dir / LAST_ATTEMPT_FILE, attempt)
    step(2, STEPS, "loading strategies")
    check_models(spec, repo)
    components = build_components(spec, None if run_fresh is None else INCREMENTAL_GROUPS)
    embedder = RepoEmbedder(components.embedder, repo.memlab_dir)
    components = dataclasses.replace(components, embedder=embedder)
    if not full and isinstance(cache, dict) and isinstance(cache.get("judge"), dict):  # earlier states kept
        components.judge.resume(cache["judge"])  # the tally as the last run left it
    step(3, STEPS, f"consolidating {len(run_fresh or store.memories):,} memories")
    known = None if run_fresh is None else set(store.edges)
    derived.start(repo, store, policy, full=full)
    try:
        result = consolidate(store, components, now, full=full, fresh=run_fresh)
        if run_fresh is None:
            keep_recall_vectors(repo, loaded, components, now, cap)
    except ModuleNotFoundError as exc:
        raise missing_package_error("consolidation", "(a strategy of the spec)", exc) from None
    report: dict[str, Any] = {
        "run_id": result.run_id,
        "now": now.isoformat(),
        "incremental": run_fresh is not None,
        "new": len(fresh),
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
    if not dry_run:
        step(4, STEPS, "writing derived notes and the SessionStart cache")
        report.update(persist(repo, spec, loaded, components, result, now, known))
    report["seconds"] = round(time.perf_counter() - t0, 3)
    if not dry_run and run_fresh is None:  # the full run's schedule (memlab.adapter.triggers) reads this one
        write_json_atomic(repo.memlab_dir / LAST_RUN_FILE, {"at": clock().isoformat(), **report})
    return report, tips
