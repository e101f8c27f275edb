"""Writing notes refs by compare-and-swap, so that other writers of the same refs lose nothing.

``git notes append`` moves its ref without checking that it still points where it read it, so two writers
can silently drop each other's note. memlab builds the new notes commit itself (a temporary index, or a
two-entry tree for its own refs) and moves the ref with ``git update-ref <ref> <new> <old>``; when another
writer got there first, it reads the new tip and tries again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from memlab.adapter.gitcli import Repo, git_reason, run_git
from memlab.core.errors import MemlabError

#: Name of the non-note tree entry that keeps a derived ref's anchor object reachable (gc, prune, fetch).
ANCHOR_ENTRY = "memlab-anchor"
#: Compare-and-swap attempts before giving up.
ATTEMPTS = 60
#: Seconds a ref lock may stay held before memlab says so (git holds one for milliseconds: longer, a killed
#: git process left it behind).
LOCK_WAIT = 2.0
_IDENT_ERRORS = ("tell me who you are", "auto-detect", "empty ident", "name consists only")
_FALLBACK_IDENT = {
    "GIT_AUTHOR_NAME": "memlab",
    "GIT_AUTHOR_EMAIL": "memlab@localhost",
    "GIT_COMMITTER_NAME": "memlab",
    "GIT_COMMITTER_EMAIL": "memlab@localhost",
}


def object_hash(repo: Repo, data: bytes) -> str:
    """The blob id git gives ``data`` (SHA-1, or SHA-256 in a repository created with that format)."""
    algo = hashlib.sha1
    with contextlib.suppress(OSError):
        config = (repo.git_dir / "config").read_text(encoding="utf-8", errors="replace").lower()
        if "objectformat" in config and "sha256" in config:
            algo = hashlib.sha256
    return algo(b"blob %d\0" % len(data) + data).hexdigest()


class Obj(NamedTuple):
    """An object as ``git cat-file`` reports it (``data`` is empty for ``--batch-check``)."""

    id: str
    type: str
    size: int
    data: bytes


def batch(repo: Repo, names: list[str], *, contents: bool = True) -> list[Obj | None]:
    """Each revision expression's object (``None`` when missing), through one ``git cat-file --buffer`` (its output
    flushed in large blocks, not after every object).
    """
    if not names:
        return []
    mode = "--batch" if contents else "--batch-check"
    data = run_git(repo.root, ["cat-file", mode, "--buffer"], input=("\n".join(names) + "\n").encode()).stdout
    out: list[Obj | None] = []
    pos = 0
    for _ in names:
        nl = data.index(b"\n", pos)
        header = data[pos:nl].decode("utf-8", "replace").split()
        pos = nl + 1
        if len(header) != 3 or header[1] in ("missing", "ambiguous"):
            out.append(None)
            continue
        size = int(header[2])
        body = b""
        if contents:
            body = data[pos : pos + size]
            pos += size + 1
        out.append(Obj(header[0], header[1], size, body))
    return out


def tip(repo: Repo, ref: str) -> tuple[str | None, str | None]:
    """``(object id, type)`` a ref points at: ``(None, None)`` when it does not exist, type ``"missing"``
    when it names an object the repository lacks (a dangling ref, replaced rather than retried forever).
    """
    found = batch(repo, [ref], contents=False)[0]
    if found:
        return found.id, found.type
    dangling = run_git(repo.root, ["rev-parse", "--verify", "-q", ref], check=False).stdout.decode().strip()
    return (dangling, "missing") if dangling else (None, None)


def git_out(repo: Repo, args: list[str], *, input: bytes | None = None, env: dict[str, str] | None = None) -> str:
    """Stripped stdout of a git command that must succeed."""
    return run_git(repo.root, args, input=input, env=env).stdout.decode("utf-8", "replace").strip()


def write_blob(repo: Repo, data: bytes) -> str:
    """Store ``data`` as a blob; returns its id."""
    return git_out(repo, ["hash-object", "-w", "--stdin"], input=data)


def commit_tree(repo: Repo, tree: str, parents: Iterable[str], message: str) -> str:
    """A commit of ``tree``; falls back to a ``memlab`` identity when git has none configured."""
    args = ["commit-tree", tree]
    for parent in parents:
        args += ["-p", parent]
    args += ["-m", message]
    proc = run_git(repo.root, args, check=False)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").lower()
        if not any(m in err for m in _IDENT_ERRORS):
            last = err.strip().splitlines()[-1] if err.strip() else f"exit code {proc.returncode}"
            raise MemlabError(f"git commit-tree failed in {repo.root}: {last}")
        proc = run_git(repo.root, args, env=_FALLBACK_IDENT)
    return proc.stdout.decode().strip()


def compare_and_swap(repo: Repo, ref: str, build: Callable[[str | None, str | None], str | None]) -> bool:
    """Move ``ref`` to ``build(old, old_type)`` only if it still points at ``old``; retry when it moved.

    ``build`` returns the new commit, or ``None`` when there is nothing to write.

    Returns:
        Whether the ref was updated.

    Raises:
        MemlabError: git refused the update for another reason, or the ref kept moving.
    """
    locked, since = "", 0.0
    for attempt in range(ATTEMPTS):
        old, kind = tip(repo, ref)
        new = build(old, kind)
        if new is None:
            return False
        proc = run_git(repo.root, ["update-ref", "-m", "memlab", ref, new, old or ""], check=False)
        if proc.returncode == 0:
            return True
        if tip(repo, ref)[0] == old:
            reason = git_reason(proc.stderr.decode("utf-8", "replace"), proc.returncode)
            if "lock" not in reason.lower():
                raise MemlabError(f"cannot update {ref} in {repo.root}: {reason}")
            locked, since = reason, since or time.monotonic()  # another git process holds the ref: retry
            if time.monotonic() - since > LOCK_WAIT:
                break
        else:
            locked, since = "", 0.0  # another writer moved the ref: rebuild on its tip
        time.sleep(random.uniform(0, min(0.2, 0.004 * 2**attempt)))
    if locked:
        raise MemlabError(
            f"cannot update {ref} in {repo.root}: {locked}; if no git process is running, delete that lock file"
        )
    raise MemlabError(f"{ref} kept changing while memlab wrote it ({ATTEMPTS} attempts); try again")


def note_paths(obj: str) -> list[str]:
    """Where a note on ``obj`` can sit in a notes tree (no fan-out, then 2/..., 2/2/..., 2/2/2/...)."""
    return [obj] + ["/".join([*(obj[2 * i : 2 * i + 2] for i in range(k)), obj[2 * k :]]) for k in range(1, 4)]


def append_text(old: str, new: str) -> str:
    """``new`` appended to a note the way ``git notes append`` does, always after one empty line."""
    old = old.rstrip("\n")
    return (f"{old}\n\n{new.strip(chr(10))}" if old else new.strip("\n")) + "\n"


#: A temporary index older than this was left by a killed writer (a write takes well under a second).
STALE_INDEX_SECONDS = 600.0


def remove_stale_indexes(memlab_dir: Path) -> int:
    """Delete temporary indexes (``index-*``) killed writers left in ``memlab_dir``; returns how many."""
    removed = 0
    cutoff = time.time() - STALE_INDEX_SECONDS
    for path in memlab_dir.glob("index-*"):
        with contextlib.suppress(OSError):
            if path.is_file() and not path.is_symlink() and path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
    return removed


def append_note(repo: Repo, ref: str, obj: str, text: str, message: str) -> None:
    """Append ``text`` to the note on ``obj`` under ``ref`` (created when missing), by compare-and-swap.

    Raises:
        MemlabError: ``ref`` points at something other than a notes commit, or git failed.
    """
    remove_stale_indexes(Path(repo.memlab_dir))
    index = Path(repo.memlab_dir) / f"index-{os.getpid()}-{os.urandom(4).hex()}"
    env = {"GIT_INDEX_FILE": str(index)}

    def build(old: str | None, kind: str | None) -> str:
        if old is not None and kind != "commit":
            what = "an object missing from the repository" if kind == "missing" else f"a {kind}"
            raise MemlabError(
                f"{ref} points at {what} ({old[:12]}), not a notes commit; memlab never rewrites memory refs "
                f"(repair or delete it: git update-ref -d {ref})"
            )
        try:
            run_git(repo.root, ["read-tree", old] if old else ["read-tree", "--empty"], env=env)
            listed = git_out(repo, ["ls-files", "-s", "--", *note_paths(obj)], env=env).splitlines()
            path, previous = obj, ""
            if listed:
                meta, path = listed[0].split("\t", 1)
                found = batch(repo, [meta.split()[1]])[0]
                previous = found.data.decode("utf-8", "replace") if found else ""
            blob = write_blob(repo, append_text(previous, text).encode("utf-8"))
            run_git(repo.root, ["update-index", "--add", "--cacheinfo", f"100644,{blob},{path}"], env=env)
            tree = git_out(repo, ["write-tree"], env=env)
        finally:
            index.unlink(missing_ok=True)
            Path(f"{index}.lock").unlink(missing_ok=True)
        return commit_tree(repo, tree, [old] if old else [], message)

    compare_and_swap(repo, ref, build)


def anchored_tree(repo: Repo, anchor: str, note_blob: str) -> str:
    """The tree of a derived ref: its one note on ``anchor`` plus the anchor object itself (kept reachable)."""
    entries = f"100644 blob {note_blob}\t{anchor}\n100644 blob {anchor}\t{ANCHOR_ENTRY}\n"
    return git_out(repo, ["mktree"], input=entries.encode())


def preserve(repo: Repo, ref: str, obj: str) -> str:
    """Keep an object a ref pointed at before memlab replaced it (``refs/memlab/broken/...``)."""
    name = f"refs/memlab/broken/{ref.rsplit('/', 1)[-1]}-{obj[:12]}"
    run_git(repo.root, ["update-ref", name, obj], check=False)
    return name
