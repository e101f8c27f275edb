"""Stop / SessionEnd: decide cheaply whether a background consolidation is due, then start it detached."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memlab.adapter.gitcli import Repo
from memlab.adapter.session import consolidation_running, recently_attempted
from memlab.adapter.state import LAST_RUN_FILE, log_line, read_json


def due(repo: Repo, spec: dict[str, Any], now: datetime) -> tuple[bool, str]:
    """``(due, reason)``: not while a consolidation runs, not before the minimum interval has passed since
    the last consolidation or the last attempt (a consolidation that keeps failing is not relaunched by
    every Stop).

    Whether enough new memories exist (the seed's threshold) is checked by the background process itself
    under the consolidation lock (``consolidate --if-needed``), which has to read the notes anyway.
    """
    if consolidation_running(repo):
        return False, "a consolidation is running"
    interval = float(spec["hook"]["consolidate_min_interval_seconds"])
    if recently_attempted(repo, interval):
        return False, f"a consolidation started less than {interval:.0f} s ago"
    last = read_json(repo.memlab_dir / LAST_RUN_FILE)
    if isinstance(last, dict) and last.get("at"):
        try:
            age = (now - datetime.fromisoformat(last["at"])).total_seconds()
        except (TypeError, ValueError):
            age = interval
        if age < 0:  # a clock set back, a VM resumed before time sync: never "too recent" forever
            log_line(repo.memlab_dir, f"last consolidation recorded {-age:.0f} s in the future ({last['at']}): due")
            return True, "the last consolidation lies in the future"
        if age < interval:
            return False, f"last consolidation {age:.0f} s ago (minimum interval {interval:.0f} s)"
    return True, "due"
