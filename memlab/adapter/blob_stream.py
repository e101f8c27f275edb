"""Note blobs read through one ``git cat-file --batch`` while they are parsed.

The blobs are asked for in the order they will be wanted, and each is read from git's output when it is
wanted: git unpacks the next blobs while Python parses the last ones (at 100,000 notes about half a second
of wall time less than reading every blob before parsing the first). A blob over the size limit is never
read here: it is streamed on its own (:func:`stream_note`), one memory held at a time. git's time limit is
kept by killing it once the reader has waited :data:`memlab.adapter.gitcli.GIT_TIMEOUT` seconds for it (time
spent parsing, however long, is not git's).
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import TypeVar

from memlab.adapter.gitcli import GIT_TIMEOUT, Repo
from memlab.adapter.notes_format import MAX_MEMORY_BYTES, MAX_NOTE_BYTES, RawMemory, parse_lines
from memlab.adapter.notes_split import bounded_lines
from memlab.errors import MemlabError

T = TypeVar("T")


class BlobStream:
    """Contents of blobs, in a ``with`` block, each read from git when :meth:`get` first asks for it.

    A blob over ``limit`` bytes is not read: its size is kept (:meth:`large`) and git is restarted at the next
    blob, so sizes need no separate pass (a ``--batch-check`` over 100,000 notes took a third of a second)
    and a huge note is never inflated into memory.

    Args:
        repo: The repository.
        shas: The blobs, in the order they will be asked for (each once).
        limit: Largest blob read.
    """

    def __init__(self, repo: Repo, shas: list[str], limit: int = MAX_NOTE_BYTES) -> None:
        self.repo = repo
        self.shas = shas
        self.limit = limit
        self.found_: dict[str, bytes | None] = {}
        self.large_: dict[str, int] = {}
        self.next_ = 0
        self.proc_: subprocess.Popen[bytes] | None = None
        self.timer_: threading.Timer | None = None
        self.timed_out_ = False
        self.waiting_since_: float | None = None

    def _start(self) -> None:
        self.proc_ = subprocess.Popen(
            ["git", "cat-file", "--batch", "--buffer"],
            bufsize=1 << 20,  # a megabyte per read: notes of a few hundred bytes cost no system call each
            cwd=self.repo.root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"},
        )
        names = ("\n".join(self.shas[self.next_ :]) + "\n").encode()
        threading.Thread(target=_feed, args=(self.proc_, names), daemon=True).start()  # never blocks the reader

    def _stop(self) -> None:
        if self.proc_ is not None:
            self.proc_.kill()
            self.proc_.wait()
            assert self.proc_.stdout is not None
            self.proc_.stdout.close()

    def __enter__(self) -> BlobStream:
        if self.shas:
            self._start()
            self._arm(GIT_TIMEOUT)
        return self

    def _arm(self, seconds: float) -> None:
        timer = threading.Timer(seconds, self._expire)
        timer.daemon = True
        timer.start()
        self.timer_ = timer

    def _expire(self) -> None:
        """Kill git when the reader has waited for it :data:`GIT_TIMEOUT` seconds (parsing time is not git's)."""
        since = self.waiting_since_
        waited = 0.0 if since is None else time.monotonic() - since
        if waited < GIT_TIMEOUT:
            self._arm(GIT_TIMEOUT - waited)
            return
        self.timed_out_ = True
        if self.proc_ is not None:
            self.proc_.kill()

    def get(self, sha: str) -> bytes | None:
        """The blob's contents; ``None`` when git does not have it, it is large or was not among ``shas``.

        Raises:
            MemlabError: git stopped before answering for every blob, or timed out.
        """
        while sha not in self.found_ and self.next_ < len(self.shas):
            self._read_one()
        return self.found_.get(sha)

    def large(self, sha: str) -> bool:
        """Whether ``sha`` (once asked for) is over the limit: to be streamed on its own (:func:`stream_note`)."""
        return sha in self.large_

    def _read_one(self) -> None:
        assert self.proc_ is not None and self.proc_.stdout is not None
        name = self.shas[self.next_]
        self.next_ += 1
        self.waiting_since_ = time.monotonic()
        line = b"" if self.timed_out_ else self.proc_.stdout.readline()
        self.waiting_since_ = None
        header = line.decode("utf-8", "replace").split()
        if not line.endswith(b"\n"):
            why = f"timed out after {GIT_TIMEOUT:.0f} s" if self.timed_out_ else "stopped before the last blob"
            raise MemlabError(f"git cat-file {why} in {self.repo.root}")
        if len(header) != 3 or header[1] in ("missing", "ambiguous"):
            self.found_[name] = None
            return
        size = int(header[2])
        if size > self.limit:
            self.found_[name], self.large_[name] = None, size
            self._stop()
            if self.next_ < len(self.shas) and not self.timed_out_:
                self._start()
            return
        self.waiting_since_ = time.monotonic()
        body = self.proc_.stdout.read(size + 1)
        self.waiting_since_ = None
        if len(body) != size + 1:
            raise MemlabError(f"git cat-file stopped inside blob {name[:10]} in {self.repo.root}")
        self.found_[name] = body[:-1]

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.timer_ is not None:
            self.timer_.cancel()
        self._stop()


def _feed(proc: subprocess.Popen[bytes], names: bytes) -> None:
    """Write git's input and close it (git killed early: the rest is not needed)."""
    if proc.stdin is None:
        return
    try:
        proc.stdin.write(names)
        proc.stdin.close()
    except (BrokenPipeError, ValueError, OSError):
        pass


def until(items: Iterable[T], deadline: float | None, every: int = 1024) -> Iterator[T]:
    """``items`` until ``time.monotonic()`` passes ``deadline`` (checked every ``every`` items, the first always
    given).
    """
    for i, item in enumerate(items):
        if deadline is not None and i and not i % every and time.monotonic() > deadline:
            return
        yield item


def stream_note(
    repo: Repo, blob: str, namespace: str, deadline: float | None = None
) -> tuple[list[RawMemory], list[str]]:
    """:func:`parse_note` of a large blob read as a stream (``git cat-file blob``): one memory held at a time."""
    import os
    import subprocess

    proc = subprocess.Popen(
        ["git", "cat-file", "blob", blob],
        cwd=repo.root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"},
    )
    try:
        assert proc.stdout is not None
        return parse_lines(until(bounded_lines(proc.stdout, MAX_MEMORY_BYTES), deadline), namespace)
    finally:
        proc.kill()
        proc.wait()
