"""The ``memlab.project_history/1`` JSON format: memories plus exact gold (see DESIGN.md).

Readers validate every record and fail with a :class:`~memlab.core.errors.MemlabError` naming the file, the
record and the bad field. Writers produce canonical JSON (sorted keys within records, memories in time
order) so that a history's SHA-256 identifies it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation

FORMAT = "memlab.project_history/1"
QUERY_KINDS = ("current", "as_of", "when", "history")
#: Where a ``when`` answer comes from: the evidence memory's own date, or a date its text mentions.
ANSWER_SOURCES = ("recorded", "mentioned")


@dataclass(frozen=True)
class GoldRelation:
    """Gold relation of ``newer`` to ``older``; pairs not listed are unrelated or COEXIST."""

    older: str
    newer: str
    relation: Relation


@dataclass(frozen=True)
class GoldTemporal:
    """Gold interval ``[start, end)`` of a temporal expression inside a memory."""

    memory: str
    text: str
    start: datetime
    end: datetime


@dataclass(frozen=True)
class GoldQuery:
    """A question with its gold answer and evidence.

    Attributes:
        id: Query id.
        kind: ``current``, ``as_of``, ``when`` or ``history``.
        question: The question.
        as_of: The time the question is asked about (``current``: the query time).
        answer: Gold answer text (``history``: the values in order, joined by `` -> ``).
        evidence: Ids of the memories that state the answer (``history``: the whole chain, oldest first).
        topic: Optional topic key (lets metrics group queries).
        answer_source: For ``when`` queries: ``recorded`` (the answer is the date the evidence memory was
            recorded) or ``mentioned`` (a date a relative expression in its text refers to, e.g. "yesterday").
    """

    id: str
    kind: str
    question: str
    as_of: datetime
    answer: str
    evidence: tuple[str, ...]
    topic: str | None = None
    answer_source: str = "recorded"


@dataclass(frozen=True)
class ProjectHistory:
    """A project's memories and exact gold."""

    name: str
    memories: tuple[Memory, ...]
    relations: tuple[GoldRelation, ...] = ()
    temporal: tuple[GoldTemporal, ...] = ()
    queries: tuple[GoldQuery, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def now(self) -> datetime:
        """The benchmark clock: the latest memory or query time."""
        times = [m.timestamp for m in self.memories] + [q.as_of for q in self.queries]
        return max(times)

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON-ready dict."""
        return {
            "name": self.name,
            "format": FORMAT,
            "meta": self.meta,
            "memories": [
                {
                    "id": m.id,
                    "namespace": m.namespace,
                    "timestamp": m.timestamp.isoformat(),
                    "summary": m.summary,
                    "content": m.content,
                    "tags": list(m.tags),
                }
                for m in sorted(self.memories, key=lambda m: (m.timestamp, m.id))
            ],
            "gold": {
                "relations": [
                    {"older": r.older, "newer": r.newer, "relation": r.relation.value} for r in self.relations
                ],
                "temporal": [
                    {"memory": t.memory, "text": t.text, "start": t.start.isoformat(), "end": t.end.isoformat()}
                    for t in self.temporal
                ],
                "queries": [
                    {
                        "id": q.id,
                        "kind": q.kind,
                        "question": q.question,
                        "as_of": q.as_of.isoformat(),
                        "answer": q.answer,
                        "evidence": list(q.evidence),
                        **({"topic": q.topic} if q.topic else {}),
                        **({"answer_source": q.answer_source} if q.answer_source != "recorded" else {}),
                    }
                    for q in self.queries
                ],
            },
        }

    def to_json(self) -> str:
        """Canonical JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1, sort_keys=False)

    def sha256(self) -> str:
        """SHA-256 of the canonical JSON."""
        return hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()

    def write(self, path: str | Path) -> Path:
        """Write the canonical JSON to ``path`` (parents created)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path


def parse_time(value: Any, where: str) -> datetime:
    """Parse an ISO-8601 date or datetime; naive values are taken as UTC."""
    if not isinstance(value, str):
        raise MemlabError(f"{where}: expected an ISO-8601 string, got {type(value).__name__}")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise MemlabError(f"{where}: '{value}' is not an ISO-8601 date/time (e.g. 2025-01-10T14:30:00+00:00)") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _req(record: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(record, dict):
        raise MemlabError(f"{where}: expected an object, got {type(record).__name__}")
    if key not in record:
        raise MemlabError(f"{where}: missing field '{key}'")
    value = record[key]
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise MemlabError(f"{where}: field '{key}' must be {names}, got {type(value).__name__}")
    return value


def from_dict(data: Any, source: str = "<history>") -> ProjectHistory:
    """Validate and build a :class:`ProjectHistory` from parsed JSON."""
    if not isinstance(data, dict):
        raise MemlabError(f"{source}: top level must be an object with name, format, memories, gold")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise MemlabError(f"{source}: field 'format' must be '{FORMAT}', got {fmt!r}")
    name = _req(data, "name", str, source)
    memories = _memories(_req(data, "memories", list, source), source)
    ids = {m.id for m in memories}
    gold = data.get("gold")
    gold = {} if gold is None else gold
    if not isinstance(gold, dict):
        raise MemlabError(f"{source}: field 'gold' must be an object")
    for section in ("relations", "temporal", "queries"):
        if not isinstance(gold.get(section) or [], list):
            raise MemlabError(f"{source}: field 'gold.{section}' must be a list")
    relations = [
        _relation(rec, ids, f"{source}: gold.relations[{i}]") for i, rec in enumerate(gold.get("relations") or [])
    ]
    temporal = [
        _temporal(rec, ids, f"{source}: gold.temporal[{i}]") for i, rec in enumerate(gold.get("temporal") or [])
    ]
    queries = [_query(rec, ids, f"{source}: gold.queries[{i}]") for i, rec in enumerate(gold.get("queries") or [])]
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    return ProjectHistory(name, tuple(memories), tuple(relations), tuple(temporal), tuple(queries), meta)


def _memories(raw_memories: list[Any], source: str) -> list[Memory]:
    """The ``memories`` list, each record checked; ids must be unique."""
    memories: list[Memory] = []
    ids: set[str] = set()
    for i, rec in enumerate(raw_memories):
        where = f"{source}: memories[{i}]"
        mid = _req(rec, "id", str, where)
        where = f"{source}: memory '{mid}'"
        if mid in ids:
            raise MemlabError(f"{where}: duplicate id; every memory id must be unique")
        ids.add(mid)
        tags = rec.get("tags") or []
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise MemlabError(f"{where}: field 'tags' must be a list of strings")
        memories.append(
            Memory(
                id=mid,
                namespace=_req(rec, "namespace", str, where),
                timestamp=parse_time(_req(rec, "timestamp", str, where), f"{where} field 'timestamp'"),
                summary=_req(rec, "summary", str, where),
                content=rec.get("content") or "",
                tags=tuple(tags),
            )
        )
    return memories


def _known(mid: Any, ids: set[str], where: str) -> str:
    """``mid`` when it names a memory of the history; else the one-line error."""
    if mid not in ids:
        raise MemlabError(f"{where}: unknown memory id {mid!r}; gold may only cite ids in 'memories'")
    return mid


def _relation(rec: Any, ids: set[str], where: str) -> GoldRelation:
    """One ``gold.relations`` record."""
    rel = _req(rec, "relation", str, where)
    if rel not in Relation.__members__:
        raise MemlabError(f"{where}: relation {rel!r} is not one of {', '.join(Relation.__members__)}")
    older = _known(_req(rec, "older", str, where), ids, where)
    return GoldRelation(older, _known(_req(rec, "newer", str, where), ids, where), Relation(rel))


def _temporal(rec: Any, ids: set[str], where: str) -> GoldTemporal:
    """One ``gold.temporal`` record (a half-open interval)."""
    start = parse_time(_req(rec, "start", str, where), f"{where} field 'start'")
    end = parse_time(_req(rec, "end", str, where), f"{where} field 'end'")
    if not start < end:
        raise MemlabError(f"{where}: 'start' must be before 'end' (intervals are half-open)")
    return GoldTemporal(_known(_req(rec, "memory", str, where), ids, where), _req(rec, "text", str, where), start, end)


def _query(rec: Any, ids: set[str], where: str) -> GoldQuery:
    """One ``gold.queries`` record."""
    kind = _req(rec, "kind", str, where)
    if kind not in QUERY_KINDS:
        raise MemlabError(f"{where}: kind {kind!r} is not one of {', '.join(QUERY_KINDS)}")
    evidence = _req(rec, "evidence", list, where)
    source_kind = rec.get("answer_source", "recorded")
    if source_kind not in ANSWER_SOURCES:
        raise MemlabError(f"{where}: answer_source {source_kind!r} is not one of {', '.join(ANSWER_SOURCES)}")
    topic = rec.get("topic")
    if topic is not None and not isinstance(topic, str):
        raise MemlabError(f"{where}: field 'topic' must be str, got {type(topic).__name__}")
    return GoldQuery(
        id=_req(rec, "id", str, where),
        kind=kind,
        question=_req(rec, "question", str, where),
        as_of=parse_time(_req(rec, "as_of", str, where), f"{where} field 'as_of'"),
        answer=str(_req(rec, "answer", (str, int, float), where)),
        evidence=tuple(_known(e, ids, where) for e in evidence),
        topic=topic,
        answer_source=source_kind,
    )


def read(path: str | Path) -> ProjectHistory:
    """Read and validate a history file."""
    path = Path(path)
    if not path.is_file():
        raise MemlabError(
            f"history file not found: {path}; write one with the project_history generator "
            "or pass dataset.path=<file in memlab.project_history/1 format>"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MemlabError(f"{path}: not valid JSON ({exc}); fix the file or regenerate it") from None
    return from_dict(data, str(path))
