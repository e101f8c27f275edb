"""Rules for parts and ranges of periods: ``end of the month``, ``early March``, ``the first week of May``,
``the last Friday of October``, ``by Friday``, ``July 13-15``, ``from the 13th to the 15th of July``.

Markers (``end of``, ``the first week of``, ``by``) are partial hits that :mod:`memlab.text.temporal.combine` joins
with the period that follows them; alone they are dropped.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memlab.text.temporal import calendar as cal
from memlab.text.temporal.hits import Ctx, Hit, Rule
from memlab.text.temporal.lexicon import MONTH, ORD_DAY, WEEKDAY, YEAR, month, ordinal, weekday
from memlab.text.temporal.rules_absolute import _date, _pick_year

_F = re.IGNORECASE


def _range_md(m: re.Match[str], ctx: Ctx) -> Hit | None:
    mo1, d1, d2 = month(m.group(1)), ordinal(m.group(2)), ordinal(m.group(4))
    mo2 = month(m.group(3)) if m.group(3) else mo1
    if not d1 or not d2:
        return None
    y = int(m.group(5)) if m.group(5) else _pick_year(ctx, mo1, d1, m.span())
    start, last = _date(y, mo1, d1, ctx.anchor), _date(y, mo2, d2, ctx.anchor)
    return Hit(m.span(), start, last + timedelta(days=1), "day", 0.9) if start <= last else None


def _range_dm(m: re.Match[str], ctx: Ctx) -> Hit | None:
    d1, d2, mo = ordinal(m.group(1)), ordinal(m.group(2)), month(m.group(3))
    if not d1 or not d2:
        return None
    y = int(m.group(4)) if m.group(4) else _pick_year(ctx, mo, d1, m.span())
    start, last = _date(y, mo, d1, ctx.anchor), _date(y, mo, d2, ctx.anchor)
    return Hit(m.span(), start, last + timedelta(days=1), "day", 0.9) if start <= last else None


_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5}
_NTH |= {"5th": 5, "last": -1}


_NTH_UNIT = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5}
_NTH_UNIT |= {"5th": 5, "last": -1}


def _nth_unit_marker(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``the first week of`` / ``the last day of`` / ``the 2nd last week of``: waits for a month or year."""
    n = _NTH_UNIT.get(m.group(1).lower(), 1) if m.group(1) else 1
    if m.group(2):  # "Nth last": count from the end
        n = -n
    data = {"n": n, "unit": re.sub(r"[\s-]", "", m.group(3).lower()), "bare": not m.group(1) and not m.group(2)}
    return Hit(m.span(), ctx.anchor, ctx.anchor + timedelta(seconds=1), "second", 0.8, role="nthunit",
               needs_merge=True, data=data)  # fmt: skip


def nth_unit_of(start: datetime, end: datetime, n: int, unit: str) -> tuple[datetime, datetime, str] | None:
    """Day, full ISO week (Monday-Sunday inside the period) or weekend (Saturday-Sunday) number ``n`` of a
    period (``n < 0`` counts from the end).
    """
    if unit == "day":
        d = start + timedelta(days=n - 1) if n > 0 else end + timedelta(days=n)
        return (d, d + timedelta(days=1), "day") if start <= d < end else None
    step = timedelta(days=7)
    first = start + timedelta(days=(0 - start.weekday()) % 7 if unit == "week" else (5 - start.weekday()) % 7)
    size = timedelta(days=7 if unit == "week" else 2)
    items = []
    t = first
    while t + size <= end:
        items.append(t)
        t += step
    if not items or abs(n) > len(items) or n == 0:
        return None
    s = items[n - 1] if n > 0 else items[n]
    return s, s + size, "week" if unit == "week" else "day"


def _nth_weekday_marker(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``the first Monday of`` waits for a month (``of March``, ``of last month``)."""
    data = {"nth": _NTH[m.group(1).lower()], "wd": weekday(m.group(2))}
    return Hit(m.span(), ctx.anchor, ctx.anchor + timedelta(seconds=1), "second", 0.9, role="nthwd",
               needs_merge=True, data=data)  # fmt: skip


_PART_WORDS = {"beginning": "begin", "start": "begin", "early": "begin", "mid": "mid", "middle": "mid"}
_PART_WORDS |= {"end": "end", "late": "end"}
_ACRONYMS = {"eom": ("end", "month"), "bom": ("begin", "month"), "eoy": ("end", "year"), "boy": ("begin", "year")}


def part_of(start: datetime, grain: str, part: str) -> tuple[datetime, datetime, str] | None:
    """Duckling's parts: month begin = days 1-10, mid = 11-20, end = 21-last; year begin = Jan-Mar, end =
    Sep-Dec; week begin = Mon-Wed, end = Fri-Sun.
    """
    if grain == "month":
        end = cal.add_months(start, 1)
        bounds = {"begin": (0, 10), "mid": (10, 20), "end": (20, None)}[part]
        s = start + timedelta(days=bounds[0])
        return s, end if bounds[1] is None else start + timedelta(days=bounds[1]), "day"
    if grain == "year":
        if part == "begin":
            return start, cal.add_months(start, 3), "month"
        if part == "end":
            return cal.add_months(start, 8), cal.add_months(start, 12), "month"
        return cal.add_months(start, 4), cal.add_months(start, 8), "month"
    if grain == "week":
        if part == "begin":
            return start, start + timedelta(days=3), "day"
        if part == "end":
            return start + timedelta(days=4), start + timedelta(days=7), "day"
    return None


def _part_marker(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``end of`` / ``early``: waits for a following week, month or year (see :func:`part_of`)."""
    part = _PART_WORDS[(m.group(1) or m.group(2)).lower()]
    return Hit(m.span(), ctx.anchor, ctx.anchor + timedelta(seconds=1), "second", 0.8, role="part",
               needs_merge=True, data={"part": part})  # fmt: skip


def _by_marker(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``by Friday`` / ``by the end of the month``: from the anchor to the end of what follows."""
    return Hit(m.span(), ctx.anchor, ctx.anchor + timedelta(seconds=1), "second", 0.8, role="by", needs_merge=True)


def _part_current(m: re.Match[str], ctx: Ctx) -> Hit | None:
    if m.group(3) and not ctx.text[m.start(3) : m.end(3)].isupper():  # EOM, BOY ... only as capitals
        return None
    if m.group(3):
        part, grain = _ACRONYMS[m.group(3).lower()]
    else:
        part, grain = _PART_WORDS[m.group(1).lower()], m.group(2).lower()
    got = part_of(cal.floor(ctx.anchor, grain), grain, part)
    return None if got is None else Hit(m.span(), got[0], got[1], got[2], 0.8)


#: a day number or ordinal (every ordinal word ends in st, nd, rd or th) before a range word
_RANGE_GATE = re.compile(r"(?:\d|st|nd|rd|th)\s*(?:[-–]|to|thru|through|till|until)")

RULES: list[Rule] = [
    (
        re.compile(
            r"\b(?:at\s+the\s+|the\s+)?(?:(beginning|start|end|middle|early|mid|late)\b(?=\s)|(mid)-(?=\w))", _F
        ),
        _part_marker,
    ),
    (re.compile(r"\bby\b(?=\s)", _F), _by_marker),
    (
        re.compile(
            r"\b(?:the\s+)?(?:(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\s+)?(last\s+)?"
            r"(day|week[\s-]?end|wkend|week)\s+(?=(?:of|in)\s)",
            _F,
        ),
        _nth_unit_marker,
        re.compile(r"\b(?:day|week[\s-]?end|wkend|week)\s+(?:of|in)\s"),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last)\s+({WEEKDAY})\b"
            rf"(?=\s+(?:of|in)\s+(?:the\s+)?(?:{MONTH}|(?:this|next|last|the|previous)\s+month|month)\b)",
            _F,
        ),
        _nth_weekday_marker,
        re.compile(r"(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last)\s+[a-z]+\s+(?:of|in)\s"),
    ),
    (
        re.compile(
            rf"\b(?:from\s+)?({MONTH})\s*(?:the\s+)?({ORD_DAY})\s*(?:-|–|to|thru|through|till|until)\s*"
            rf"(?:({MONTH})\s*)?(?:the\s+)?({ORD_DAY})\b(?:,?\s+({YEAR}))?",
            _F,
        ),
        _range_md,
        _RANGE_GATE,
    ),
    (
        re.compile(
            rf"\b(?:from\s+)?(?:the\s+)?({ORD_DAY})\s*(?:-|–|to|thru|through|till|until)\s*(?:the\s+)?"
            rf"({ORD_DAY})\s+(?:of\s+)?({MONTH})(?:,?\s+({YEAR}))?",
            _F,
        ),
        _range_dm,
        _RANGE_GATE,
    ),
    (
        re.compile(
            r"\b(?:at\s+the\s+|the\s+)?(?:(beginning|start|end|middle)\s+of\s+(?:the\s+)?(month|year|week)|"
            r"(eom|bom|eoy|boy))\b",
            _F,
        ),
        _part_current,
        frozenset({"beginning", "start", "end", "middle", "eom", "bom", "eoy", "boy"}),
    ),
]
