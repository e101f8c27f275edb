"""Running ``git`` as a subprocess (repository discovery lives in :mod:`memlab.adapter.repo`)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from memlab.adapter.repo import Repo, find_repo
from memlab.core.errors import MemlabError

__all__ = ["Repo", "find_repo", "git_text", "run_git"]

#: Seconds any single git call may take.
GIT_TIMEOUT = 60.0
#: stderr fragments that mean another writer held a ref lock (worth a retry).
_RACE_MARKERS = ("cannot lock ref", "unable to create", "index.lock", ".lock': File exists", "failed to lock")


def git_reason(stderr: str, returncode: int) -> str:
    """The line of git's stderr that says why it failed: the first ``fatal:``/``error:`` line (with the
    lock file git could not create, when that is the reason), else the last line.
    """
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    if not lines:
        return f"exit code {returncode}"
    lock = next((line for line in lines if "Unable to create" in line and ".lock" in line), None)
    first = next((line for line in lines if line.startswith(("fatal:", "error:"))), lines[-1])
    return f"{first} ({lock})" if lock and lock not in first else first


def run_git(
    repo_root: Path,
    args: list[str],
    *,
    input: bytes | None = None,
    check: bool = True,
    retries: int = 0,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git <args>`` in ``repo_root`` and return the completed process (bytes).

    Args:
        repo_root: Working directory.
        args: Arguments after ``git``.
        input: Bytes for stdin.
        check: Raise on a non-zero exit.
        retries: Extra attempts when git reports a lock race (exponential back-off).
        env: Extra environment variables (e.g. ``GIT_INDEX_FILE``).

    Raises:
        MemlabError: git is missing, timed out, or failed (with ``check``).
    """
    full_env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", **(env or {})}
    for attempt in range(retries + 1):
        try:
            proc = subprocess.run(
                ["git", *args], cwd=repo_root, input=input, capture_output=True, timeout=GIT_TIMEOUT, env=full_env
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
        raise MemlabError(f"git {' '.join(args[:3])} failed in {repo_root}: {git_reason(err, proc.returncode)}")
    raise AssertionError("unreachable")


def git_text(repo_root: Path, args: list[str], **kwargs) -> str:
    """Stdout of ``git <args>`` as text."""
    return run_git(repo_root, args, **kwargs).stdout.decode("utf-8", "replace")
