"""What a "when" question asks (pure functions): its event's words, the periods it names, its tense, its grain.

* **Event terms** — the question's content words, stemmed (:func:`memlab.text.lexical.tokens`), without
  question words and without the time words it uses as constraints ("When did Ann go camping in June?" ->
  ``ann go camp``). The answerer looks for them in the context to find the turn that narrates the event.
* **Named periods** — a month ("in June"), a season ("last summer" is not a name; "in summer 2022" is), a year
  ("in 2022"): an answer outside every named period contradicts the question.
* **Future** — "When is Ann going to ...", "When will ...", "When is Ann planning ...": the event lies ahead
  of the turn that mentions it.
* **Grain** — "which year" / "which month" questions are answered at that grain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from memlab.benchmarks.locomo.dates import MONTHS, SEASONS
from memlab.text.lexical import QUESTION_WORDS, STOPWORDS, stem, tokens

_TIME_WORDS = frozenset(
    stem(w)
    for w in (
        *MONTHS,
        *SEASONS,
        "year",
        "month",
        "week",
        "weekend",
        "day",
        "date",
        "time",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    )
)
#: Light verbs and planning words: they say little about which event is meant.
_LIGHT = frozenset(
    stem(w) for w in ("go", "going", "gone", "went", "get", "got", "getting", "plan", "planning", "planned", "plans")
)
_FUTURE = re.compile(
    r"\b(?:will|plan|plans|planning|planned|going to|intend|intends)\b|"
    r"^\s*(?:when|what \w+|which \w+)\s+(?:is|are)\s+\w+(?:\s+\w+)?\s+\w+ing\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9]+")
_YEAR = re.compile(r"\b(1[5-9]\d\d|2[01]\d\d)\b")


@dataclass(frozen=True)
class QuestionCues:
    """What :func:`analyse` read from a question.

    Attributes:
        terms: Stemmed event terms, in question order, without repeats.
        months: Months the question names (1-12).
        seasons: Seasons it names (``summer``, ``fall`` ...).
        years: Years it names.
        future: The question asks about something planned (the event follows its mention).
        grain: ``year``, ``month`` or ``None`` (answer at the grain of the evidence).
    """

    terms: tuple[str, ...]
    future: bool = False
    grain: str | None = None
    months: frozenset[int] = frozenset()
    seasons: frozenset[str] = frozenset()
    years: frozenset[int] = frozenset()


def is_time_word(key: str) -> bool:
    """Whether a match key names a time unit, month, season or weekday (or "ago", "next", "last", "this")."""
    return key in _TIME_WORDS or key in _TIME_KEYS


def event_terms(question: str) -> tuple[str, ...]:
    """Stemmed content words of the question that name its event (no question or time words)."""
    skip = {stem(w) for w in QUESTION_WORDS} | _TIME_WORDS | _LIGHT
    out: dict[str, None] = {}
    for tok in tokens(question):
        if tok not in skip and not tok.isdigit():
            out.setdefault(match_key(tok), None)
    return tuple(out)


def match_key(token: str) -> str:
    """A stemmed token folded further so that "race"/"races", "game"/"gaming", "marry"/"married" meet."""
    if token.endswith("e") and len(token) > 3:
        return token[:-1]
    if token.endswith("y") and len(token) > 3:
        return token[:-1] + "i"
    return token


_TIME_KEYS = frozenset(
    [match_key(stem(w)) for w in (*MONTHS, *SEASONS, "year", "month", "week", "weekend", "day", "ago", "next", "last")]
    + [match_key(stem(w)) for w in ("yesterday", "today", "tomorrow", "tonight", "morning", "evening", "afternoon")]
    + [match_key(stem(w)) for w in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")]
)


def text_keys(text: str) -> list[tuple[str, int]]:
    """:func:`match_key` of every content token of ``text`` with its character offset, in order."""
    return [(match_key(stem(m.group())), m.start()) for m in _WORD.finditer(text.lower()) if m.group() not in STOPWORDS]


def same_word(a: str, b: str) -> bool:
    """Two match keys name the same word: equal, or one a prefix (of at least 4 letters) of the other."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and long_.startswith(short)


def _months(question: str) -> set[int]:
    words = re.findall(r"[a-z]+", question.lower())
    found = {MONTHS.index(w) + 1 for w in words if w in MONTHS and w != "may"}
    if re.search(r"\b(?:in|of|during|early|late|mid)\s+may\b|\bmay\s+(?:1[5-9]|2[01])\d\d\b", question.lower()):
        found.add(5)
    return found


def _season_of(d: date) -> tuple[str, int]:
    """Meteorological season of ``d`` and the year it is named by (December belongs to next year's winter)."""
    for name, (first, length) in SEASONS.items():
        if name != "fall" and (d.month - first) % 12 < length:
            return name, d.year + 1 if (name == "winter" and d.month == 12) else d.year
    raise AssertionError("unreachable")


def within_named(cues: QuestionCues, start: date, end: date) -> bool:
    """Whether the day interval ``[start, end)`` overlaps a period the question names (true if it names none)."""
    if not cues.months and not cues.seasons and not cues.years:
        return True
    d = date(start.year, start.month, 1)
    while d < end:
        season, season_year = _season_of(d)
        year_ok = not cues.years or (season_year if cues.seasons and not cues.months else d.year) in cues.years
        month_ok = not cues.months or d.month in cues.months
        season_ok = not cues.seasons or season in cues.seasons or (season == "autumn" and "fall" in cues.seasons)
        if year_ok and month_ok and season_ok:
            return True
        d = date(d.year + 1, 1, 1) if d.month == 12 else date(d.year, d.month + 1, 1)
    return False


def asked_grain(question: str) -> str | None:
    """``year`` for "which/what year", ``month`` for "which/what month", else ``None``."""
    q = question.lower()
    if re.search(r"\b(?:what|which)\s+year\b", q):
        return "year"
    if re.search(r"\b(?:what|which)\s+month\b", q):
        return "month"
    return None


def analyse(question: str) -> QuestionCues:
    """The cues of one question."""
    return QuestionCues(
        terms=event_terms(question),
        months=frozenset(_months(question)),
        seasons=frozenset(x for x in SEASONS if re.search(rf"\b{x}\b", question.lower())),
        years=frozenset(int(y) for y in _YEAR.findall(question)),
        future=bool(_FUTURE.search(question)),
        grain=asked_grain(question),
    )
