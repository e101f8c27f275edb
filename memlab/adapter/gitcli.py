"""Running ``git`` as a subprocess and finding a repository's git directory without it."""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from memlab.errors import MemlabError

#: Seconds any single git call may take.
GIT_TIMEOUT = 60.0
#: stderr fragments that mean another writer held a ref lock (worth a retry).
_RACE_MARKERS = ("cannot lock ref", "unable to create", "index.lock", ".lock': File exists", "failed to lock")


@dataclass(frozen=True)
class Repo:
    """A repository: its work tree root and its common git directory (shared by worktrees)."""

    root: Path
    git_dir: Path

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
            return Repo(folder, dot)
        if dot.is_file():
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
            if not text.startswith("gitdir:"):
                break
            gitdir = (folder / text[len("gitdir:") :].strip()).resolve()
            common = gitdir / "commondir"
            if common.is_file():
                gitdir = (gitdir / common.read_text(encoding="utf-8").strip()).resolve()
            return Repo(folder, gitdir)
    raise MemlabError(f"not a git repository: {start}; run memlab inside a repository (git init)")


def run_git(
    repo_root: Path,
    args: list[str],
    *,
    input: bytes | None = None,
    check: bool = True,
    retries: int = 0,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git <args>`` in ``repo_root`` and return the completed process (bytes).

    Args:
        repo_root: Working directory.
        args: Arguments after ``git``.
        input: Bytes for stdin.
        check: Raise on a non-zero exit.
        retries: Extra attempts when git reports a lock race (exponential back-off).

    Raises:
        MemlabError: git is missing, timed out, or failed (with ``check``).
    """
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    for attempt in range(retries + 1):
        try:
            proc = subprocess.run(
                ["git", *args], cwd=repo_root, input=input, capture_output=True, timeout=GIT_TIMEOUT, env=env
            )
        except FileNotFoundError:
            raise MemlabError("git not found on PATH; install git (memlab reads memories with the git CLI)") from None
        except subprocess.TimeoutExpired:
            raise MemlabError(f"git {args[0]} timed out after {GIT_TIMEOUT:.0f} s in {repo_root}") from None
        if proc.returncode == 0 or not check:
            return proc
        err = proc.stderr.decode("utf-8", "replace").strip()
        if attempt < retries and any(m in err for m in _RACE_MARKERS):
            time.sleep(0.05 * (2**attempt))
            continue
        last = err.splitlines()[-1] if err else f"exit code {proc.returncode}"
        raise MemlabError(f"git {' '.join(args[:3])} failed in {repo_root}: {last}")
    raise AssertionError("unreachable")


def git_text(repo_root: Path, args: list[str], **kwargs) -> str:
    """Stdout of ``git <args>`` as text."""
    return run_git(repo_root, args, **kwargs).stdout.decode("utf-8", "replace")
