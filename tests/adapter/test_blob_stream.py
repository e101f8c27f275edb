"""Blobs streamed from one ``git cat-file --batch``: in the order asked, missing ones ``None``, git always ended."""

from __future__ import annotations

import pytest

from memlab.adapter import blob_stream
from memlab.adapter.blob_stream import BlobStream
from memlab.adapter.gitcli import find_repo
from memlab.core.errors import MemlabError
from tests.adapter.conftest import git, make_repo


@pytest.fixture
def blobs(tmp_path):
    repo = find_repo(make_repo(tmp_path / "r"))
    texts = [b"one\n", b"", b"three\x00bytes", b"x" * 70_000]
    shas = [git(repo.root, "hash-object", "-w", "--stdin", input=t.decode("latin-1")).strip() for t in texts]
    return repo, dict(zip(shas, texts, strict=True))


def test_each_blob_comes_back_whole_and_a_missing_one_is_none(blobs):
    repo, texts = blobs
    missing, first = "0" * 40, next(iter(texts))
    with BlobStream(repo, [*texts, missing, first]) as stream:
        assert [stream.get(sha) for sha in texts] == list(texts.values())
        assert stream.get(missing) is None and stream.get("f" * 40) is None
        assert stream.get(first) == b"one\n"  # listed twice: kept for the second time
        assert stream.found_ == {}  # every blob let go once asked for as often as listed


def test_git_is_asked_for_a_blob_listed_twice_once(blobs):
    repo, texts = blobs
    shas = [*texts, *texts]
    with BlobStream(repo, shas) as stream:
        assert stream.shas == list(texts) and [stream.get(sha) for sha in shas] == [*texts.values(), *texts.values()]


def test_asked_out_of_order_the_stream_reads_ahead(blobs):
    repo, texts = blobs
    shas = list(texts)
    with BlobStream(repo, shas) as stream:
        assert stream.get(shas[-1]) == texts[shas[-1]] and stream.get(shas[0]) == b"one\n"


def test_git_is_ended_when_the_block_is_left_early_and_an_empty_list_starts_nothing(blobs):
    repo, texts = blobs
    with BlobStream(repo, list(texts)) as stream:
        stream.get(next(iter(texts)))
        proc = stream.proc_
    assert proc is not None and proc.poll() is not None
    with BlobStream(repo, []) as empty:
        assert empty.proc_ is None and empty.get("a" * 40) is None


def test_git_over_its_time_limit_is_killed_and_reported(blobs, monkeypatch):
    repo, texts = blobs
    monkeypatch.setattr(blob_stream, "GIT_TIMEOUT", 0.0)
    real = blob_stream.subprocess.Popen

    def silent(args, **kwargs):  # a git that answers nothing until it is killed
        kwargs["stdin"] = blob_stream.subprocess.DEVNULL
        return real(["sleep", "30"], **kwargs)

    monkeypatch.setattr(blob_stream.subprocess, "Popen", silent)
    with pytest.raises(MemlabError, match="timed out"), BlobStream(repo, list(texts)) as stream:
        stream.get(next(iter(texts)))
