"""Nothing a writer adds is hidden: oversized memories are skipped one by one (never their note), deep or
huge front matter is refused before libyaml — each checked through the installed command."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_format import MAX_MEMORY_BYTES, MAX_NOTE_BYTES, parse_note
from memlab.adapter.notes_store import append_memory, load_memories
from tests.adapter.conftest import add_note, git, upstream_memory


def _status(hook) -> dict:
    proc = hook.memlab("status", "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _memory(i: int, body_bytes: int) -> str:
    ts = (datetime(2025, 12, 1, tzinfo=UTC) + timedelta(hours=i)).isoformat()
    return upstream_memory("decisions", ts, f"Decision {i:03d}", f"{i:03d} " + "x" * body_bytes)


def test_42_captures_of_100kb_on_one_commit_are_all_read(installed_checkout):
    hook = installed_checkout
    repo = find_repo(hook.project)
    start = datetime(2025, 12, 1, tzinfo=UTC)
    for i in range(42):  # what `memlab hook capture` does, in process (42 interpreter starts are slow)
        append_memory(repo, "decisions", f"Capture {i:02d}", "y" * 100_000, timestamp=start + timedelta(minutes=i))
    note = git(hook.project, "notes", "--ref=refs/notes/mem/decisions", "show")
    assert len(note) > MAX_NOTE_BYTES  # one note of 4.2 MB
    assert _status(hook)["memories"] == 42
    out = hook.session_start()
    block = out["hookSpecificOutput"]["additionalContext"]
    assert "Capture 41" in block and "raw notes" in out["systemMessage"], out


def test_a_pushed_4mb_append_hides_none_of_its_100_memories(installed_checkout):
    hook = installed_checkout
    add_note(hook.project, "refs/notes/mem/decisions", "\n".join(_memory(i, 43_000) for i in range(100)))
    data = _status(hook)
    assert data["memories"] == 100 and data["skipped"] == 0, data["errors"]
    assert "Decision 099" in hook.context()


def test_an_oversized_memory_is_skipped_alone_in_small_and_streamed_notes(installed_checkout):
    hook = installed_checkout
    small = [_memory(0, 10), _memory(1, MAX_MEMORY_BYTES + 10), _memory(2, 10)]
    add_note(hook.project, "refs/notes/mem/decisions", "\n".join(small))
    big = [_memory(3 + i, 60_000) for i in range(80)]
    big.insert(40, _memory(200, 3 * MAX_MEMORY_BYTES))  # a huge memory in the middle of a 5 MB note
    big.insert(41, upstream_memory("learnings", "2025-12-20T00:00:00+00:00", "one long line", "z" * 5_000_000))
    add_note(hook.project, "refs/notes/mem/learnings", "\n".join(big))
    data = _status(hook)
    assert data["memories"] == 2 + 80 and data["skipped"] == 3, data["errors"]
    assert all("over the 131072-byte limit of one memory" in e for e in data["errors"]), data["errors"]
    block = hook.context()
    assert "Decision 002" in block or "Decision 082" in block


def test_capture_refuses_a_memory_over_the_cap_with_one_line(installed_checkout):
    hook = installed_checkout
    big = json.dumps({"namespace": "decisions", "summary": "big", "content": "x" * 140_000})
    proc = hook.memlab("hook", "capture", stdin=big)
    assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "limit of one memory" in proc.stderr and "Traceback" not in proc.stderr
    ok = hook.memlab("hook", "capture", "--namespace", "decisions", "--summary", "fits", "--content", "x" * 100_000)
    assert ok.returncode == 0, ok.stderr
    assert load_memories(find_repo(hook.project)).memories[0].summary == "fits"


def test_deep_front_matter_is_refused_before_libyaml(installed):
    deep = "---\ntype: decisions\ntimestamp: 2025-12-01T00:00:00+00:00\nsummary: " + "[" * 25_000 + "\n---\n\nb\n"
    block_deep = "---\ntype: decisions\ntimestamp: 2025-12-01T00:00:00+00:00\nx: " + "- " * 3_000 + "a\n---\n\nb\n"
    t0 = time.perf_counter()
    good, bad = parse_note(deep + "\n" + block_deep, "decisions")
    assert good == [] and len(bad) == 2 and time.perf_counter() - t0 < 0.5, bad
    add_note(installed.project, "refs/notes/mem/decisions", deep)
    add_note(installed.project, "refs/notes/mem/decisions", block_deep, commit="HEAD")
    add_note(
        installed.project,
        "refs/notes/mem/learnings",
        upstream_memory("learnings", "2025-12-02T00:00:00+00:00", "Survives its neighbours", "b"),
    )
    proc = installed.run("SessionStart")
    assert proc.returncode == 0 and "Survives its neighbours" in proc.stdout, (proc.returncode, proc.stderr)
