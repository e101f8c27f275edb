"""Read any file in the LoCoMo JSON format, counting its known quirks instead of crashing on them.

Format: a JSON list of conversation objects, each with ``sample_id``, ``conversation`` (``speaker_a``,
``speaker_b``, ``session_N`` = list of turns ``{speaker, dia_id, text[, blip_caption]}`` and
``session_N_date_time`` like ``1:56 pm on 8 May, 2023``) and ``qa`` (``question``, ``answer`` or
``adversarial_answer``, ``evidence`` = dialogue ids such as ``D1:3``, ``category``).

Quirks counted (``LocomoData.quirks``): integer answers, evidence ids that do not resolve (with the
repairs applied: ``D8:6; D9:17`` is split, ``D30:05`` loses its zero, ``D:11:26`` loses the stray colon;
``D`` or ids of turns that do not exist are dropped), questions without evidence, orphan
``session_N_date_time`` keys (a date without a session), adversarial items answered by
``adversarial_answer``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memlab.benchmarks.locomo.dates import MONTHS
from memlab.core.errors import MemlabError
from memlab.core.sha import file_sha256

#: Pinned category map (the upstream scorer's semantics); logged with every run.
CATEGORIES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

_MONTHS = {m: i + 1 for i, m in enumerate(MONTHS)}
_SESSION_TIME = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$", re.IGNORECASE
)
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DATE_KEY = re.compile(r"^session_(\d+)_date_time$")
_DIA_ID = re.compile(r"^D(\d+):(\d+)$")


@dataclass(frozen=True)
class Turn:
    """One dialogue turn."""

    dia_id: str
    speaker: str
    text: str
    session: int
    index: int
    timestamp: datetime
    caption: str = ""


@dataclass(frozen=True)
class Question:
    """One QA item.

    Attributes:
        qid: ``locomo_<conversation index>_qa<index in its qa list>`` (the audit file's format).
        answer: Gold answer as text (integers converted; adversarial items: ``adversarial_answer``).
        evidence: Resolved dialogue ids (after repairs); may be empty.
        raw_evidence: Evidence as written in the file.
    """

    qid: str
    conversation: str
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]
    raw_evidence: tuple[str, ...]
    adversarial: bool = False


@dataclass(frozen=True)
class Conversation:
    """One conversation: its turns in time order and its questions."""

    sample_id: str
    index: int
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]
    session_times: dict[int, datetime] = field(default_factory=dict)

    @property
    def last_time(self) -> datetime:
        """Time of the last session (the benchmark clock for this conversation's questions)."""
        return max(self.session_times.values())


@dataclass(frozen=True)
class LocomoData:
    """A loaded file: conversations, sha256 and quirk counts."""

    path: str
    sha256: str
    conversations: tuple[Conversation, ...]
    quirks: dict[str, int]

    @property
    def questions(self) -> list[Question]:
        """All questions of all conversations."""
        return [q for c in self.conversations for q in c.questions]


def parse_session_time(text: str) -> datetime:
    """Parse ``1:56 pm on 8 May, 2023`` to an aware UTC datetime.

    Raises:
        ValueError: When the text is not in that shape.
    """
    m = _SESSION_TIME.match(text or "")
    if not m or m.group(5).lower() not in _MONTHS:
        raise ValueError(f"not a LoCoMo session time: {text!r}")
    hour, minute = int(m.group(1)) % 12, int(m.group(2))
    if m.group(3).lower() == "p":
        hour += 12
    return datetime(int(m.group(6)), _MONTHS[m.group(5).lower()], int(m.group(4)), hour, minute, tzinfo=UTC)


def resolve_evidence(raw: str, known: set[str], quirks: Counter) -> list[str]:
    """Resolve one evidence entry to known dialogue ids, counting what had to be repaired."""
    parts = [p for p in re.split(r"[;,\s]+", str(raw).strip()) if p]
    if len(parts) > 1:
        quirks["evidence_multi_id"] += 1
    out: list[str] = []
    for part in parts:
        candidate = part
        if candidate not in known:
            fixed = re.sub(r"^D:(\d+):", r"D\1:", candidate)
            m = _DIA_ID.match(fixed)
            if m:
                fixed = f"D{int(m.group(1))}:{int(m.group(2))}"
            if fixed in known:
                quirks["evidence_repaired"] += 1
                candidate = fixed
            else:
                quirks["evidence_unresolved"] += 1
                continue
        out.append(candidate)
    return out


def require_field(record: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, path: str) -> Any:
    """``record[key]`` checked to be of ``kind``; a MemlabError naming the file, record and field otherwise."""
    if not isinstance(record, dict) or key not in record:
        raise MemlabError(f"{path}: {where} has no field '{key}'; is this a LoCoMo-format file?")
    value = record[key]
    if not isinstance(value, kind):
        raise MemlabError(f"{path}: {where} field '{key}' has type {type(value).__name__}; fix the file")
    return value


def _parse_conversation(obj: Any, index: int, path: str, quirks: Counter) -> Conversation:
    where = f"conversation #{index}"
    sample_id = str(obj.get("sample_id", f"conv-{index}")) if isinstance(obj, dict) else ""
    where = f"conversation #{index} ({sample_id})"
    conv = require_field(obj, "conversation", dict, where, path)
    qa = require_field(obj, "qa", list, where, path)
    speakers = (str(conv.get("speaker_a", "")), str(conv.get("speaker_b", "")))
    sessions = {int(m.group(1)): k for k in conv if (m := _SESSION_KEY.match(k))}
    dates = {int(m.group(1)): k for k in conv if (m := _DATE_KEY.match(k))}
    quirks["orphan_session_dates"] += len(set(dates) - set(sessions))
    times: dict[int, datetime] = {}
    turns: list[Turn] = []
    for n in sorted(sessions):
        if n not in dates:
            raise MemlabError(f"{path}: {where} has session_{n} but no session_{n}_date_time; add the date")
        try:
            times[n] = parse_session_time(str(conv[dates[n]]))
        except ValueError:
            raise MemlabError(
                f"{path}: {where} field '{dates[n]}' = {conv[dates[n]]!r} is not like '1:56 pm on 8 May, 2023'"
            ) from None
        turn_list = require_field(conv, sessions[n], list, where, path)
        for i, turn in enumerate(turn_list):
            twhere = f"{where} session_{n} turn #{i}"
            text, dia, speaker = (require_field(turn, k, str, twhere, path) for k in ("text", "dia_id", "speaker"))
            turns.append(Turn(dia, speaker, text, n, i, times[n], str(turn.get("blip_caption") or "")))
    if not turns:
        raise MemlabError(f"{path}: {where} has no sessions with turns; is this a LoCoMo-format file?")
    turns.sort(key=lambda t: (t.timestamp, t.session, t.index))
    known = {t.dia_id for t in turns}
    questions: list[Question] = []
    for i, item in enumerate(qa):
        qwhere = f"{where} qa #{i}"
        text = require_field(item, "question", str, qwhere, path)
        category = require_field(item, "category", int, qwhere, path)
        if category not in CATEGORIES:
            raise MemlabError(f"{path}: {qwhere} field 'category' = {category}; valid: 1-5")
        adversarial = "answer" not in item and "adversarial_answer" in item
        if adversarial:
            quirks["adversarial_answer_field"] += 1
            answer: Any = item["adversarial_answer"]
        elif "answer" in item:
            answer = item["answer"]
        else:
            raise MemlabError(f"{path}: {qwhere} has neither 'answer' nor 'adversarial_answer'; fix the file")
        if isinstance(answer, bool) or not isinstance(answer, (str, int, float)):
            raise MemlabError(f"{path}: {qwhere} field 'answer' has type {type(answer).__name__}; fix the file")
        if not isinstance(answer, str):
            quirks["integer_answers"] += 1
        raw = item.get("evidence") or []
        if not isinstance(raw, list):
            raise MemlabError(f"{path}: {qwhere} field 'evidence' is not a list; fix the file")
        evidence: list[str] = []
        for entry in raw:
            for dia in resolve_evidence(entry, known, quirks):
                if dia not in evidence:
                    evidence.append(dia)
        if not raw:
            quirks["questions_without_evidence"] += 1
        elif not evidence:
            quirks["questions_without_resolvable_evidence"] += 1
        fields = (str(answer).strip(), category, tuple(evidence), tuple(str(e) for e in raw), adversarial)
        questions.append(Question(f"locomo_{index}_qa{i}", sample_id, text, *fields))
    return Conversation(sample_id, index, speakers, tuple(turns), tuple(questions), times)


def load(path: str | Path) -> LocomoData:
    """Load a LoCoMo-format file.

    Raises:
        MemlabError: Missing file, invalid JSON, or a malformed record (the message names it and the field).
    """
    path = Path(path)
    if not path.is_file():
        raise MemlabError(
            f"LoCoMo file not found: {path}; put locomo_dev.json (or locomo10.json from "
            "github.com/snap-research/locomo) under ${{paths.data_dir}}/locomo/ or pass dataset.path=<file>"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MemlabError(f"{path}: not valid JSON ({exc}); is this a LoCoMo-format file?") from None
    if not isinstance(data, list) or not data:
        raise MemlabError(f"{path}: expected a non-empty JSON list of conversations (LoCoMo format)")
    quirks: Counter = Counter()
    convs = tuple(_parse_conversation(obj, i, str(path), quirks) for i, obj in enumerate(data))
    names = (
        "integer_answers",
        "evidence_multi_id",
        "evidence_repaired",
        "evidence_unresolved",
        "questions_without_evidence",
        "questions_without_resolvable_evidence",
        "orphan_session_dates",
        "adversarial_answer_field",
    )
    return LocomoData(str(path), file_sha256(path), convs, {k: int(quirks.get(k, 0)) for k in names})
