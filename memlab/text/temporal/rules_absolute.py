"""Rules for calendar expressions: explicit dates, months (with or without a year), years, decades, seasons,
quarters and ordinal days (``on the 5th``). Parts and ranges of periods live in :mod:`.rules_periods`.
"""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta

from memlab.text.temporal import calendar as cal
from memlab.text.temporal.hits import Ctx, Hit, Rule
from memlab.text.temporal.lexicon import MONTH, ORD_DAY, WEEKDAY, YEAR, month, ordinal, weekday, year2
from memlab.text.temporal.occurrence import pick
from memlab.text.temporal.rules_relative import PAST_WORDS

_F = re.IGNORECASE
_FULL_MONTHS_SAFE = {"january", "february", "april", "june", "july", "september", "october", "november", "december"}


def _date(y: int, mo: int, d: int, like: datetime) -> datetime:
    return like.replace(year=y, month=mo, day=d, hour=0, minute=0, second=0, microsecond=0)


def _day_hit(m: re.Match[str], start: datetime, conf: float = 1.0, data: object = None) -> Hit:
    return Hit(m.span(), start, start + timedelta(days=1), "day", conf, data=data)


def _year_of(text: str | None, ctx: Ctx) -> int | None:
    if not text:
        return None
    t = text.strip("' ")
    return year2(int(t), ctx.anchor.year) if len(t) == 2 else int(t)


def _pick_year(ctx: Ctx, mo: int, d: int | None, span: tuple[int, int]) -> int:
    """Year for a month (and day) written without one: the occurrence the text leans to
    (:func:`memlab.text.temporal.occurrence.pick`) among last year's, this year's and next year's.
    """
    a = ctx.anchor
    cands = []
    for y in (a.year - 1, a.year, a.year + 1):
        try:
            start = _date(y, mo, d or 1, a)
        except ValueError:  # 29 February outside a leap year
            continue
        cands.append((start, start + timedelta(days=1) if d else cal.add_months(start, 1)))
    got = pick(cands, a, ctx.lean(span))
    return got[0].year if got else a.year


def _mdy(m: re.Match[str], ctx: Ctx) -> Hit | None:
    a, b, y = int(m.group(1)), int(m.group(3)), _year_of(m.group(4), ctx)
    mo, d = (a, b) if a <= 12 else (b, a)
    return _day_hit(m, _date(y or 0, mo, d, ctx.anchor))


def _md(m: re.Match[str], ctx: Ctx) -> Hit | None:
    mo, d = int(m.group(1)), int(m.group(2))
    return _day_hit(m, _date(_pick_year(ctx, mo, d, m.span()), mo, d, ctx.anchor), 0.6)


def _iso(m: re.Match[str], ctx: Ctx) -> Hit | None:
    start = _date(int(m.group(1)), int(m.group(2)), int(m.group(3)), ctx.anchor)
    if m.group(4):
        start = start.replace(hour=int(m.group(4)), minute=int(m.group(5)))
        if m.group(6):
            start = start.replace(second=int(m.group(6)))
            return Hit(m.span(), start, start + timedelta(seconds=1), "second")
        return Hit(m.span(), start, start + timedelta(minutes=1), "minute")
    return _day_hit(m, start)


def _year_month(m: re.Match[str], ctx: Ctx) -> Hit | None:
    y, mo = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(4)), int(m.group(3)))
    start = _date(y, mo, 1, ctx.anchor)
    return Hit(m.span(), start, cal.add_months(start, 1), "month")


def _upper(m: re.Match[str], group: int, ctx: Ctx) -> bool:
    """Whether the group starts with a capital letter in the original text (rules match lowercased text)."""
    return ctx.text[m.start(group)].isupper()


def _ambiguous_may(m: re.Match[str], group: int, day_group: int, ctx: Ctx) -> bool:
    """A lowercase ``may`` / ``mar`` next to a bare number is a verb, not a month."""
    word, day = m.group(group), m.group(day_group) or ""
    return word.lower() in ("may", "mar") and not _upper(m, group, ctx) and day.isdigit()


def _weekday_year(ctx: Ctx, wd_name: str | None, mo: int, d: int, y: int) -> int:
    """With a weekday written beside a day without a year, the nearest year where they agree."""
    if not wd_name:
        return y
    wd = weekday(wd_name)
    for cand in (y, y - 1, y + 1, y - 2, y + 2):
        try:
            if _date(cand, mo, d, ctx.anchor).weekday() == wd:
                return cand
        except ValueError:
            continue
    return y


def _month_day(m: re.Match[str], ctx: Ctx) -> Hit | None:
    if _ambiguous_may(m, 2, 3, ctx):
        return None
    mo, d = month(m.group(2)), ordinal(m.group(3))
    if d is None:
        return None
    y = _year_of(m.group(4), ctx) or _weekday_year(ctx, m.group(1), mo, d, _pick_year(ctx, mo, d, m.span()))
    return _day_hit(
        m, _date(y, mo, d, ctx.anchor), 1.0 if m.group(4) else 0.9, None if m.group(4) else {"noyear": (mo, d)}
    )


def _day_month(m: re.Match[str], ctx: Ctx) -> Hit | None:
    if _ambiguous_may(m, 2, 1, ctx):
        return None
    d, mo = ordinal(m.group(1)), month(m.group(2))
    if d is None:
        return None
    y = _year_of(m.group(3), ctx) or _pick_year(ctx, mo, d, m.span())
    return _day_hit(
        m, _date(y, mo, d, ctx.anchor), 1.0 if m.group(3) else 0.9, None if m.group(3) else {"noyear": (mo, d)}
    )


def _month_year(m: re.Match[str], ctx: Ctx) -> Hit | None:
    start = _date(int(m.group(2)), month(m.group(1)), 1, ctx.anchor)
    return Hit(m.span(), start, cal.add_months(start, 1), "month")


def _month(m: re.Match[str], ctx: Ctx) -> Hit | None:
    mod = " ".join((m.group(1) or "").lower().split())
    word = m.group(2)
    post = (m.group(3) or "").lower()
    if not mod and not post:
        lw = word.lower().rstrip(".")
        if lw not in _FULL_MONTHS_SAFE and not (_upper(m, 2, ctx) and lw not in ("may", "mar")):
            return None
    elif word.lower() == "may" and mod in ("", "this") and not _upper(m, 2, ctx):
        return None
    mo = month(word)
    a = ctx.anchor
    if mod in PAST_WORDS:
        y = a.year if mo < a.month else a.year - 1
    elif mod in ("next", "coming", "upcoming"):
        y = a.year if mo > a.month else a.year + 1
    elif mod == "this":
        y = a.year
    else:
        y = _pick_year(ctx, mo, None, m.span())
    if post == "after next":
        y += 1
    start = _date(y, mo, 1, a)
    free = mod not in PAST_WORDS | {"next", "coming", "upcoming", "this"} and not post
    data = {"relocate": ("months", mo, 1)} if free else None
    return Hit(m.span(), start, cal.add_months(start, 1), "month", 0.9 if mod else 0.8, data=data)


def _season(m: re.Match[str], ctx: Ctx) -> Hit | None:
    mod = " ".join((m.group(1) or "").lower().split())
    name = m.group(2).lower()
    if name == "fall" and not mod and not m.group(3):
        return None
    a = ctx.anchor
    if m.group(3):
        start, end = cal.season_interval(name, int(m.group(3)), a)
        return Hit(m.span(), start, end, "season")
    cur_start = cal.floor(a, "season")
    # the occurrence of this season that overlaps the anchor's year (winter: the one containing or starting it)
    y = a.year - 1 if name == "winter" and a.month < 3 else a.year
    start, end = cal.season_interval(name, y, a)
    if mod in ("last", "past", "previous"):
        if start >= cur_start:
            start, end = cal.season_interval(name, y - 1, a)
    elif mod in ("next", "coming", "upcoming"):
        if start <= cur_start:
            start, end = cal.season_interval(name, y + 1, a)
    elif mod not in ("this", "current"):
        cands = [cal.season_interval(name, yy, a) for yy in (y - 1, y, y + 1)]
        start, end = pick(cands, a, ctx.lean(m.span())) or (start, end)
    return Hit(m.span(), start, end, "season", 0.8)


def _dom(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``on the 5th`` / ``the 5th`` / ``on the first.`` (an ordinal word only when nothing follows it)."""
    d = ordinal(m.group(1) or m.group(2))
    if not d or d > 31:
        return None
    a = ctx.anchor
    first = cal.day_start(a).replace(day=1)
    cands = []
    for k in (-1, 0, 1):
        month_start = cal.add_months(first, k)
        if d <= calendar.monthrange(month_start.year, month_start.month)[1]:
            cands.append((month_start.replace(day=d), month_start.replace(day=d) + timedelta(days=1)))
    got = pick(cands, a, ctx.lean(m.span()))
    if got is None:
        return None
    start = got[0]
    return Hit(m.span(), start, start + timedelta(days=1), "day", 0.8, role="dom", data={"day": d})


def _dom_of_month(m: re.Match[str], ctx: Ctx) -> Hit | None:
    d = ordinal(m.group(1))
    mod = m.group(2).lower()
    offset = -1 if mod in ("previous", "last") else 1 if mod in ("next", "following") else 0
    start = cal.add_months(cal.floor(ctx.anchor, "month"), offset).replace(day=d or 0)
    return Hit(m.span(), start, start + timedelta(days=1), "day")


_YR = rf"({YEAR}|'\d\d)"
RULES: list[Rule] = [
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt\s](\d{2}):(\d{2})(?::(\d{2}))?)?\b"), _iso),
    (re.compile(r"\b(\d{1,2})\s*([/.-])\s*(\d{1,2})\s*\2\s*(\d{4}|\d{2})\b"), _mdy, re.compile(r"\d\s*[/.-]\s*\d")),
    (
        re.compile(
            r"(?<![\d/])(?<!\ban\s)(?<!\ba\s)\b(\d{1,2})\s?/\s?(\d{1,2})\b"
            r"(?!\s*(?:h\b|hours?\b|of\b|stars?\b|points?\b|rating|score)|/|\d|%|\.\d)"
        ),
        _md,
    ),
    (re.compile(r"\b(?:(\d{4})[/-](\d{1,2})|(\d{1,2})/(\d{4}))\b(?![/-]\d)"), _year_month, re.compile(r"\d[/-]\d")),
    (
        re.compile(rf"\b(?:({WEEKDAY}),?\s+)?({MONTH})\s*(?:the\s+)?({ORD_DAY})\b(?:,?\s+{_YR}\b)?", _F),
        _month_day,
    ),
    (
        re.compile(rf"\b(?:the\s+)?({ORD_DAY})\s*(?:day\s+)?(?:of\s+|-|/)?\s*({MONTH})(?:[\s,/-]+{_YR}\b)?", _F),
        _day_month,
    ),
    (re.compile(rf"\b({MONTH})\s*,?\s*(?:of\s+)?({YEAR})\b", _F), _month_year, re.compile(r"[12]\d{3}")),
    (
        re.compile(
            rf"\b(?:(in|during|of|since|until|by|from|last|past|previous|this past|next|coming|upcoming|this)\s+)?"
            rf"({MONTH})(?!\w|'(?!s\b))(?!\.?\s*\d)(?:\s+(after next))?",
            _F,
        ),
        _month,
    ),
    (
        re.compile(
            r"\b(?:(last|this|next|current|past|previous|coming|upcoming|in the|in|during the|during|the)\s+)?"
            rf"(spring|summer|autumn|fall|winter)\b(?:\s+(?:of\s+)?({YEAR})\b)?",
            _F,
        ),
        _season,
    ),
    (
        re.compile(
            r"\b(?:on\s+the\s+|the\s+|on\s+)((?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th))\b(?!\s+(?:time|one|place))|"
            r"\bon\s+the\s+(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b(?=\s*(?:[.,;!?]|$))",
            _F,
        ),
        _dom,
        re.compile(r"\b(?:the|on)\s+(?:\d|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)"),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?({ORD_DAY})\s+(?:day\s+)?of\s+(?:the\s+)?(next|this|current|previous|last|following)\s+month\b",
            _F,
        ),
        _dom_of_month,
    ),
]
