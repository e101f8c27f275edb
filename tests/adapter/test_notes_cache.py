"""The parsed-notes cache (``.git/memlab/notes-cache/``): exact hits by blob id, and a cache that is corrupt,
hostile, stale or full never hides a note."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memlab.adapter import notes_cache
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import load_memories
from tests.adapter.conftest import add_note, git, seed, upstream_memory


def _view(result) -> tuple:
    return (
        [(m.id, m.namespace, m.timestamp, m.summary, m.content, m.tags, m.meta) for m in result.memories],
        result.records,
        result.errors,
    )


def _files(repo: Path) -> dict[str, Path]:
    return {p.name: p for p in (repo / ".git" / "memlab" / notes_cache.CACHE_DIR).glob("*.json")}


@pytest.fixture
def noted(seeded: Path) -> Path:
    """:func:`seed`'s memories plus a note with a bad memory (its skip message is cached too)."""
    git(seeded, "commit", "-q", "--allow-empty", "-m", "second")
    add_note(seeded, "refs/notes/mem/progress", "---\ntype: progress\nsummary: no timestamp\n---\n\nx\n")
    return seeded


def test_a_second_read_takes_every_note_from_the_cache_and_gives_the_same_result(noted, monkeypatch):
    repo = find_repo(noted)
    plain = load_memories(repo, cache=False)
    assert _files(noted) == {}
    first = load_memories(repo)
    assert _view(first) == _view(plain) and _files(noted)

    def refuse(*args, **kwargs):
        raise AssertionError("a cached note was parsed again")

    monkeypatch.setattr("memlab.adapter.notes_store.parse_note", refuse)
    second = load_memories(repo)
    assert _view(second) == _view(plain) and len(plain.memories) == 3 and len(plain.errors) == 1


@pytest.mark.parametrize(
    "content",
    [
        b"\x00garbage",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"format": 99, "parser": "x", "notes": {}}',
        b'{"format": 1, "notes": []}',
    ],
)
def test_a_corrupt_cache_file_is_ignored_with_a_logged_line(noted, content):
    repo = find_repo(noted)
    plain = load_memories(repo, cache=False)
    load_memories(repo)
    for path in _files(noted).values():
        path.write_bytes(content)
    assert _view(load_memories(repo)) == _view(plain)
    log = (noted / ".git" / "memlab" / "hook.log").read_text()
    assert "notes cache" in log and "ignored" in log and len(log.splitlines()) == len(_files(noted))
    assert _view(load_memories(repo)) == _view(plain)  # rewritten: the next read is clean
    assert len((noted / ".git" / "memlab" / "hook.log").read_text().splitlines()) == len(_files(noted))


def test_a_cache_file_that_is_a_fifo_or_a_link_is_ignored(noted, tmp_path):
    repo = find_repo(noted)
    plain = load_memories(repo, cache=False)
    load_memories(repo)
    paths = sorted(_files(noted).values())
    paths[0].unlink()
    os.mkfifo(paths[0])  # a plain open() would block forever
    if len(paths) > 1:
        (tmp_path / "elsewhere.json").write_text("{}")
        paths[1].unlink()
        paths[1].symlink_to(tmp_path / "elsewhere.json")
    assert _view(load_memories(repo)) == _view(plain)


@pytest.mark.parametrize(
    "entry",
    [
        [[], []],  # says the note holds nothing
        [[["decisions", "2025-12-20T10:00:00", "naive", "time", []]], []],
        [[["decisions", "not a time", "x", "y", []]], []],
        [[[0, 1, 2, 3, 4]], []],
        [[["decisions", "2025-12-20T10:00:00+00:00", "x", "y", "tags"]], []],
        [[["2025-12-20T10:00:00+00:00", "x", "y", []]], []],  # the older layout's row
        "text",
        None,
    ],
)
def test_a_hostile_entry_is_ignored_and_its_note_parsed(noted, entry):
    repo = find_repo(noted)
    plain = load_memories(repo, cache=False)
    load_memories(repo)
    for path in _files(noted).values():
        data = json.loads(path.read_text())
        data["notes"] = {blob: entry for blob in data["notes"]}
        path.write_text(json.dumps(data))
    assert _view(load_memories(repo)) == _view(plain)


def test_the_cache_holds_only_listed_notes_and_stays_under_its_size_cap(seeded, monkeypatch):
    repo = find_repo(seeded)
    load_memories(repo)
    before = {b for p in _files(seeded).values() for b in json.loads(p.read_text())["notes"]}
    git(seeded, "notes", "--ref=refs/notes/mem/learnings", "remove", "HEAD")
    plain = load_memories(repo, cache=False)
    load_memories(repo)
    after = {b for p in _files(seeded).values() for b in json.loads(p.read_text())["notes"]}
    assert len(after) == len(before) - 1 and len(plain.memories) == 2
    monkeypatch.setattr(notes_cache, "MAX_CACHED_CHARS", 0)
    add_note(seeded, "refs/notes/mem/decisions", upstream_memory("decisions", "2025-12-26T10:00:00Z", "New", "b"))
    full = load_memories(repo)
    assert "New" in {m.summary for m in full.memories} and len(full.memories) == 3
    assert all(json.loads(p.read_text())["notes"] == {} for p in _files(seeded).values())


def test_a_cache_of_another_parser_is_not_used(noted, monkeypatch):
    repo = find_repo(noted)
    load_memories(repo)
    monkeypatch.setattr(notes_cache, "PARSER", "another")
    calls = []
    real = load_memories.__globals__["parse_chunks"]
    monkeypatch.setattr("memlab.adapter.notes_store.parse_chunks", lambda *a: calls.append(1) or real(*a))
    assert len(load_memories(repo).memories) == 3 and len(calls) == 3
    assert (noted / ".git" / "memlab" / "hook.log").exists() is False


def test_a_corrupt_cache_still_gives_the_first_session_every_memory(installed):
    hook = installed
    seed(hook.project)
    assert hook.memlab("status").returncode == 0 and _files(hook.project) == {}  # status writes nothing
    load_memories(find_repo(hook.project))
    files = _files(hook.project)
    assert files, "a read writes the cache"
    for path in files.values():
        path.write_text('{"format": 2, "parser": "' + notes_cache.PARSER + '", "notes": {"x": [[], []]')
    block = hook.context()
    assert all(s in block for s in ("Use FastAPI for the API", "pytest -x stops at the first failure")), block


def test_a_temporary_file_left_by_a_killed_writer_is_removed_at_the_next_write(seeded):
    repo = find_repo(seeded)
    load_memories(repo)
    folder = seeded / ".git" / "memlab" / notes_cache.CACHE_DIR
    old, new = folder / ".0.json.99999.deadbeef.tmp", folder / ".1.json.99998.cafe.tmp"
    old.write_text("{")
    new.write_text("{")
    os.utime(old, (1, 1))
    add_note(seeded, "refs/notes/mem/decisions", upstream_memory("decisions", "2025-12-26T10:00:00Z", "New", "b"))
    assert len(load_memories(repo).memories) == 4
    assert not old.exists() and new.exists()  # a writer may still be writing the recent one
