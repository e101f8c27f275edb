"""Reading a folder of architecture decision records: one JSON file per public repository.

The format (the data folder's ``SOURCE.md``): ``{"repo", "commit", "license", "adrs": [...], "links": [...]}``;
each record has ``id``, ``path``, ``number`` (or null), ``title``, ``date`` (``YYYY-MM-DD``), ``status`` and
``text`` (the whole file as written); each link has ``old``, ``new``, ``relation`` (``supersedes`` or
``amends``) and the ``evidence`` it was read from. Further fields are allowed and ignored.

Every record is validated; a malformed file or record raises a one-line :class:`~memlab.core.errors.MemlabError`
naming the file and the record. A link naming a record the file does not hold is not an error here: the
history (:mod:`memlab.data.adr.history`) skips and counts it.

Splits: ``sealed`` is the first third (rounded up) of the folder's repository names ordered by
``sha256("memlab-adr-seal:" + name)``, ``dev`` the rest; names only decide it, so adding files to a
folder can move repositories between splits, and no file is opened to split.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.data import splits

SPLITS = splits.SPLITS
RELATIONS = ("supersedes", "amends")
SEAL_SALT = "memlab-adr-seal:"


@dataclass(frozen=True)
class AdrRecord:
    """One decision record as written.

    Attributes:
        id: The record's id in its file (unique; the corpus uses the path).
        path: Path of the record file in its repository.
        number: The record's number, if it has one.
        title: The title as written (with its number and any status mark).
        date: The record's date (its own date line, front matter, or the commit that added it).
        status: The status text as written.
        text: The whole file as written.
    """

    id: str
    path: str
    number: int | None
    title: str
    date: datetime.date
    status: str
    text: str


@dataclass(frozen=True)
class AdrLink:
    """A gold link: ``new`` supersedes or amends ``old``.

    Attributes:
        old: Id of the older record.
        new: Id of the newer record.
        relation: ``supersedes`` or ``amends``.
        evidence: The status line(s) or sentence(s) the link was read from.
        direction: Where it was read: ``old-status``, ``new-says`` or both (``""``: not given).
    """

    old: str
    new: str
    relation: str
    evidence: str
    direction: str = ""


@dataclass(frozen=True)
class AdrRepo(splits.RepoFile):
    """One repository's records and links.

    Attributes:
        records: The records, in file order.
        links: The gold links, in file order.
        source: The JSON file read.
    """

    records: tuple[AdrRecord, ...]
    links: tuple[AdrLink, ...]
    source: str


def _record(raw: Any, index: int, source: str) -> AdrRecord:
    fix = "fix the record (format: SOURCE.md of the data folder)"
    rid = raw.get("id") if isinstance(raw, dict) else None
    where = f"{source}: record {index}" + (f" (id {rid!r})" if isinstance(rid, str) else "")
    if not isinstance(raw, dict):
        raise MemlabError(f"{where}: expected an object, got {type(raw).__name__}; {fix}")
    rid = splits.field(raw, "id", str, where, fix)
    if not rid.strip():
        raise MemlabError(f"{where}: field 'id' is empty; {fix}")
    number = raw.get("number")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        raise MemlabError(f"{where}: field 'number' must be an integer or null, got {type(number).__name__}; {fix}")
    date_text = splits.field(raw, "date", str, where, fix)
    try:
        date = datetime.date.fromisoformat(date_text[:10])
    except ValueError:
        raise MemlabError(f"{where}: field 'date' {date_text!r} is not a YYYY-MM-DD date; {fix}") from None
    return AdrRecord(
        id=rid,
        path=splits.field(raw, "path", str, where, fix),
        number=number,
        title=splits.field(raw, "title", str, where, fix),
        date=date,
        status=raw.get("status") or "",
        text=splits.field(raw, "text", str, where, fix),
    )


def _link(raw: Any, index: int, source: str) -> AdrLink:
    fix = "fix the link (format: SOURCE.md of the data folder)"
    where = f"{source}: link {index}"
    if not isinstance(raw, dict):
        raise MemlabError(f"{where}: expected an object, got {type(raw).__name__}; {fix}")
    where += f" ({raw.get('old')!r} -> {raw.get('new')!r})"
    relation = splits.field(raw, "relation", str, where, fix)
    if relation not in RELATIONS:
        raise MemlabError(f"{where}: relation {relation!r} is not one of {', '.join(RELATIONS)}; {fix}")
    evidence = raw.get("evidence") or ""
    if not isinstance(evidence, str):
        raise MemlabError(f"{where}: field 'evidence' must be str, got {type(evidence).__name__}; {fix}")
    direction = raw.get("direction") or ""
    if not isinstance(direction, str):
        raise MemlabError(f"{where}: field 'direction' must be str, got {type(direction).__name__}; {fix}")
    old, new = (splits.field(raw, key, str, where, fix) for key in ("old", "new"))
    return AdrLink(old, new, relation, evidence, direction)


def read_repo(path: str | Path) -> AdrRepo:
    """Read and validate one repository file.

    Raises:
        MemlabError: The file is missing, not JSON, or a field of the repository, a record or a link is
            missing or of the wrong type (the message names the file and the record).
    """
    source = str(path)
    data = splits.read_object(path, "ADR")
    fix = "the file must be one repository object (format: SOURCE.md of the data folder)"
    repo = splits.field(data, "repo", str, source, fix)
    raw_records = splits.field(data, "adrs", list, source, fix)
    raw_links = data.get("links") or []
    if not isinstance(raw_links, list):
        raise MemlabError(f"{source}: field 'links' must be list, got {type(raw_links).__name__}; {fix}")
    records = tuple(_record(raw, i, source) for i, raw in enumerate(raw_records))
    seen: set[str] = set()
    for i, record in enumerate(records):
        if record.id in seen:
            raise MemlabError(f"{source}: record {i} (id {record.id!r}): duplicate id; every record id must be unique")
        seen.add(record.id)
    links = tuple(_link(raw, i, source) for i, raw in enumerate(raw_links))
    licence = data.get("license") or "unknown"
    commit = data.get("commit") or ""
    if not isinstance(licence, str) or not isinstance(commit, str):
        raise MemlabError(f"{source}: fields 'license' and 'commit' must be strings; {fix}")
    return AdrRepo(repo, licence, commit, records, links, source)


def repo_files(folder: str | Path, repos: Sequence[str] | None = None, split: str = "all") -> list[Path]:
    """The repository files of ``folder`` in ``split``, optionally only ``repos``, sorted by name
    (:func:`memlab.data.splits.repo_files`; raises :class:`MemlabError` naming what is wrong).
    """
    return splits.repo_files(folder, repos, split, salt=SEAL_SALT, what="ADR")
