"""Exclusive file locks: memlab's own (under ``.git/memlab/``) and git-notes-memory's capture lock.

memlab's note writers serialise on ``.git/memlab/notes.lock``. git-notes-memory serialises its captures on
``<its data folder>/.capture.lock`` (``$MEMORY_PLUGIN_DATA_DIR``, else ``$XDG_DATA_HOME/memory-plugin``, else
``~/.local/share/memory-plugin``) and then runs ``git notes append``, which moves the ref without a
compare-and-swap; memlab holds that lock too while it writes ``refs/notes/mem/*`` (when the folder exists),
so neither tool can overwrite the other's memory.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from memlab.core.errors import MemlabError

#: git-notes-memory's capture lock file name.
FOREIGN_LOCK_NAME = ".capture.lock"


@contextlib.contextmanager
def file_lock(path: Path, *, timeout: float = 60.0, blocking: bool = True, create_dir: bool = True) -> Iterator[bool]:
    """Hold an exclusive ``flock`` on ``path``.

    Yields ``True`` when the lock is held; with ``blocking=False`` yields ``False`` at once when another
    process holds it. The kernel releases the lock when the holder dies, so a killed writer never leaves
    a stale lock behind.

    Raises:
        MemlabError: The lock file cannot be created (read-only or full state folder) or the wait timed out.
    """
    try:
        if create_dir:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise MemlabError(
            f"cannot create the lock {path} ({exc.strerror or exc}); make {path.parent} writable"
        ) from None
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


def foreign_lock_path() -> Path | None:
    """git-notes-memory's capture lock, when its data folder exists (memlab never creates that folder)."""
    override = os.environ.get("MEMORY_PLUGIN_DATA_DIR")
    if override:
        folder = Path(override).expanduser()
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        folder = (Path(xdg) if xdg else Path.home() / ".local" / "share") / "memory-plugin"
    return folder / FOREIGN_LOCK_NAME if folder.is_dir() else None


@contextlib.contextmanager
def writer_lock(memlab_dir: Path, *, foreign: bool = False, timeout: float = 60.0) -> Iterator[None]:
    """Memlab's note-writer lock, plus git-notes-memory's capture lock with ``foreign`` (memory refs).

    The foreign lock is best effort: when its folder is not writable or its holder is stuck, the write
    still goes through compare-and-swap (it never overwrites what another writer committed).
    """
    with contextlib.ExitStack() as stack:
        stack.enter_context(file_lock(memlab_dir / "notes.lock", timeout=timeout))
        other = foreign_lock_path() if foreign else None
        if other is not None:
            with contextlib.suppress(MemlabError):
                stack.enter_context(file_lock(other, timeout=timeout, create_dir=False))
        yield
