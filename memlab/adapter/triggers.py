"""Stop / SessionEnd: decide cheaply whether a background consolidation is due, then start it detached."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memlab.adapter.gitcli import Repo
from memlab.adapter.locking import file_lock
from memlab.adapter.state import LAST_RUN_FILE, read_json


def due(repo: Repo, spec: dict[str, Any], now: datetime) -> tuple[bool, str]:
    """``(due, reason)``: not while a consolidation runs, not before the minimum interval has passed.

    Whether enough new memories exist (the seed's threshold) is checked by the background process itself
    (``consolidate --if-needed``), which has to read the notes anyway.
    """
    with file_lock(repo.memlab_dir / "consolidate.lock", blocking=False) as free:
        if not free:
            return False, "a consolidation is running"
    last = read_json(repo.memlab_dir / LAST_RUN_FILE)
    interval = float(spec["hook"]["consolidate_min_interval_seconds"])
    if isinstance(last, dict) and last.get("at"):
        try:
            age = (now - datetime.fromisoformat(last["at"])).total_seconds()
        except (TypeError, ValueError):
            age = interval
        if age < interval:
            return False, f"last consolidation {age:.0f} s ago (minimum interval {interval:.0f} s)"
    return True, "due"


def new_memory_count(loaded: Any) -> int:
    """Memories never consolidated (no ``mem-meta`` record yet)."""
    return sum(1 for mid in loaded.store.memories if mid not in loaded.meta)
