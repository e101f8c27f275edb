"""Temporal answers without an LLM (category 2): retrieve, resolve, choose, render in LoCoMo's style.

For each of the ``top_n`` retrieved turns, the configured resolver finds temporal expressions in the turn's
own text and resolves them against *that turn's* timestamp (its session time); point expressions become
candidates, and a turn without one offers its session day. A candidate scores ``1/(rank+1)``, times
``1 + expression_bonus·confidence`` when it comes from an expression (expressions below
``min_confidence``, such as "recently", are ignored), times ``1 + month_bonus`` when the question names a
month the candidate overlaps ("When did Melanie go camping in June?"); the best is rendered the way
LoCoMo's gold answers are written ("7 May 2023", "The week before 9 June 2023", "The Friday before 15 July
2023", "June 2023", "2022"). Questions asking "which year" / "which month" get that grain.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from memlab.benchmarks.locomo.dates import MONTHS, WEEKDAYS, fmt_day, weekend_ending_by
from memlab.protocols import TemporalResolver
from memlab.types import Memory, TemporalRef

_NUMBER_WORDS = {2: "Two", 3: "Three", 4: "Four"}


@dataclass(frozen=True)
class AnswerConfig:
    """Hyperparameters of :func:`answer_temporal` (``dataset.answer.*``)."""

    top_n: int = 5
    expression_bonus: float = 2.0
    min_confidence: float = 0.0
    month_bonus: float = 0.0


@dataclass(frozen=True)
class TemporalAnswer:
    """The chosen answer and where it came from."""

    text: str
    source: str
    expression: str
    rank: int
    start: date
    end: date


def _season(d: date) -> str:
    return {
        12: "winter",
        1: "winter",
        2: "winter",
        3: "spring",
        4: "spring",
        5: "spring",
        6: "summer",
        7: "summer",
        8: "summer",
    }.get(d.month, "autumn")


def render(ref: TemporalRef, anchor: datetime) -> str:
    """Render a resolved expression in LoCoMo's answer style, relative to ``anchor`` where LoCoMo is."""
    start, end, x = ref.start.date(), ref.end.date(), anchor.date()
    days = (end - start).days
    low = ref.text.lower()
    if days <= 1:
        for i, name in enumerate(WEEKDAYS):
            if re.search(rf"\b{name}\b", low) and start < x and start == x - timedelta(days=(x.weekday() - i) % 7 or 7):
                return f"The {name.capitalize()} before {fmt_day(x)}"
        return fmt_day(start)
    if days <= 3 and start.weekday() in (4, 5) and "weekend" in low:
        sat = start if start.weekday() == 5 else start + timedelta(days=1)
        if end <= x:
            last = weekend_ending_by(x)
            for n in range(1, 5):
                if last - timedelta(days=7 * (n - 1)) == sat:
                    word = "The weekend" if n == 1 else f"{_NUMBER_WORDS[n]} weekends"
                    return f"{word} before {fmt_day(x)}"
            return f"The weekend of {fmt_day(sat)}"
        return f"The weekend after {fmt_day(x)}" if start > x else f"The weekend of {fmt_day(x)}"
    if days <= 9:
        if end <= x:
            n = (x - end).days // 7 + 1
            return (
                f"{_NUMBER_WORDS[n]} weeks before {fmt_day(x)}"
                if n in _NUMBER_WORDS
                else (f"The week before {fmt_day(x)}" if n == 1 else f"The week of {fmt_day(start)}")
            )
        return f"The week after {fmt_day(x)}" if start > x else f"The week of {fmt_day(x)}"
    if ref.grain == "season" or 80 <= days <= 95:
        return f"{_season(start)} {start.year}"
    if days <= 31:
        return f"{MONTHS[start.month - 1].capitalize()} {start.year}"
    if days <= 366:
        return str(start.year)
    return f"{start.year // 10 * 10}s"


def _grain_hint(question: str, start: date, text: str) -> str:
    q = question.lower()
    if re.search(r"\b(what|which|in what) year\b", q):
        return str(start.year)
    if re.search(r"\b(what|which|in what) month\b", q):
        return f"{MONTHS[start.month - 1].capitalize()} {start.year}"
    return text


def question_months(question: str) -> set[int]:
    """Months a question names ("When did Melanie go camping in June?" -> {6})."""
    words = re.findall(r"[a-z]+", question.lower())
    return {MONTHS.index(w) + 1 for w in words if w in MONTHS and w != "may"} | (
        {5} if re.search(r"\bin may\b", question.lower()) else set()
    )


def _overlaps_month(ref: TemporalRef, months: set[int]) -> bool:
    d = ref.start.date()
    while d < ref.end.date():
        if d.month in months:
            return True
        d = (d.replace(day=1) + timedelta(days=32)).replace(day=1)
    return False


def _session_ref(memory: Memory) -> TemporalRef:
    day = memory.timestamp.replace(hour=0, minute=0, second=0, microsecond=0)
    return TemporalRef("(session date)", (0, 0), day, day + timedelta(days=1), "day", 0.0)


def answer_temporal(
    question: str, ranked: Sequence[Memory], resolver: TemporalResolver, config: AnswerConfig
) -> TemporalAnswer | None:
    """Answer a "when" question from the ranked memories (``None`` when nothing was retrieved)."""
    best: tuple[float, int, TemporalRef, Memory] | None = None
    months = question_months(question) if config.month_bonus else set()
    for rank, memory in enumerate(ranked[: config.top_n]):
        text = str(memory.meta.get("text", memory.text))
        try:
            refs = [r for r in resolver.resolve(text, memory.timestamp) if r.kind == "point"]
        except Exception:  # a resolver must not break the benchmark; count as no expression
            refs = []
        refs = [r for r in refs if r.confidence >= config.min_confidence and r.start < r.end]
        candidates = [(1.0 + config.expression_bonus * r.confidence, r) for r in refs] or [(1.0, _session_ref(memory))]
        for weight, ref in candidates:
            score = weight / (rank + 1)
            if months and _overlaps_month(ref, months):
                score *= 1.0 + config.month_bonus
            if best is None or score > best[0]:
                best = (score, rank, ref, memory)
    if best is None:
        return None
    _, rank, ref, memory = best
    text = _grain_hint(question, ref.start.date(), render(ref, memory.timestamp))
    return TemporalAnswer(text, memory.id, ref.text, rank, ref.start.date(), ref.end.date())
