"""Reading is bounded by records, not notes: a cap holds only the newest memories while notes are read, and the
deadline is checked before every note and within one (8 parallel first sessions on the real notes inject)."""

from __future__ import annotations

import concurrent.futures
import time
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_collect import Collector
from memlab.adapter.notes_format import RawMemory
from memlab.adapter.notes_store import load_memories
from memlab.core.paths import default_data_dir
from tests.adapter.conftest import add_note, git, upstream_memory

T0 = datetime(2025, 1, 1, tzinfo=UTC)
NOTES = default_data_dir() / "git-notes-memory-notes" / "notes.jsonl"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 3)), max_size=80), st.integers(1, 12))
def test_a_capped_collector_holds_exactly_the_newest_memories(records, cap):
    raws = [(RawMemory("decisions", T0 + timedelta(hours=i), f"m{i}", "b"), f"c{copy}") for i, copy in records]
    every, capped = Collector(), Collector(cap)
    for raw, commit in raws:
        every.add(raw, commit)
        capped.add(raw, commit)
        assert len(capped.groups) <= cap
    expected = every.memories()[-cap:]
    assert capped.memories() == expected  # copies and all: the same memories, built the same way
    assert capped.records == len(raws) and len(capped.memories()) + len(capped.dropped) == len(every.memories())


def test_the_deadline_is_checked_before_every_note(repo):
    for i in range(5):
        git(repo, "commit", "-q", "--allow-empty", "-m", f"c{i}")
        add_note(
            repo, "refs/notes/mem/decisions", upstream_memory("decisions", f"2025-12-0{i + 1}T10:00:00Z", f"M{i}", "b")
        )
    loaded = load_memories(find_repo(repo), deadline=time.monotonic(), cache=False)  # already past
    assert len(loaded.memories) == 1 and loaded.errors == ["reading stopped at the time budget (truncated)"]


@pytest.mark.slow
@pytest.mark.skipif(not NOTES.is_file(), reason="the real notes are not here")
def test_eight_parallel_first_sessions_on_the_real_notes_each_inject(tmp_path):
    import sys

    from memlab.adapter.bench import notes_dataset, read_notes_jsonl
    from tests.adapter.installed import install, write_spec

    project = tmp_path / "project"
    notes_dataset(project, read_notes_jsonl(NOTES))
    (tmp_path / "spec").mkdir()
    hook = install(project, write_spec(tmp_path / "spec"), sys.executable, "checkout")
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        runs = list(pool.map(lambda i: hook.run("SessionStart", timeout=30), range(8)))
    blocks = [r.stdout for r in runs if '"additionalContext"' in r.stdout]
    assert len(blocks) == 8, ([r.stdout[:200] for r in runs], hook.log())
