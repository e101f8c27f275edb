"""Rules for expressions relative to the anchor: today, yesterday, N units ago, last/this/next week, weekdays."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from memlab.text.temporal import calendar as cal
from memlab.text.temporal.hits import Ctx, Hit, Rule
from memlab.text.temporal.lexicon import NUM, UNIT, VAGUE_NUMBERS, WEEKDAY, number, unit, weekday

_F = re.IGNORECASE

#: grain of "N <unit> ago / from now" (one step finer than the unit, as Duckling does, except days -> day)
SHIFT_GRAIN = {
    "second": "second", "minute": "second", "hour": "minute", "day": "day", "week": "day", "fortnight": "day",
    "month": "day", "quarter": "day", "year": "month", "decade": "year",
}  # fmt: skip
PERIOD_WORDS = {"week": "week", "wk": "week", "month": "month", "year": "year", "yr": "year", "quarter": "quarter"}
PERIOD_WORDS |= {"qtr": "quarter", "weekend": "weekend", "week-end": "weekend", "week end": "weekend"}
PERIOD_WORDS |= {"wkend": "weekend", "decade": "decade"}
PAST_WORDS = {"last", "past", "previous", "this past", "prior"}
NEXT_WORDS = {"next", "coming", "upcoming", "following", "the following", "the coming", "the next"}


def _day(ctx: Ctx, days: int = 0) -> tuple[datetime, datetime]:
    start = cal.day_start(ctx.anchor) + timedelta(days=days)
    return start, start + timedelta(days=1)


def _hit(m: re.Match[str], start: datetime, end: datetime, grain: str, conf: float = 1.0, **kw: object) -> Hit:
    return Hit(m.span(), start, end, grain, conf, **kw)  # type: ignore[arg-type]


def _units(n: int, u: str) -> tuple[int, str]:
    return (2 * n, "week") if u == "fortnight" else (n, u)


def weekend(week_start: datetime) -> tuple[datetime, datetime]:
    """Saturday 00:00 to Monday 00:00 of the ISO week starting ``week_start``."""
    return week_start + timedelta(days=5), week_start + timedelta(days=7)


def period(ctx: Ctx, what: str, offset: int) -> tuple[datetime, datetime, str]:
    """The ``what`` (week, month, year, quarter, weekend, decade) ``offset`` periods from the anchor's."""
    if what == "weekend":
        ws = cal.floor(ctx.anchor, "week") + timedelta(weeks=offset)
        return *weekend(ws), "day"
    start = cal.shift(cal.floor(ctx.anchor, what), offset, what)
    return start, cal.shift(start, 1, what), what


def _now(m: re.Match[str], ctx: Ctx) -> Hit:
    """``now`` = the anchor's second; a bare ``now`` is mostly a discourse word in conversation (0.3)."""
    t = cal.floor(ctx.anchor, "second")
    return _hit(m, t, t + timedelta(seconds=1), "second", 0.3 if m.group(0).lower() == "now" else 0.6)


def _named_day(offset: int, conf: float = 1.0) -> Callable[[re.Match[str], Ctx], Hit]:
    return lambda m, ctx: _hit(m, *_day(ctx, offset), "day", conf)


def _tonight(m: re.Match[str], ctx: Ctx) -> Hit:
    d = cal.day_start(ctx.anchor)
    start = d + timedelta(hours=21 if m.group(1) else 18)
    return _hit(
        m, start, d + timedelta(days=1), "hour", role="tod", data={"pod": (21 if m.group(1) else 18, 24), "pm": True}
    )


def _last_night(m: re.Match[str], ctx: Ctx) -> Hit:
    d = cal.day_start(ctx.anchor)
    return _hit(m, d - timedelta(hours=3 if m.group(1) else 6), d, "hour")


def _ago(m: re.Match[str], ctx: Ctx) -> Hit | None:
    n, u = _units(number(m.group(1)) or 0, unit(m.group(2)))
    sign = -1 if m.group(3).lower() in ("ago", "back", "earlier", "before") else 1
    t = cal.shift(ctx.anchor, sign * n, u)
    grain = SHIFT_GRAIN[u]
    start, end = cal.interval(t, grain)
    conf = 0.5 if m.group(1).lower() in VAGUE_NUMBERS else 0.9
    return _hit(m, start, end, grain, conf)


def _in_units(m: re.Match[str], ctx: Ctx) -> Hit | None:
    n, u = _units(number(m.group(1)) or 0, unit(m.group(2)))
    t = cal.shift(ctx.anchor, n, u)
    grain = SHIFT_GRAIN[u]
    return _hit(m, *cal.interval(t, grain), grain, 0.5 if m.group(1).lower() in VAGUE_NUMBERS else 0.9)


def _period(m: re.Match[str], ctx: Ctx) -> Hit | None:
    mod = " ".join(m.group(1).lower().split())
    what = PERIOD_WORDS[" ".join(m.group(2).lower().split())]
    offset = -1 if mod in PAST_WORDS else 1 if mod in NEXT_WORDS else 0
    start, end, grain = period(ctx, what, offset)
    return _hit(m, start, end, grain, 0.9)


def _n_periods(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``last 2 weeks`` = the two whole weeks before this one; ``next 3 days`` = the three days after today."""
    mod = m.group(1).lower().split()[-1]
    n, u = _units(number(m.group(2)) or 0, unit(m.group(3)))
    if n <= 0:
        return None
    grain = u if u != "decade" else "year"
    cur = cal.floor(ctx.anchor, grain)
    if mod in ("last", "past", "previous"):
        return _hit(m, cal.shift(cur, -n, grain), cur, grain, 0.9)
    start = cal.shift(cur, 1, grain)
    return _hit(m, start, cal.shift(start, n, grain), grain, 0.9)


def _upcoming_n(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """Duckling's ``upcoming two weeks`` = the week two weeks from this one."""
    n, u = _units(number(m.group(1) or m.group(2)) or 0, unit(m.group(3)))
    start = cal.shift(cal.floor(ctx.anchor, u), n, u)
    return _hit(m, start, cal.shift(start, 1, u), u, 0.7)


def _earlier_later(m: re.Match[str], ctx: Ctx) -> Hit | None:
    when, what = m.group(1).lower(), m.group(2).lower()
    if what == "today":
        d0, d1 = _day(ctx)
    else:
        d0, d1, _ = period(ctx, PERIOD_WORDS[what], 0)
    day = cal.day_start(ctx.anchor)
    if when == "earlier":
        return _hit(m, d0, max(day, d0 + timedelta(days=1)) if what != "today" else ctx.anchor, "day", 0.7)
    return _hit(m, min(day + timedelta(days=1), d1 - timedelta(days=1)) if what != "today" else ctx.anchor, d1,
                "day", 0.7)  # fmt: skip


def _vague(start_days: int, end_days: int, grain: str, conf: float) -> Callable[[re.Match[str], Ctx], Hit]:
    def handler(m: re.Match[str], ctx: Ctx) -> Hit:
        d = cal.day_start(ctx.anchor)
        return _hit(m, d + timedelta(days=start_days), d + timedelta(days=end_days), grain, conf)

    return handler


def resolve_weekday(ctx: Ctx, wd: int, mod: str, post: str, span: tuple[int, int] = (0, 0)) -> tuple[datetime, float]:
    """The day start of weekday ``wd`` under modifier ``mod`` (before) and ``post`` (after the name).

    last X = most recent X strictly before the anchor's day; next X = X of the next ISO week;
    X after next = X of the week after next; X of this/next/last week = X of that ISO week; coming X = the
    first X strictly after the anchor's day. ``this X``, ``on X`` and a bare X follow the direction the text
    leans at ``span`` (:mod:`memlab.text.temporal.tense`): with a cue, the X within the six days before
    (past) or after (future) the anchor's day, or the nearer of the two (present), the anchor's own day
    included (``said Friday`` in an article dated Friday is that Friday); without a cue the ``prefer`` default,
    strictly after (future) or before (past) the anchor's day, or the nearer X (nearest).
    """
    day = cal.day_start(ctx.anchor)
    week = day - timedelta(days=day.weekday())
    if post in ("after next",):
        return week + timedelta(weeks=2, days=wd), 0.9
    if post in ("of next week", "next week"):
        return week + timedelta(weeks=1, days=wd), 1.0
    if post in ("of this week", "this week"):
        return week + timedelta(days=wd), 1.0
    if post in ("of last week", "last week", "from last week", "before last"):
        extra = 1 if post == "before last" else 0
        if post == "before last":
            back = (day.weekday() - wd) % 7 or 7
            return day - timedelta(days=back + 7 * extra), 0.9
        return week - timedelta(weeks=1) + timedelta(days=wd), 1.0
    if mod in ("last", "past", "previous", "this past"):
        return day - timedelta(days=(day.weekday() - wd) % 7 or 7), 1.0
    if mod in ("next",):
        return week + timedelta(weeks=1, days=wd), 0.8
    if mod in ("coming", "upcoming"):
        return day + timedelta(days=(wd - day.weekday()) % 7 or 7), 0.8
    lean = ctx.lean(span)
    back, ahead = (day.weekday() - wd) % 7, (wd - day.weekday()) % 7
    if not lean.cued and lean.direction != "nearest":
        back, ahead = back or 7, ahead or 7
    if lean.direction == "future" or (lean.direction == "nearest" and ahead < back):
        return day + timedelta(days=ahead), 0.8
    return day - timedelta(days=back), 0.8


_ABBREV_AMBIGUOUS = {"sat", "sun", "wed", "mon"}


def _weekday(m: re.Match[str], ctx: Ctx) -> Hit | None:
    mod = " ".join((m.group(1) or "").lower().split())
    name = m.group(2)
    post = " ".join((m.group(3) or "").lower().split())
    # "sun", "sat", "wed", "mon" are words too: alone they need a dot or comma (``Sat.``, ``Sun, Feb 10``)
    bare = not mod and not post
    if name.lower() in _ABBREV_AMBIGUOUS and bare and ctx.text[m.end(2) : m.end(2) + 1] not in (".", ","):
        return None
    start, conf = resolve_weekday(ctx, weekday(name), mod if mod != "on" else "", post, m.span())
    span = m.span()
    if not post and len(name) > 5 and ctx.text[span[1] - 1] == ".":  # a sentence's full stop, not "Fri."
        span = (span[0], span[1] - 1)
    return Hit(span, start, start + timedelta(days=1), "day", conf, role="wday")


def _last_weeks_weekday(m: re.Match[str], ctx: Ctx) -> Hit:
    start, _ = resolve_weekday(ctx, weekday(m.group(1)), "", "last week")
    return _hit(m, start, start + timedelta(days=1), "day")


def _n_weekdays(m: re.Match[str], ctx: Ctx) -> Hit | None:
    n = number(m.group(1)) or 0
    wd = weekday(m.group(2))
    day = cal.day_start(ctx.anchor)
    if m.group(3).lower() == "from now":
        start = day + timedelta(days=((wd - day.weekday()) % 7 or 7) + 7 * (n - 1))
    else:
        start = day - timedelta(days=((day.weekday() - wd) % 7 or 7) + 7 * (n - 1))
    return _hit(m, start, start + timedelta(days=1), "day", 0.9)


def _before_last(m: re.Match[str], ctx: Ctx) -> Hit:
    """``the week before last`` = two weeks back; ``the month after next`` = two months on."""
    what = PERIOD_WORDS[re.sub(r"\s+", " ", m.group(1).lower())]
    start, end, grain = period(ctx, what, -2 if m.group(2).lower() == "before last" else 2)
    return _hit(m, start, end, grain, 0.9)


def _weekends_ago(m: re.Match[str], ctx: Ctx) -> Hit | None:
    n = number(m.group(1)) or 0
    sign = -1 if m.group(2).lower() in ("ago", "back", "earlier") else 1
    start, end, grain = period(ctx, "weekend", sign * n)
    return _hit(m, start, end, grain, 0.9)


def _the_weekend(m: re.Match[str], ctx: Ctx) -> Hit:
    """``over the weekend``: the weekend in progress or just past (past tense), else this week's."""
    wd = cal.day_start(ctx.anchor).weekday()
    offset = -1 if ctx.lean(m.span()).direction == "past" and wd < 5 else 0
    start, end, grain = period(ctx, "weekend", offset)
    return _hit(m, start, end, grain, 0.7)


def _rel(m: re.Match[str], ctx: Ctx) -> Hit:
    """``the day before`` / ``a week after`` / ``two days later``: waits for a reference (else the anchor)."""
    n = number(m.group(1)) if m.group(1) else 1
    what = m.group(2).lower()
    sign = -1 if m.group(3).lower() in ("before", "prior to", "earlier") else 1
    start, end = _day(ctx)
    return _hit(m, start, end, "day", 0.4, role="rel", data={"n": n or 1, "what": what, "sign": sign})


_MOD_PERIOD = r"(last|past|previous|this past|this|current|next|coming|upcoming|the following|following|the coming)"
_PERIOD = r"(week[\s-]?end|wkend|week|wk|month|year|yr|quarter|qtr|decade)"
_NUM_PERIOD_MOD = r"((?:over\s+)?(?:the\s+)?(?:last|past|previous|next|coming))"

RULES: list[Rule] = [
    (re.compile(r"\b(?:right now|just now|at the moment|now)\b", _F), _now),
    (re.compile(r"\b(?:today|at this time)\b", _F), _named_day(0)),
    (re.compile(r"\byesterday\b", _F), _named_day(-1)),
    (re.compile(r"\btomorrows?\b", _F), _named_day(1)),
    (re.compile(r"\b(?:the\s+)?day\s+before\s+yesterday\b", _F), _named_day(-2)),
    (re.compile(r"\b(?:the\s+)?day\s+after\s+tomorrow\b", _F), _named_day(2)),
    (re.compile(r"\b(late\s+)?(?:tonight|tonite)\b", _F), _tonight),
    (re.compile(r"\b(late\s+)?last\s+night\b", _F), _last_night),
    (re.compile(rf"\b({NUM})\s+{UNIT.replace('(?:', '(', 1)}\s+(ago|back|earlier|from now|hence|later)\b", _F), _ago),
    (
        re.compile(rf"\bin\s+(?:about\s+)?({NUM})\s+(?:more\s+)?({UNIT[3:-3]})s?\b", _F),
        _in_units,
        re.compile(rf"\bin\s+(?:about\s+)?(?:\S+\s+){{1,3}}(?:more\s+)?{UNIT[:-2]}"),
    ),
    (re.compile(rf"\b{_MOD_PERIOD}\s+{_PERIOD}\b", _F), _period),
    (re.compile(rf"\b{_NUM_PERIOD_MOD}\s+({NUM})\s+({UNIT[3:-3]})s?\b", _F), _n_periods),
    (re.compile(rf"\b(?:upcoming\s+({NUM})|({NUM})\s+upcoming)\s+({UNIT[3:-3]})s?\b", _F), _upcoming_n),
    (re.compile(r"\b(earlier|later)\s+(?:this\s+)?(week|month|year|today)\b", _F), _earlier_later),
    (re.compile(r"\bthe\s+other\s+day\b", _F), _vague(-7, 0, "week", 0.4)),
    (re.compile(r"\b(?:recently|lately)\b", _F), _vague(-30, 1, "month", 0.2)),
    (
        re.compile(
            rf"\b(?:(last|past|previous|this past|this|next|coming|upcoming|on)\s+)?({WEEKDAY})(?:s\b|\.|\b)"
            r"(?:\s+(after next|before last|of next week|next week|of this week|this week|of last week|"
            r"from last week|last week))?",
            _F,
        ),
        _weekday,
    ),
    (re.compile(rf"\blast\s+week'?s\s+({WEEKDAY})\b", _F), _last_weeks_weekday),
    (re.compile(r"\b(?:over|during|on|at)\s+the\s+week[\s-]?end\b", _F), _the_weekend),
    (re.compile(r"\b(?:the\s+)?(week[\s-]?end|week|month|year)\s+(before last|after next)\b", _F), _before_last),
    (re.compile(rf"\b({NUM})\s+week[\s-]?ends?\s+(ago|back|earlier|from now|later)\b", _F), _weekends_ago),
    (re.compile(rf"\b({NUM})\s+({WEEKDAY})s\s+(from now|ago|back)\b", _F), _n_weekdays),
    (
        re.compile(
            rf"\b(?:the\s+)?(?:({NUM})\s+)?(day|night|week[\s-]?end|week|month|year)s?\s+"
            r"(before|after|prior to|earlier|later)\b",
            _F,
        ),
        _rel,
        re.compile(r"(?:day|night|end|week|month|year)s?\s+(?:before|after|prior|earlier|later)"),
    ),
]
