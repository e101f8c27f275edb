"""Hand labels of the real notes (``memlab.gitnotes_labels/1``): a kind per distinct record, relations per pair.

The file holds record keys and labels only, never the notes' text: a record's key is the first 16 hex digits of
the SHA-256 of ``namespace``, ``summary`` and ``content`` joined by NUL characters (:func:`record_key`), so every
copy of one distinct record shares it. Fields, kinds (``memory``, ``fragment``, ``example``, ``noise``) and
relations (``DUPLICATE``, ``MERGE``, ``SUPERSEDE``, ``NONE``: considered and rejected) are defined in
datasets/gitnotes_labels/README.md. A low-confidence label scores in neither direction. ``pairs_complete`` says
every candidate pair among the labelled records was read: a predicted relation between two labelled records that
no label lists is then a false positive; without it only listed pairs are scored.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from memlab.core.errors import MemlabError

FORMAT = "memlab.gitnotes_labels/1"
KINDS: tuple[str, ...] = ("memory", "fragment", "example", "noise")
RELATIONS: tuple[str, ...] = ("DUPLICATE", "MERGE", "SUPERSEDE", "NONE")


def record_key(namespace: str, summary: str, content: str) -> str:
    """The label key of a distinct record (16 hex digits of SHA-256 over namespace, summary, content)."""
    return hashlib.sha256(f"{namespace}\0{summary}\0{content}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class NotesLabels:
    """Labels read from a file.

    Attributes:
        path: The file.
        split: Its split name (``dev`` for the developers' namespaces).
        namespaces: The namespaces it labels.
        kinds: Record key -> kind (high-confidence labels only).
        namespace_of: Record key -> namespace (every labelled record).
        pairs: ``(older key, newer key)`` -> relation, high-confidence pairs only (``NONE`` included).
        unsure: Pairs labelled with low confidence (scored in neither direction), both orders.
        complete: Whether every candidate pair among the labelled records was read.
    """

    path: str
    split: str
    namespaces: tuple[str, ...]
    kinds: dict[str, str]
    namespace_of: dict[str, str]
    pairs: dict[tuple[str, str], str]
    unsure: frozenset[tuple[str, str]]
    complete: bool


def load_labels(path: str | Path) -> NotesLabels:
    """Read and check a labels file.

    Raises:
        MemlabError: Missing or unreadable file, another format, an unknown kind or relation, a pair naming
            an unlabelled record.
    """
    path = Path(path)
    fix = "point dataset.labels at a memlab.gitnotes_labels/1 file (datasets/gitnotes_labels/README.md)"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MemlabError(f"labels file not found: {path}; {fix}") from None
    except (OSError, ValueError) as exc:
        raise MemlabError(f"labels file {path} is not readable JSON ({exc}); {fix}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MemlabError(f"{path} is not a {FORMAT} file; {fix}")
    kinds: dict[str, str] = {}
    namespace_of: dict[str, str] = {}
    for rec in data.get("records", []):
        key, kind = str(rec.get("key")), rec.get("kind")
        if kind not in KINDS:
            raise MemlabError(f"{path}: record {key} has kind {kind!r}; valid: {', '.join(KINDS)}")
        namespace_of[key] = str(rec.get("namespace", ""))
        if rec.get("confidence", "high") == "high":
            kinds[key] = kind
    pairs: dict[tuple[str, str], str] = {}
    unsure: set[tuple[str, str]] = set()
    for pair in data.get("pairs", []):
        older, newer, relation = str(pair.get("older")), str(pair.get("newer")), pair.get("relation")
        if relation not in RELATIONS:
            raise MemlabError(f"{path}: pair {older}->{newer} has relation {relation!r}; valid: {', '.join(RELATIONS)}")
        if older not in namespace_of or newer not in namespace_of:
            raise MemlabError(f"{path}: pair {older}->{newer} names a record the file does not label; {fix}")
        if pair.get("confidence", "high") == "high":
            pairs[(older, newer)] = relation
        else:
            unsure |= {(older, newer), (newer, older)}
    return NotesLabels(
        str(path),
        str(data.get("split", "")),
        tuple(data.get("namespaces", ())),
        kinds,
        namespace_of,
        pairs,
        frozenset(unsure),
        bool(data.get("pairs_complete", False)),
    )
