"""Resolved time expressions written the way LoCoMo's gold answers are (pure functions).

LoCoMo's annotators restate a relative expression against the date of the session it was said in: "last
Friday" said on 15 July 2023 is "The Friday before 15 July 2023", "last week" is "The week before …",
"two weekends ago" is "Two weekends before …", "this weekend" / "this week" are "The weekend of …" / "The week
of …", "next week" is "The week after …" — but "the week before 23 February" stays "The week before 23 February
2023"; a day is "7 May 2023", a month "June 2023", a season "summer 2022",
a year "2022".
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from memlab.benchmarks.locomo.dates import MONTHS, WEEKDAYS, fmt_day, weekend_ending_by
from memlab.core.types import TemporalRef

_NUMBER_WORDS = {2: "Two", 3: "Three", 4: "Four"}
_WEEKS_AGO = re.compile(r"\b(a|one|two|three|four|[1-4])\s+weeks?\s+ago\b")
#: An expression that names its own date ("the week before 23 February", "the week before May 4th").
_OWN_DATE = re.compile(r"\d|\b(?:" + "|".join(MONTHS) + r")\b")
_COUNT = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4}
_SEASON_OF_MONTH = {12: "winter", 1: "winter", 2: "winter", 3: "spring", 4: "spring", 5: "spring"}
_SEASON_OF_MONTH.update({6: "summer", 7: "summer", 8: "summer"})


def season_name(d: date) -> str:
    """Meteorological (northern) season of ``d``."""
    return _SEASON_OF_MONTH.get(d.month, "autumn")


def fmt_month(d: date) -> str:
    """``June 2023``."""
    return f"{MONTHS[d.month - 1].capitalize()} {d.year}"


def _weekday(low: str, start: date, x: date) -> str | None:
    for i, name in enumerate(WEEKDAYS):
        pattern = rf"\b{name[:3]}(?:{name[3:]})?\b"
        if re.search(pattern, low) and start < x and start == x - timedelta(days=(x.weekday() - i) % 7 or 7):
            return f"The {name.capitalize()} before {fmt_day(x)}"
    return None


def _weekend(start: date, end: date, x: date) -> str:
    sat = start if start.weekday() == 5 else start + timedelta(days=1)
    monday = x - timedelta(days=x.weekday())
    if monday <= sat < monday + timedelta(days=7):
        return f"The weekend of {fmt_day(x)}"
    if end <= x:
        last = weekend_ending_by(x)
        for n in range(1, 5):
            if last - timedelta(days=7 * (n - 1)) == sat:
                word = "The weekend" if n == 1 else f"{_NUMBER_WORDS[n]} weekends"
                return f"{word} before {fmt_day(x)}"
        return f"The weekend of {fmt_day(sat)}"
    return f"The weekend after {fmt_day(x)}"


def _week(start: date, end: date, x: date, own_date: bool) -> str:
    if own_date and end <= x and (end - start).days == 7:  # "the week before 23 February": its own anchor
        return f"The week before {fmt_day(end)}"
    if end <= x:
        n = (x - end).days // 7 + 1
        if n == 1:
            return f"The week before {fmt_day(x)}"
        if n in _NUMBER_WORDS:
            return f"{_NUMBER_WORDS[n]} weeks before {fmt_day(x)}"
        return f"The week of {fmt_day(start)}"
    return f"The week after {fmt_day(x)}" if start > x else f"The week of {fmt_day(x)}"


def render(ref: TemporalRef, anchor: datetime) -> str:
    """Render a resolved expression in LoCoMo's answer style, relative to ``anchor`` where LoCoMo is."""
    start, end, x = ref.start.date(), ref.end.date(), anchor.date()
    days = (end - start).days
    low = ref.text.lower()
    if days <= 1:
        weeks = _WEEKS_AGO.search(low)
        if weeks and start < x:  # "two weeks ago" = "Two weeks before X", as LoCoMo writes it
            n = _COUNT.get(weeks.group(1)) or int(weeks.group(1))
            return f"The week before {fmt_day(x)}" if n == 1 else f"{_NUMBER_WORDS[n]} weeks before {fmt_day(x)}"
        return _weekday(low, start, x) or fmt_day(start)
    if days <= 3 and start.weekday() in (4, 5) and "weekend" in low:
        return _weekend(start, end, x)
    if days <= 9:
        return _week(start, end, x, bool(_OWN_DATE.search(low)))
    if ref.grain == "season" or 80 <= days <= 95:
        return f"{season_name(start)} {start.year}"
    if days <= 31:
        return fmt_month(start)
    if days <= 366:
        return str(start.year)
    return f"{start.year // 10 * 10}s"


def at_grain(text: str, start: date, grain: str | None) -> str:
    """``text``, or the year / month of ``start`` when the question asks for that grain."""
    if grain == "year":
        return str(start.year)
    if grain == "month":
        return fmt_month(start)
    return text
