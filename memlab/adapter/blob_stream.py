"""Note blobs read through one ``git cat-file --batch`` while they are parsed.

Blobs are asked for in the order they are wanted and read from git's output when wanted: git unpacks the next
ones while Python parses (at 100,000 notes half a second less than reading all first). A blob over the size
limit is streamed on its own (:func:`stream_note`), one memory held at a time. git is killed once the reader
has waited :data:`memlab.adapter.gitcli.GIT_TIMEOUT` seconds for it (time spent parsing is not git's).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import TypeVar

from memlab.adapter.gitcli import GIT_TIMEOUT, Repo
from memlab.adapter.notes_format import MAX_MEMORY_BYTES, MAX_NOTE_BYTES, RawMemory, parse_lines
from memlab.adapter.notes_split import bounded_lines
from memlab.core.errors import MemlabError

T = TypeVar("T")


class BlobStream:
    """Contents of blobs, in a ``with`` block, each read from git when :meth:`get` first asks for it.

    A blob over ``limit`` bytes is not read (its id is put in ``large_``): git is restarted past it, so sizes need no
    ``--batch-check`` pass (a third of a second at 100,000 notes) and a huge note is never inflated. A blob's
    contents are let go when it was asked for as often as ``shas`` lists it: reading holds one note at a time,
    not every note's bytes (a capped read of a million memories costs what the cap does).

    Args:
        repo: The repository.
        shas: The blobs, in the order they will be asked for (a blob once per time it will be asked for).
        limit: Largest blob read.
    """

    def __init__(self, repo: Repo, shas: list[str], limit: int = MAX_NOTE_BYTES) -> None:
        self.repo = repo
        self.uses_ = Counter(shas)
        self.shas = list(self.uses_)
        self.limit = limit
        self.found_: dict[str, bytes | None] = {}
        self.large_: set[str] = set()
        self.next_ = 0
        self.proc_: subprocess.Popen[bytes] | None = None
        self.timer_: threading.Timer | None = None
        self.timed_out_ = False
        self.waiting_since_: float | None = None

    def _start(self) -> None:
        self.proc_ = _git(self.repo, ["--batch", "--buffer"], subprocess.PIPE)
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
        self.uses_[sha] -= 1
        return self.found_.get(sha) if self.uses_[sha] > 0 else self.found_.pop(sha, None)

    def _read_one(self) -> None:
        """Read git's answer for the next blob: all of it is time spent waiting for git (:meth:`_expire`)."""
        assert self.proc_ is not None and self.proc_.stdout is not None
        name = self.shas[self.next_]
        self.next_ += 1
        self.waiting_since_ = time.monotonic()
        try:
            line = b"" if self.timed_out_ else self.proc_.stdout.readline()
            header = line.split()
            if not line.endswith(b"\n"):
                why = f"timed out after {GIT_TIMEOUT:.0f} s" if self.timed_out_ else "stopped before the last blob"
                raise MemlabError(f"git cat-file {why} in {self.repo.root}")
            if len(header) != 3 or header[1] in (b"missing", b"ambiguous"):
                self.found_[name] = None
            elif int(header[2]) > self.limit:
                self.found_[name] = None
                self.large_.add(name)
                self._stop()
                if self.next_ < len(self.shas) and not self.timed_out_:
                    self._start()
            else:
                size = int(header[2])
                body = self.proc_.stdout.read(size + 1)
                if len(body) != size + 1:
                    raise MemlabError(f"git cat-file stopped inside blob {name[:10]} in {self.repo.root}")
                self.found_[name] = body[:-1]
        finally:
            self.waiting_since_ = None

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


def _git(repo: Repo, args: list[str], stdin: int) -> subprocess.Popen[bytes]:
    """``git cat-file ARGS`` with its output piped (a megabyte per read: a small note costs no system call; on Linux
    a megabyte pipe, so git runs that far ahead of the parser instead of waiting for it every 64 KiB).
    """
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    proc = subprocess.Popen(
        ["git", "cat-file", *args],
        bufsize=1 << 20,
        cwd=repo.root,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or over the system's limit: the default pipe
        fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)  # type: ignore[union-attr]
    return proc


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
    proc = _git(repo, ["blob", blob], subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        return parse_lines(until(bounded_lines(proc.stdout, MAX_MEMORY_BYTES), deadline), namespace)
    finally:
        proc.kill()
        proc.wait()
