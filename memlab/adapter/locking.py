"""An exclusive file lock under ``.git/memlab/`` that serialises memlab's note writers."""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from memlab.errors import MemlabError


@contextlib.contextmanager
def file_lock(path: Path, *, timeout: float = 60.0, blocking: bool = True) -> Iterator[bool]:
    """Hold an exclusive ``flock`` on ``path`` (created with its folder).

    Yields ``True`` when the lock is held; with ``blocking=False`` yields ``False`` at once when another
    process holds it. The kernel releases the lock when the holder dies, so a killed writer never leaves
    a stale lock behind.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    held = False
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
                break
            except BlockingIOError:
                if not blocking:
                    break
                if time.monotonic() > deadline:
                    raise MemlabError(
                        f"timed out waiting for the lock {path}; is another memlab process stuck?"
                    ) from None
                time.sleep(0.01)
        yield held
    finally:
        if held:
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
