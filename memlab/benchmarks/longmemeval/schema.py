"""LongMemEval records: parsing and validation with errors that name the record and the field.

One record per question, each with its own haystack: ``question_id``, ``question_type``, ``question``,
``answer`` (string or number), ``question_date``, ``haystack_session_ids``, ``haystack_dates``,
``haystack_sessions`` (lists of ``{"role", "content", "has_answer"?}`` turns) and ``answer_session_ids``.
Dates look like ``2023/05/20 (Sat) 02:21``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memlab.core.errors import MemlabError

#: The question types of the LongMemEval paper (abstention items carry ``_abs`` in their id instead).
QUESTION_TYPES: tuple[str, ...] = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "temporal-reasoning",
    "knowledge-update",
    "multi-session",
)


@dataclass(frozen=True)
class Turn:
    """One chat turn."""

    role: str
    content: str
    has_answer: bool = False


@dataclass(frozen=True)
class Session:
    """One haystack session with its date."""

    session_id: str
    date: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    """One LongMemEval item with its haystack."""

    question_id: str
    question_type: str
    question: str
    answer: str
    question_date: datetime
    sessions: tuple[Session, ...]
    answer_session_ids: tuple[str, ...]

    @property
    def abstention(self) -> bool:
        """Abstention items (``question_id`` ending in ``_abs``) have no answer in the haystack."""
        return self.question_id.endswith("_abs")


def parse_date(text: str) -> datetime:
    """``2023/05/20 (Sat) 02:21`` -> aware UTC datetime (the weekday in brackets is ignored).

    Raises:
        ValueError: Not in that format.
    """
    if not isinstance(text, str):
        raise ValueError(f"expected a string like '2023/05/20 (Sat) 02:21', got {type(text).__name__}")
    parts = text.split()
    if len(parts) == 3 and parts[1].startswith("(") and parts[1].endswith(")"):
        text = f"{parts[0]} {parts[2]}"
    try:
        return datetime.strptime(text, "%Y/%m/%d %H:%M").replace(tzinfo=UTC)
    except ValueError:
        raise ValueError(f"'{text}' is not like '2023/05/20 (Sat) 02:21'") from None


def _fail(where: str, field: str, problem: str) -> MemlabError:
    return MemlabError(f"LongMemEval {where}: field '{field}' {problem}; fix the file or pick another dataset.path")


def _str_list(record: Mapping[str, Any], field: str, where: str) -> list[str]:
    value = record.get(field)
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise _fail(where, field, "must be a list of ids")
    return [str(v) for v in value]


def parse_question(record: Any, index: int) -> Question:
    """Validate one record (``index`` is its position in the file, for messages).

    Raises:
        MemlabError: A field is missing or malformed (the message names the record and the field).
    """
    where = f"record {index}"
    if not isinstance(record, Mapping):
        raise MemlabError(f"LongMemEval {where}: expected an object, got {type(record).__name__}; fix the file")
    qid = record.get("question_id")
    if not isinstance(qid, str | int) or str(qid) == "":
        raise _fail(where, "question_id", "is missing")
    where = f"record {index} ({qid})"
    for field in ("question_type", "question"):
        if not isinstance(record.get(field), str) or not record[field]:
            raise _fail(where, field, "must be a non-empty string")
    if "answer" not in record or not isinstance(record["answer"], str | int | float):
        raise _fail(where, "answer", "must be a string or a number")
    try:
        qdate = parse_date(record.get("question_date"))
    except ValueError as exc:
        raise _fail(where, "question_date", str(exc)) from None
    ids = _str_list(record, "haystack_session_ids", where)
    dates = record.get("haystack_dates")
    sessions = record.get("haystack_sessions")
    if not isinstance(dates, list) or len(dates) != len(ids):
        raise _fail(where, "haystack_dates", f"must be a list as long as haystack_session_ids ({len(ids)})")
    if not isinstance(sessions, list) or len(sessions) != len(ids):
        raise _fail(where, "haystack_sessions", f"must be a list as long as haystack_session_ids ({len(ids)})")
    parsed = [_session(where, i, sid, d, s) for i, (sid, d, s) in enumerate(zip(ids, dates, sessions, strict=True))]
    evidence = _str_list(record, "answer_session_ids", where)
    return Question(
        str(qid),
        record["question_type"],
        record["question"],
        str(record["answer"]),
        qdate,
        tuple(parsed),
        tuple(evidence),
    )


def _session(where: str, i: int, sid: str, date_text: Any, turns: Any) -> Session:
    try:
        date = parse_date(date_text)
    except ValueError as exc:
        raise _fail(where, f"haystack_dates[{i}]", str(exc)) from None
    if not isinstance(turns, list):
        raise _fail(where, f"haystack_sessions[{i}]", "must be a list of turns")
    out = []
    for j, turn in enumerate(turns):
        if not isinstance(turn, Mapping) or not isinstance(turn.get("role"), str):
            raise _fail(where, f"haystack_sessions[{i}][{j}].role", "must be a string")
        if not isinstance(turn.get("content"), str):
            raise _fail(where, f"haystack_sessions[{i}][{j}].content", "must be a string")
        out.append(Turn(turn["role"], turn["content"], bool(turn.get("has_answer", False))))
    return Session(sid, date, tuple(out))


def parse_all(records: Sequence[Any]) -> list[Question]:
    """Validate every record; duplicate question ids are an error."""
    questions = [parse_question(r, i) for i, r in enumerate(records)]
    seen: set[str] = set()
    for i, q in enumerate(questions):
        if q.question_id in seen:
            raise _fail(f"record {i} ({q.question_id})", "question_id", "repeats an earlier record")
        seen.add(q.question_id)
    return questions
