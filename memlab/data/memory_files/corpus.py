"""Reading a folder of memory-file histories: one JSON file per public repository.

The format (the data folder's ``SOURCE.md``): ``{"repo", "commit", "license", "files": [...]}``; each file has
``path``, ``kind``, ``commits`` (first-parent order) and ``facts`` (``id``, ``text``, ``recorded_in``,
``removed_in``, ``removal``, ``replaced_by``, ``pair_jaccard``, ``moved_in``, ...). Other fields (the commits'
added and removed lines among them) are not read. A malformed file raises a one-line
:class:`~memlab.core.errors.MemlabError` naming the file, the memory file and the fact or commit. Splits:
:mod:`memlab.data.splits` with this corpus's salt, fixed before any file was read (experiments/memory_files).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.data import splits

SEAL_SALT = "memlab-memory-files-seal:"
REMOVALS = ("paired", "retired", "file_deleted", "file_became_symlink")
#: Removals that take the whole file away (the file is gone after that commit).
GONE = ("file_deleted", "file_became_symlink")
_FIX = "fix the file (format: SOURCE.md of the data folder)"


@dataclass(frozen=True)
class Commit:
    """A commit that changed the memory file: position, time (aware), status letter (``A``, ``M``, ``D``, ...)."""

    sha: str
    index: int
    date: datetime
    status: str
    rewrite: bool


@dataclass(frozen=True)
class Fact:
    """One fact of a memory file with the commits (indexes) that added and removed it.

    Attributes:
        id: The fact's id in its file.
        text: The line, bullet or paragraph as written.
        recorded: Index of the commit that added it.
        removed: Index of the commit that removed it (``None``: still in the file at the snapshot).
        removal: ``None``, ``paired``, ``retired``, ``file_deleted`` or ``file_became_symlink``.
        replaced_by: Ids of the added facts it was paired with (best first).
        jaccard: Token Jaccard with its best successor (``None`` when unpaired).
        moved: Moved within the file (removed and re-added as the same text in one commit) at least once.
        moved_away: Removed here and found in another file of the repository (``moved_to``, ``found_elsewhere``).
    """

    id: str
    text: str
    recorded: int
    removed: int | None
    removal: str | None
    replaced_by: tuple[str, ...]
    jaccard: float | None
    moved: bool
    moved_away: bool

    def live_after(self, k: int) -> bool:
        """Whether the fact is in the file right after commit ``k``."""
        return self.recorded <= k and (self.removed is None or self.removed > k)


@dataclass(frozen=True)
class MemoryFile:
    """One memory file's history."""

    repo: str
    path: str
    kind: str
    commits: tuple[Commit, ...]
    facts: tuple[Fact, ...]

    def gone_after(self, k: int) -> bool:
        """Whether the file does not exist right after commit ``k`` (deleted, or became a symlink)."""
        if self.commits[k].status.upper().startswith("D"):
            return True
        return any(f.removed == k and f.removal in GONE for f in self.facts)


@dataclass(frozen=True)
class MemoryFileRepo(splits.RepoFile):
    """One repository's memory files (and the JSON file read, ``source``)."""

    files: tuple[MemoryFile, ...]
    source: str


def _field(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    return splits.field(obj, key, kind, where, _FIX)


def _commit(raw: Any, index: int, where: str) -> Commit:
    where = f"{where}: commit {index}"
    if not isinstance(raw, dict):
        raise MemlabError(f"{where}: expected an object, got {type(raw).__name__}; {_FIX}")
    sha = _field(raw, "sha", str, where)
    text = _field(raw, "date", str, f"{where} ({sha[:12]})")
    try:
        date = datetime.fromisoformat(text)
    except ValueError:
        raise MemlabError(f"{where} ({sha[:12]}): date {text!r} is not an ISO date with time; {_FIX}") from None
    if date.tzinfo is None:
        raise MemlabError(f"{where} ({sha[:12]}): date {text!r} has no time zone; {_FIX}")
    return Commit(sha, index, date, str(raw.get("status") or "M"), bool(raw.get("rewrite")))


def _fact(raw: Any, index: int, where: str, position: dict[str, int]) -> Fact:
    fid = raw.get("id") if isinstance(raw, dict) else None
    where = f"{where}: fact {index}" + (f" (id {fid!r})" if isinstance(fid, str) else "")
    if not isinstance(raw, dict):
        raise MemlabError(f"{where}: expected an object, got {type(raw).__name__}; {_FIX}")
    fid = _field(raw, "id", str, where)
    text = _field(raw, "text", str, where)
    recorded_in = _field(raw, "recorded_in", str, where)
    if recorded_in not in position:
        raise MemlabError(f"{where}: recorded_in {recorded_in[:12]!r} is not one of the file's commits; {_FIX}")
    removed_in = raw.get("removed_in")
    if removed_in is not None and removed_in not in position:
        raise MemlabError(f"{where}: removed_in {str(removed_in)[:12]!r} is not one of the file's commits; {_FIX}")
    removal = raw.get("removal")
    if removal is not None and removal not in REMOVALS:
        raise MemlabError(f"{where}: removal {removal!r} is not null or one of {', '.join(REMOVALS)}; {_FIX}")
    if (removal is None) != (removed_in is None):
        raise MemlabError(f"{where}: 'removal' and 'removed_in' must both be null or both set; {_FIX}")
    replaced_by = raw.get("replaced_by") or []
    if not isinstance(replaced_by, list) or not all(isinstance(r, str) for r in replaced_by):
        raise MemlabError(f"{where}: field 'replaced_by' must be a list of fact ids; {_FIX}")
    jaccard = raw.get("pair_jaccard")
    if jaccard is not None and (isinstance(jaccard, bool) or not isinstance(jaccard, int | float)):
        raise MemlabError(f"{where}: field 'pair_jaccard' must be a number or null; {_FIX}")
    recorded, removed = position[recorded_in], position.get(removed_in) if removed_in else None
    if removed is not None and removed < recorded:
        raise MemlabError(f"{where}: removed in an earlier commit than the one that added it; {_FIX}")
    return Fact(
        fid,
        text,
        recorded,
        removed,
        removal,
        tuple(replaced_by),
        float(jaccard) if jaccard is not None else None,
        bool(raw.get("moved_in")),
        bool(raw.get("moved_to") or raw.get("found_elsewhere")),
    )


def _file(raw: Any, index: int, repo: str, source: str) -> MemoryFile:
    path = raw.get("path") if isinstance(raw, dict) else None
    where = f"{source}: memory file {index}" + (f" ({path!r})" if isinstance(path, str) else "")
    if not isinstance(raw, dict):
        raise MemlabError(f"{where}: expected an object, got {type(raw).__name__}; {_FIX}")
    path = _field(raw, "path", str, where)
    kind = _field(raw, "kind", str, where)
    raw_commits = _field(raw, "commits", list, where)
    if not raw_commits:
        raise MemlabError(f"{where}: no commits; a memory file's history needs at least one; {_FIX}")
    commits = tuple(_commit(c, i, where) for i, c in enumerate(raw_commits))
    position = {c.sha: c.index for c in commits}
    if len(position) != len(commits):
        raise MemlabError(f"{where}: a commit sha appears twice; {_FIX}")
    facts = tuple(_fact(f, i, where, position) for i, f in enumerate(_field(raw, "facts", list, where)))
    ids = {f.id for f in facts}
    if len(ids) != len(facts):
        raise MemlabError(f"{where}: a fact id appears twice; every fact id must be unique; {_FIX}")
    for fact in facts:
        unknown = [r for r in fact.replaced_by if r not in ids]
        if unknown:
            raise MemlabError(f"{where}: fact {fact.id!r}: replaced_by names unknown fact {unknown[0]!r}; {_FIX}")
    return MemoryFile(repo, path, kind, commits, facts)


def read_repo(path: str | Path) -> MemoryFileRepo:
    """Read and validate one repository file.

    Raises:
        MemlabError: The file is missing, not JSON, or a field of the repository, a memory file, a commit or a
            fact is missing or wrong (the message names the file and where in it).
    """
    source = str(path)
    data = splits.read_object(path, "memory-files")
    repo = _field(data, "repo", str, source)
    files = tuple(_file(f, i, repo, source) for i, f in enumerate(_field(data, "files", list, source)))
    licence, commit = data.get("license") or "unknown", data.get("commit") or ""
    if not isinstance(licence, str) or not isinstance(commit, str):
        raise MemlabError(f"{source}: fields 'license' and 'commit' must be strings; {_FIX}")
    return MemoryFileRepo(repo, licence, commit, files, source)


def repo_files(folder: str | Path, repos: Sequence[str] | str | None = None, split: str = "all") -> list[Path]:
    """The repository files of ``folder`` in ``split`` (:func:`memlab.data.splits.repo_files`)."""
    return splits.repo_files(folder, repos, split, salt=SEAL_SALT, what="memory-files")
