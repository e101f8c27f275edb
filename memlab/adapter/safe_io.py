"""File writes that a repository cannot redirect: atomic, never through a symbolic link, modes kept.

A repository can plant symbolic links (``.claude -> ~/.ssh``, ``settings.json.memlab-backup -> ~/.bashrc``);
every write here goes to a fresh temporary file created with ``O_EXCL | O_NOFOLLOW`` in the target's folder
and is moved into place with :func:`os.replace`, which replaces a link instead of writing through it.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from memlab.core.errors import MemlabError

#: Largest settings/record file memlab reads.
MAX_READ = 16 * 1024 * 1024


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path: Path, data: bytes, *, mode: int | None = None, fsync: bool = True) -> None:
    """Replace ``path`` with ``data`` in one step.

    Args:
        path: Target file (a symbolic link there is replaced, never followed).
        data: New contents.
        mode: Permission bits; default: those of the file being replaced, else ``0o666 & ~umask``.
        fsync: Flush the data to disk before the rename.

    Raises:
        MemlabError: The folder is not writable or the disk is full (one line naming the path).
    """
    if mode is None:
        try:
            st = os.lstat(path)
            mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else _umask_mode()
        except FileNotFoundError:
            mode = _umask_mode()
    tmp = path.parent / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise MemlabError(f"cannot write {path}: {exc.strerror or exc}; check that its folder is writable") from None


def read_regular(path: Path, limit: int = MAX_READ) -> bytes | None:
    """Bytes of a regular file (``None`` when absent), refusing links, devices, FIFOs and huge files.

    Raises:
        MemlabError: ``path`` is a symbolic link, not a regular file, too large or unreadable.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            raise MemlabError(f"{path} is a symbolic link; memlab never reads or writes through links") from None
        raise MemlabError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise MemlabError(f"{path} is not a regular file; remove it or pick another location")
        if st.st_size > limit:
            raise MemlabError(f"{path} is {st.st_size} bytes (limit {limit}); it cannot be a settings file")
        chunks = [os.read(fd, st.st_size + 1)]  # one read, no copy, unless the file grew since fstat
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def refuse_links(path: Path, root: Path) -> None:
    """Raise when ``path`` or any folder between ``root`` (excluded) and it is a symbolic link.

    Raises:
        MemlabError: A component is a link (a repository could point it anywhere).
    """
    root = Path(os.path.abspath(root))
    path = Path(os.path.abspath(path))
    try:
        rel = path.relative_to(root)
    except ValueError:
        raise MemlabError(f"{path} is outside {root}") from None
    current = root
    for part in rel.parts:
        current = current / part
        if current.is_symlink():
            raise MemlabError(
                f"{current} is a symbolic link; memlab does not write through links a repository can plant "
                "(replace it with a real folder or file)"
            )


def make_dirs(folder: Path, root: Path, *, check_links: bool = True) -> list[Path]:
    """Create ``folder`` and its missing parents; returns those created (outermost first).

    With ``check_links`` any link between ``root`` and ``folder`` is refused, before and after.
    """
    check_links = check_links and folder != root
    if check_links:
        refuse_links(folder, root)
    missing: list[Path] = []
    current = Path(os.path.abspath(folder))
    while not current.exists() and not current.is_symlink():
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, 0o755)
        except OSError as exc:
            raise MemlabError(f"cannot create {path}: {exc.strerror or exc}") from None
    if check_links:
        refuse_links(folder, root)
    return list(reversed(missing))
