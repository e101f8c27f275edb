"""LoCoMo answer shapes <-> date intervals, and the date-accuracy rule (pure functions).

Shapes understood (case-insensitive; stray punctuation, ordinal suffixes, glued day-month such as
``21Janury`` and misspelled month names are tolerated):

- day: ``7 May 2023``, ``19 January, 2023``, ``February 24, 2023``, ``October 13th, 2023`` -> that day;
- month: ``June 2023``, ``January, 2023``, ``April.2023``, ``early August, 2023``, ``Around August 2022``;
- year: ``2022``, ``In 2013``;  season: ``summer 2023``, ``The summer of 2022`` (northern meteorological
  seasons: spring = Mar–May, summer = Jun–Aug, autumn/fall = Sep–Nov, winter = Dec–Feb);
- relative to a day X: ``the week before X`` = [X-7, X); ``two weeks before X`` = [X-14, X-7);
  ``the week after X`` = [X+1, X+8); ``the week of X`` = the Monday–Sunday week holding X;
  ``the weekend before X`` = the last Saturday–Sunday ending on or before X (``two weekends before X``:
  the one before that); ``the weekend after X`` = the first weekend starting after X; ``the weekend of
  X`` = the weekend holding X, else the nearest one (Monday, Tuesday: the one just past; Wednesday to
  Friday: the coming one); ``the <weekday> before X`` = the last such day before X;
  ``the day before X`` = X-1; ``a few days before X`` = [X-7, X);
  ``first weekend of <month>``; ``last week of <month>`` = its last seven days.

Anything else (durations such as ``4 years``, ``Since 2016``, days without a year) is not date-like.

Date accuracy: a prediction is correct when both normalise to intervals, the predicted interval lies
inside the gold interval, and its grain is not coarser than the gold's (grains ordered day < weekend <
week = few_days < month < season < year). When the gold is not date-like, a prediction is correct only if
its normalised text equals the gold's.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import date, timedelta

from memlab.benchmarks.locomo.scoring import normalize_answer

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3), "winter": (12, 3)}
GRAIN_RANK = {"day": 0, "weekend": 1, "week": 2, "few_days": 2, "month": 3, "season": 4, "year": 5}
_NUM = {"two": 2, "three": 3, "2": 2, "3": 3}


@dataclass(frozen=True)
class Interval:
    """A half-open day interval ``[start, end)`` with its grain."""

    start: date
    end: date
    grain: str

    def within(self, other: Interval) -> bool:
        """True when this interval lies inside ``other`` and is not coarser than it."""
        return other.start <= self.start and self.end <= other.end and GRAIN_RANK[self.grain] <= GRAIN_RANK[other.grain]


def _month(word: str) -> int | None:
    word = word.lower().strip(".")
    if word in MONTHS:
        return MONTHS.index(word) + 1
    if len(word) >= 3:
        for i, m in enumerate(MONTHS):
            if len(word) == 3 and m.startswith(word):
                return i + 1
        close = difflib.get_close_matches(word, MONTHS, n=1, cutoff=0.75)
        if close:
            return MONTHS.index(close[0]) + 1
    return None


def _month_interval(year: int, month: int) -> tuple[date, date]:
    start = date(year, month, 1)
    end = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return start, end


def clean(text: object) -> str:
    """Lowercase, drop ordinal suffixes and stray punctuation, split glued ``3June``."""
    s = str(text).lower().strip()
    s = re.sub(r"(\d+)(st|nd|rd|th)\b", r"\1", s)
    s = re.sub(r"(\d)([a-z])", r"\1 \2", s)
    s = re.sub(r"([a-z])(\d)", r"\1 \2", s)
    s = re.sub(r"[^\w\s]", " ", s)
    return " ".join(s.split())


def parse_absolute(s: str) -> Interval | None:
    """Day, month, year or season in cleaned text ``s`` (filler words such as ``in``, ``early`` ignored)."""
    words = [w for w in s.split() if w not in {"in", "on", "of", "the", "early", "late", "mid", "around", "about"}]
    if len(words) == 3:
        a, b, c = words
        for day_s, mon_s in ((a, b), (b, a)):
            if day_s.isdigit() and c.isdigit() and len(c) == 4 and (mon := _month(mon_s)):
                try:
                    d = date(int(c), mon, int(day_s))
                except ValueError:
                    return None
                return Interval(d, d + timedelta(days=1), "day")
    if len(words) == 2:
        a, b = words
        if b.isdigit() and len(b) == 4:
            if a in SEASONS:
                month, length = SEASONS[a]
                year = int(b) - 1 if a == "winter" else int(b)
                start = date(year, month, 1)
                end_month = month + length
                end = date(year + (end_month - 1) // 12, (end_month - 1) % 12 + 1, 1)
                return Interval(start, end, "season")
            if mon := _month(a):
                return Interval(*_month_interval(int(b), mon), "month")
    if len(words) == 1 and words[0].isdigit() and len(words[0]) == 4:
        y = int(words[0])
        return Interval(date(y, 1, 1), date(y + 1, 1, 1), "year")
    return None


def weekend_ending_by(x: date) -> date:
    """Saturday of the last weekend whose Sunday is before ``x``."""
    sat = x - timedelta(days=(x.weekday() - 5) % 7 or 7)
    return sat if sat + timedelta(days=1) < x else sat - timedelta(days=7)


_REL = re.compile(
    r"^(?:the )?(?:(?P<n>two|three|2|3) )?(?P<unit>week|weekend|day|few days|"
    + "|".join(WEEKDAYS)
    + r")s? (?P<rel>before|after|of) (?P<x>.+)$"
)


def parse_answer(text: object) -> Interval | None:
    """Normalise a LoCoMo answer (gold or predicted) to an interval, or ``None`` if it is not date-like."""
    s = clean(text)
    s = re.sub(r"^(a|an) few days", "few days", s)
    if m := re.match(r"^(?:the )?(first|last) (weekend|week) of (.+)$", s):
        base = parse_absolute(m.group(3))
        if base is None or base.grain != "month":
            return None
        if m.group(2) == "weekend":
            first = base.start
            sat = first + timedelta(days=(5 - first.weekday()) % 7)
            if m.group(1) == "last":
                sat = weekend_ending_by(base.end + timedelta(days=1))
            return Interval(sat, sat + timedelta(days=2), "weekend")
        if m.group(1) == "last":
            return Interval(base.end - timedelta(days=7), base.end, "week")
        return Interval(base.start, base.start + timedelta(days=7), "week")
    if m := _REL.match(s):
        anchor = parse_absolute(m.group("x"))
        if anchor is None or anchor.grain != "day":
            return None
        x, rel, unit = anchor.start, m.group("rel"), m.group("unit")
        n = _NUM.get(m.group("n") or "", 1)
        if unit == "day" and rel in ("before", "after"):
            d = x + timedelta(days=-n if rel == "before" else n)
            return Interval(d, d + timedelta(days=1), "day")
        if unit == "few days" and rel == "before":
            return Interval(x - timedelta(days=7), x, "few_days")
        if unit == "week":
            if rel == "before":
                return Interval(x - timedelta(days=7 * n), x - timedelta(days=7 * (n - 1)), "week")
            if rel == "after":
                return Interval(x + timedelta(days=1), x + timedelta(days=8), "week")
            monday = x - timedelta(days=x.weekday())
            return Interval(monday, monday + timedelta(days=7), "week")
        if unit == "weekend":
            if rel == "before":
                sat = weekend_ending_by(x) - timedelta(days=7 * (n - 1))
            elif rel == "after":
                sat = x + timedelta(days=(5 - x.weekday()) % 7 or 7)
            else:
                sat = (
                    x - timedelta(days=(x.weekday() - 5) % 7)
                    if x.weekday() in (0, 1, 5, 6)
                    else x + timedelta(days=5 - x.weekday())
                )
            return Interval(sat, sat + timedelta(days=2), "weekend")
        if unit in WEEKDAYS and rel == "before":
            back = (x.weekday() - WEEKDAYS.index(unit)) % 7 or 7
            d = x - timedelta(days=back + 7 * (n - 1))
            return Interval(d, d + timedelta(days=1), "day")
        if unit in WEEKDAYS and rel == "after":
            ahead = (WEEKDAYS.index(unit) - x.weekday()) % 7 or 7
            d = x + timedelta(days=ahead)
            return Interval(d, d + timedelta(days=1), "day")
        return None
    return parse_absolute(s)


def date_correct(prediction: object, gold: object) -> bool:
    """The date-accuracy rule (module docstring)."""
    g = parse_answer(gold)
    if g is None:
        return bool(normalize_answer(gold)) and normalize_answer(prediction) == normalize_answer(gold)
    p = parse_answer(prediction)
    return p is not None and p.within(g)


def fmt_day(d: date) -> str:
    """``7 May 2023``."""
    return f"{d.day} {MONTHS[d.month - 1].capitalize()} {d.year}"
