"""The SessionStart path: read the candidate cache, apply the per-source policy, select, render, print.

Imports stay light (no numpy, torch, mlflow, hydra or sklearn): consolidation precomputed everything. Nor does
the cached path import ``dataclasses`` or ``typing`` (a third of a cold process's CPU time together): its value
types are :class:`~memlab.core.selection_types.FrozenValue` classes, its modules name their annotation-only imports
under a local ``TYPE_CHECKING`` flag, and the builder checks the selector against its base class, which imports neither
(``tests/adapter/test_session_start.py`` holds the list). When
the cache is missing or unusable (a fresh install, a corrupt file) the block is built from the raw notes
instead — newest memories first, within the hook's time budget — and a consolidation starts in the
background.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from memlab.adapter.repo import Repo
from memlab.adapter.state import (
    CACHE_FILE,
    LAST_ATTEMPT_FILE,
    SESSIONS_FILE,
    candidate_rows,
    log_line,
    read_json,
    write_json_atomic,
)
from memlab.core.selection_types import InjectionCandidate, Tier

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from typing import Any

SOURCES = ("startup", "resume", "clear", "compact", "fork")
#: Sessions remembered for the resume/fork policy.
MAX_SESSIONS = 200


def safe_python() -> list[str]:
    """This interpreter with ``-P``: the current folder (a repository) is never put on ``sys.path``."""
    return [sys.executable, "-P"]


def consolidation_running(repo: Repo) -> bool:
    """Whether another process holds the consolidation lock (one ``flock`` attempt)."""
    import fcntl

    try:
        fd = os.open(repo.memlab_dir / "consolidate.lock", os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def recently_attempted(repo: Repo, seconds: float) -> bool:
    """Whether a consolidation started less than ``seconds`` ago, successful or not (wall clock)."""
    import time

    last = read_json(repo.memlab_dir / LAST_ATTEMPT_FILE)
    try:
        return 0 <= time.time() - float(last["unix"]) < seconds
    except (TypeError, KeyError, ValueError):
        return False


def claim_start(repo: Repo, seconds: float) -> bool:
    """Whether this process should start a background consolidation now, claiming the start if so.

    Under a non-blocking ``flock`` of ``.git/memlab/spawn.lock``: no consolidation runs and none started
    within ``seconds``; the claim is ``last-attempt.json`` written before the child starts, so sessions
    starting together (8 parallel first sessions) launch one consolidation, not one each.
    """
    import fcntl
    import time

    from memlab.core.errors import MemlabError

    try:
        repo.memlab_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(repo.memlab_dir / "spawn.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError:
        return not consolidation_running(repo) and not recently_attempted(repo, seconds)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # another session is starting one right now
        if consolidation_running(repo) or recently_attempted(repo, seconds):
            return False
        claim = {"unix": time.time(), "at": datetime.now(UTC).isoformat(), "pid": os.getpid(), "by": "spawn"}
        with contextlib.suppress(MemlabError):
            write_json_atomic(repo.memlab_dir / LAST_ATTEMPT_FILE, claim)
        return True
    finally:
        os.close(fd)


def spawn_consolidation(
    repo: Repo, spec_path: str | None, *, min_new: int | None = 0, incremental: bool = False
) -> None:
    """Start ``memlab consolidate --if-needed`` (or ``--incremental``: the memories new since the last run; with
    ``min_new`` a full run from that many) detached (own session, no pipes), so the caller never waits.

    The child runs with ``-P`` and ``PYTHONSAFEPATH=1`` (no module from the repository can be imported) and
    decides under the consolidation lock whether anything is due. It does not inherit the hook's bytecode
    folder (``PYTHONPYCACHEPREFIX``, :func:`memlab.adapter.install.pycache_dir`), which holds no
    site-packages bytecode: there it would compile every scientific module from source.
    """
    import subprocess

    import memlab
    from memlab.adapter.install import pycache_dir

    cmd = [*safe_python(), "-m", "memlab.cli", "consolidate", "--project", str(repo.root), "--background"]
    cmd += ["--incremental"] if incremental else ["--if-needed"]
    cmd += ["--min-new", str(min_new)] if min_new is not None else []
    if spec_path:
        cmd += ["--spec", spec_path]
    root = str(Path(memlab.__file__).resolve().parent.parent)
    paths = (root, os.environ.get("PYTHONPATH"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p), "PYTHONSAFEPATH": "1"}
    if env.get("PYTHONPYCACHEPREFIX") == str(pycache_dir()):
        del env["PYTHONPYCACHEPREFIX"]
    subprocess.Popen(
        cmd,
        cwd=repo.root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        env=env,
    )


def cached_candidates(rows: list[tuple[Any, ...]]) -> list[InjectionCandidate]:
    """Candidates from the checked rows of the cache written by consolidation (:func:`candidate_rows`)."""
    tiers = {t.value: t for t in Tier}
    return [InjectionCandidate(a, b, c, d, e, f, g, h, i, tiers[t]) for a, b, c, d, e, f, g, h, i, t in rows]


def raw_candidates(
    repo: Repo, spec: dict[str, Any], now: datetime, deadline: float | None, problems: list[str] | None = None
) -> list[InjectionCandidate]:
    """Candidates straight from the notes (no consolidation yet): every memory recorded by ``now`` (the newest
    ``hook.max_memories`` of those read within the deadline) that the spec's admission lets into the block.

    ``problems``, when given, receives one line per note or memory skipped (and the time-budget cut).
    """
    from memlab.adapter.freshness import admitted, memory_cap, raw_candidate
    from memlab.adapter.notes_store import load_memories

    limit = int(spec["hook"]["max_item_chars"])
    loaded = load_memories(repo, deadline=deadline, cap=memory_cap(spec))
    if problems is not None:
        problems.extend(loaded.errors)
    return [raw_candidate(m, now, limit) for m in admitted(spec, [m for m in loaded.memories if m.timestamp <= now])]


def decide(policy: str, source: str, session_id: str, version: str, sessions: dict[str, Any]) -> bool:
    """Whether to inject: ``always``, ``never`` or ``if_changed`` (since this session's last injection;
    a fork — a new session id — compares with the last injection in the repository; a resumed session
    never seen here, which never received a block, gets it).
    """
    if policy == "never":
        return False
    if policy != "if_changed":
        return True
    seen = sessions.get(session_id) if session_id else None
    if source == "resume" and not isinstance(seen, dict):
        return True
    previous = ((seen if isinstance(seen, dict) else None) or sessions.get("_last") or {}).get("version")
    return previous != version


def session_start(
    payload: dict[str, Any], repo: Repo, spec: dict[str, Any], now: datetime, deadline: float | None = None
) -> dict[str, Any]:
    """The hook's output object for one SessionStart event (may hold only a ``systemMessage``).

    Args:
        payload: Claude Code's SessionStart JSON.
        repo: The repository served.
        spec: The loaded spec.
        now: The clock.
        deadline: ``time.monotonic()`` by which reading raw notes (first sessions), or waiting for the
            consolidation of memories recorded since the cache was written (:mod:`memlab.adapter.freshness`), stops.
    """
    from memlab.adapter.freshness import budget_tokens, pending_block
    from memlab.adapter.spec import build_selector
    from memlab.pipeline.inject import build_block

    source = str(payload.get("source") or "startup")
    if source not in SOURCES:
        source = "startup"
    session_id = str(payload.get("session_id") or "")[:200]
    cache = read_json(repo.memlab_dir / CACHE_FILE)
    rows, problem = candidate_rows(cache)
    if problem:
        _start_consolidation(repo, spec)
        skipped: list[str] = []
        pool = raw_candidates(repo, spec, now, deadline, skipped)
        cut = next((f"; {e.removesuffix(' (truncated)')}" for e in skipped if e.endswith("(truncated)")), "")
        note = f" from the raw notes ({problem}{cut}; consolidation runs in the background)"
        claim = "unchecked"
        if not pool:
            return {"systemMessage": f"memlab: no memory to inject yet ({problem})"}
    else:
        pool, claim, note = _cached_pool(repo, spec, cache, rows, deadline)
    selector, max_chars = build_selector(spec), int(spec["hook"]["max_chars"])
    if note.startswith(" (memories captured"):
        block = pending_block(repo, spec, pool, selector, now, claim)
    else:
        block = build_block(pool, budget_tokens(spec), selector, now, max_chars, claim=claim)
    if not block.text:
        return {"systemMessage": "memlab: no memory to inject"}
    sessions = read_json(repo.memlab_dir / SESSIONS_FILE, {})
    sessions = sessions if isinstance(sessions, dict) else {}
    policy = str(spec["hook"]["policy"].get(source, "always"))
    if not decide(policy, source, session_id, block.version, sessions):
        return {
            "systemMessage": f"memlab: memory unchanged since this session's last injection (version {block.version})"
        }
    entry = {"version": block.version, "at": now.isoformat(timespec="seconds"), "source": source}
    _remember(repo, sessions, session_id, entry)
    n = len(block.items)
    return {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": block.text},
        "systemMessage": f"memlab: injected {n} project memor{'y' if n == 1 else 'ies'} "
        f"(version {block.version}){note}",
    }


def _start_consolidation(repo: Repo, spec: dict[str, Any]) -> None:
    """Start a full consolidation in the background unless one started less than the spec's minimum interval
    (at most a minute) ago.
    """
    if claim_start(repo, min(float(spec["hook"]["consolidate_min_interval_seconds"]), 60.0)):
        spawn_consolidation(repo, spec.get("path"))


def _cached_pool(
    repo: Repo, spec: dict[str, Any], cache: dict[str, Any], rows: list[tuple[Any, ...]], deadline: float | None
) -> tuple[list[InjectionCandidate], str, str]:
    """``(pool, claim, note)`` from consolidation's cache.

    A cache of another spec is stale (a consolidation with this one is started); when memories were captured
    since it was written, the incremental consolidation is waited on up to ``deadline``.
    """
    from memlab.adapter.freshness import moved, wait_for_cache
    from memlab.adapter.spec import spec_id
    from memlab.pipeline.inject import CLAIMS

    note = ""
    if cache.get("spec") != spec_id(spec):  # any change of the spec: the cache is stale
        note = " from another spec's consolidation (a consolidation with this one runs in the background)"
        _start_consolidation(repo, spec)
    elif (tips := moved(repo, cache)) is not None:  # memories the cache has not seen: wait for their turn
        spawn_consolidation(repo, spec.get("path"), min_new=None, incremental=True)
        fresh = wait_for_cache(repo, tips, deadline if deadline is not None else time.monotonic() + 1.0)
        fresh_rows, fresh_problem = candidate_rows(fresh)
        if fresh_problem or fresh.get("spec") != spec_id(spec):
            note = " (memories captured since the last consolidation first, not yet consolidated)"
        else:
            cache, rows = fresh, fresh_rows
    claim = cache.get("claim")
    return cached_candidates(rows), claim if isinstance(claim, str) and claim in CLAIMS else "unchecked", note


def _remember(repo: Repo, sessions: dict[str, Any], session_id: str, entry: dict[str, str]) -> None:
    """Record this injection for the session and as the last one; a failed write is logged, never raised.

    The oldest sessions beyond ``MAX_SESSIONS`` are dropped.
    """
    if session_id:
        sessions[session_id] = entry
    sessions["_last"] = entry
    if len(sessions) > MAX_SESSIONS:
        dated = [k for k in sessions if k != "_last" and isinstance(sessions[k], dict)]
        keep = sorted(dated, key=lambda k: str(sessions[k].get("at", "")))[-MAX_SESSIONS:]
        sessions = {k: sessions[k] for k in [*keep, "_last"]}
    try:
        write_json_atomic(repo.memlab_dir / SESSIONS_FILE, sessions)
    except Exception as exc:
        log_line(repo.memlab_dir, f"session-start: sessions state not saved: {exc}")
