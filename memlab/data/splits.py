"""Folders of one JSON file per public repository: reading one file, and splitting by a hash of the names alone.

Splits: ``sealed`` is the first third (rounded up) of the folder's repository names (file stems
``owner__name``) ordered by ``sha256(salt + name)``, ``dev`` the rest, ``all`` both. Names only decide it,
so no file is opened to split, and adding files to a folder can move repositories between splits. Each
corpus has its own salt (the ADR folder's ``memlab-adr-seal:``, the memory files' ``memlab-memory-files-seal:``),
fixed before any of its files was read.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError

SPLITS = ("all", "dev", "sealed")


@dataclass(frozen=True)
class RepoFile:
    """A corpus's repository file beside its data: ``repo`` (``owner/name``), SPDX ``license``, ``commit`` read."""

    repo: str
    license: str
    commit: str

    @property
    def name(self) -> str:
        """The file-stem form of the repository name, ``owner__name``."""
        return self.repo.replace("/", "__")


def seal_key(name: str, salt: str) -> str:
    """The sort key of the split rule: ``sha256(salt + name)``."""
    return hashlib.sha256((salt + name).encode("utf-8")).hexdigest()


def sealed_names(names: Iterable[str], salt: str) -> set[str]:
    """The sealed third of ``names`` (file stems ``owner__name``): the first ``ceil(n / 3)`` by :func:`seal_key`."""
    ordered = sorted(set(names), key=lambda n: (seal_key(n, salt), n))
    return set(ordered[: math.ceil(len(ordered) / 3)])


def stem(name: str) -> str:
    """``owner__name`` from ``owner/name``, ``owner__name`` or ``owner__name.json``."""
    name = name.strip()
    return name[:-5] if name.endswith(".json") else name.replace("/", "__")


def repo_files(
    folder: str | Path, repos: Sequence[str] | str | None, split: str, *, salt: str, what: str
) -> list[Path]:
    """The repository files (``*__*.json``) of ``folder`` in ``split``, optionally only ``repos``, sorted by name.

    Args:
        folder: A folder of ``owner__name.json`` files (other JSON files, such as labels, are not repositories).
        repos: Names as ``owner/name`` or ``owner__name`` (``None``: every file of the split).
        split: ``all``, ``dev`` or ``sealed`` (see the module docstring).
        salt: The corpus's seal salt.
        what: The corpus's name in messages (``ADR``, ``memory-files``).

    Raises:
        MemlabError: Missing folder, no files, an unknown split, or a name not in the split (the message
            lists the valid names).
    """
    if split not in SPLITS:
        raise MemlabError(f"unknown split {split!r}; use dataset.split=one of {', '.join(SPLITS)}")
    root = Path(folder)
    if not root.is_dir():
        raise MemlabError(f"{what} folder not found: '{folder}'; pass dataset.path=<folder of owner__name.json files>")
    files = {p.stem: p for p in root.glob("*__*.json") if p.is_file()}
    if not files:
        raise MemlabError(f"no owner__name.json files in '{folder}'; pass dataset.path=<folder of {what} JSON files>")
    sealed = sealed_names(files, salt)
    keep = {n for n in files if split == "all" or (n in sealed) == (split == "sealed")}
    chosen = keep
    if repos is not None:
        wanted = [stem(str(r)) for r in ([repos] if isinstance(repos, str) else repos)]
        unknown = [w for w in wanted if w not in keep]
        if unknown:
            raise MemlabError(
                f"unknown repository {unknown[0]!r} in split {split!r} of '{folder}'; "
                f"valid: {', '.join(sorted(keep)) or '(none)'}"
            )
        chosen = set(wanted)
    return [files[n] for n in sorted(chosen)]


def read_object(path: str | Path, what: str) -> dict[str, Any]:
    """The JSON object of one repository file (``what``: the corpus's name in messages).

    Raises:
        MemlabError: The file is missing, not JSON, or not an object (the message names the file).
    """
    path = Path(path)
    if not path.is_file():
        raise MemlabError(f"{what} file not found: {path}; pass dataset.path=<folder of owner__name.json files>")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MemlabError(f"{path}: not valid JSON ({exc}); fix or replace the file") from None
    if not isinstance(data, dict):
        raise MemlabError(f"{path}: top level must be an object, got {type(data).__name__}; the file must be one "
                          "repository object (format: SOURCE.md of the data folder)")  # fmt: skip
    return data


def field(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, fix: str) -> Any:
    """``obj[key]``, checked to be of ``kind`` (never a bool for another kind); else a one-line error at ``where``."""
    if key not in obj:
        raise MemlabError(f"{where}: missing field '{key}'; {fix}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise MemlabError(f"{where}: field '{key}' must be {names}, got {type(value).__name__}; {fix}")
    return value
