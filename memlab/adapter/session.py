"""The SessionStart path: read the candidate cache, apply the per-source policy, select, render, print.

Imports stay light (no numpy, torch, mlflow, hydra or sklearn): consolidation precomputed everything.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from memlab.adapter.repo import Repo
from memlab.adapter.state import CACHE_FILE, SESSIONS_FILE, read_json, write_json_atomic
from memlab.types import InjectionCandidate, SelectionContext, Tier

SOURCES = ("startup", "resume", "clear", "compact", "fork")
#: Sessions remembered for the resume/fork policy.
MAX_SESSIONS = 200


def spawn_consolidation(repo: Repo, spec_path: str | None, *, min_new: int = 0) -> None:
    """Start ``memlab consolidate --if-needed`` detached (own session, no pipes), so the caller never waits."""
    import subprocess

    import memlab

    cmd = [sys.executable, "-m", "memlab.cli", "consolidate", "--project", str(repo.root), "--background"]
    cmd += ["--if-needed", "--min-new", str(min_new)]
    if spec_path:
        cmd += ["--spec", spec_path]
    root = str(Path(memlab.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
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


def cached_candidates(cache: dict[str, Any]) -> list[InjectionCandidate]:
    """Candidates from the cache written by consolidation."""
    out = []
    for c in cache.get("candidates") or ():
        out.append(
            InjectionCandidate(
                id=c["id"],
                kind=c["kind"],
                namespace=c["namespace"],
                text=c["text"],
                timestamp=datetime.fromisoformat(c["timestamp"]),
                relevance=float(c["relevance"]),
                recency=float(c["recency"]),
                activation=float(c["activation"]),
                confidence=float(c["confidence"]),
                tier=Tier(c["tier"]),
            )
        )
    return out


def build_block(cache: dict[str, Any], spec: dict[str, Any], now: datetime) -> Any:
    """Select from the cached candidates with the spec's selector and render; cut to ``max_chars``."""
    from memlab.adapter.spec import build_selector
    from memlab.pipeline.inject import overhead_tokens, render

    selector = build_selector(spec)
    context = SelectionContext(now=now, query=None)
    budget = max(0, int(cache.get("budget_tokens", 2000)) - overhead_tokens(context.chars_per_token))
    chosen = list(selector.select(cached_candidates(cache), context, budget))
    block = render(chosen, now.date())
    limit = int(spec["hook"]["max_chars"])
    while chosen and len(block.text) > limit:
        chosen.pop()
        block = render(chosen, now.date())
    return block


def decide(policy: str, source: str, session_id: str, version: str, sessions: dict[str, Any]) -> bool:
    """Whether to inject: ``always``, ``never`` or ``if_changed`` (since this session's last injection;
    a session never seen — a fork — compares with the last injection in the repository).
    """
    if policy == "never":
        return False
    if policy != "if_changed":
        return True
    seen = sessions.get(session_id) if session_id else None
    previous = (seen or sessions.get("_last") or {}).get("version")
    return previous != version


def session_start(payload: dict[str, Any], repo: Repo, spec: dict[str, Any], now: datetime) -> dict[str, Any]:
    """The hook's output object for one SessionStart event (may hold only a ``systemMessage``)."""
    source = str(payload.get("source") or "startup")
    if source not in SOURCES:
        source = "startup"
    session_id = str(payload.get("session_id") or "")[:200]
    cache = read_json(repo.memlab_dir / CACHE_FILE)
    if not isinstance(cache, dict) or not cache.get("candidates"):
        spawn_consolidation(repo, spec.get("path"))
        return {"systemMessage": "memlab: no consolidated memories yet; consolidation started in the background"}
    from memlab.adapter.spec import config_hash

    if cache.get("spec_hash") != config_hash(spec.get("strategies")):
        spawn_consolidation(repo, spec.get("path"))  # the cache came from another spec: refresh it
    block = build_block(cache, spec, now)
    if not block.text:
        return {"systemMessage": "memlab: no memory to inject"}
    sessions_path = repo.memlab_dir / SESSIONS_FILE
    sessions = read_json(sessions_path, {})
    sessions = sessions if isinstance(sessions, dict) else {}
    policy = str(spec["hook"]["policy"].get(source, "always"))
    if not decide(policy, source, session_id, block.version, sessions):
        return {
            "systemMessage": f"memlab: memory unchanged since this session's last injection (version {block.version})"
        }
    entry = {"version": block.version, "at": now.isoformat(timespec="seconds"), "source": source}
    if session_id:
        sessions[session_id] = entry
    sessions["_last"] = entry
    if len(sessions) > MAX_SESSIONS:
        keep = sorted((k for k in sessions if k != "_last"), key=lambda k: sessions[k].get("at", ""))[-MAX_SESSIONS:]
        sessions = {k: sessions[k] for k in [*keep, "_last"]}
    write_json_atomic(sessions_path, sessions)
    n = len(block.items)
    return {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": block.text},
        "systemMessage": f"memlab: injected {n} project memor{'y' if n == 1 else 'ies'} (version {block.version})",
    }
