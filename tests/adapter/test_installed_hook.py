"""The first session, through the installed command: raw notes are injected whenever no cache is usable."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from tests.adapter.conftest import seed
from tests.adapter.installed import Installed, payload

SUMMARIES = ("Use FastAPI for the API", "Use Flask for the API", "pytest -x stops at the first failure")


def complete(out: dict) -> bool:
    """Whether a raw-notes injection read every note (a loaded machine may hit the time budget first)."""
    return "reading stopped at" not in out.get("systemMessage", "")


def _raw_block(hook: Installed, **kwargs: str) -> str:
    out = hook.session_start(**kwargs)
    assert "from the raw notes" in out.get("systemMessage", ""), (out, hook.log())
    block = out["hookSpecificOutput"]["additionalContext"]
    assert SUMMARIES[0] in block and (all(s in block for s in SUMMARIES) or not complete(out)), block
    return block


def test_first_session_without_a_cache_injects_the_raw_notes(installed):
    seed(installed.project)
    _raw_block(installed)
    assert installed.log() == ""


def test_a_corrupt_or_other_format_cache_injects_the_raw_notes(installed):
    seed(installed.project)
    cache = installed.project / ".git" / "memlab" / "candidates.json"
    cache.parent.mkdir(exist_ok=True)
    for text in ('{"format": 1, "candidates": []}', '{"format": 2, "rows": [[1]]', "\x00garbage"):
        cache.write_text(text)
        _raw_block(installed, session_id=f"s-{len(text)}")


def test_eight_parallel_first_sessions_all_inject(installed):
    seed(installed.project)

    def one(i: int) -> dict:
        proc = installed.run("SessionStart", payload(installed.project, "SessionStart", session_id=f"p-{i}"))
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        return json.loads(proc.stdout)

    with ThreadPoolExecutor(8) as pool:
        outs = list(pool.map(one, range(8)))
    # each injects: from the raw notes, or from the cache a background consolidation wrote meanwhile
    for out in outs:
        block = out["hookSpecificOutput"]["additionalContext"]
        assert SUMMARIES[0] in block, out
        assert all(s in block for s in SUMMARIES) or "raw notes" not in out["systemMessage"] or not complete(out), out
