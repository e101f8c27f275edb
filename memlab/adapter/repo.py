"""Finding a repository's work tree and git directory without running git (the SessionStart path).

:class:`Repo` is a :class:`~memlab.core.selection_types.FrozenValue`, not a dataclass: the SessionStart hook does
not import ``dataclasses`` (see :mod:`memlab.core.selection_types`).
"""

from __future__ import annotations

import os
from pathlib import Path

from memlab.core.errors import MemlabError
from memlab.core.selection_types import FrozenValue


class Repo(FrozenValue):
    """A repository: its work tree root and its common git directory (shared by worktrees); immutable."""

    _fields = ("root", "git_dir")
    root: Path
    git_dir: Path

    def __init__(self, root: Path, git_dir: Path) -> None:
        self.__dict__.update(root=root, git_dir=git_dir)

    @property
    def memlab_dir(self) -> Path:
        """Memlab's local state folder (never pushed): ``<git dir>/memlab``."""
        return self.git_dir / "memlab"


def find_repo(cwd: str | os.PathLike[str]) -> Repo:
    """Walk up from ``cwd`` to the first ``.git`` (folder or worktree file); no git process needed.

    Raises:
        MemlabError: ``cwd`` is not inside a git repository.
    """
    start = Path(cwd).expanduser().resolve()
    for folder in (start, *start.parents):
        dot = folder / ".git"
        if dot.is_dir():
            return _checked(Repo(folder, dot))
        if dot.is_file():
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
            if not text.startswith("gitdir:"):
                break
            gitdir = (folder / text[len("gitdir:") :].strip()).resolve()
            common = gitdir / "commondir"
            if common.is_file():
                gitdir = (gitdir / common.read_text(encoding="utf-8").strip()).resolve()
            return _checked(Repo(folder, gitdir))
    raise MemlabError(f"not a git repository: {start}; run memlab inside a repository (git init)")


def _checked(repo: Repo) -> Repo:
    """``repo``; raises :class:`MemlabError` when ``.git/memlab`` is a symbolic link (an archive of a repository
    can carry one: every file memlab writes there would land wherever it points).
    """
    if os.path.islink(repo.memlab_dir):
        raise MemlabError(f"{repo.memlab_dir} is a symbolic link; memlab keeps its state in a real folder (remove it)")
    return repo
