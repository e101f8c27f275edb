"""Choosing among overlapping rule hits and combining neighbours.

Selection: longest span first (ties: a complete date before a partial role, then confidence, then the earlier
start); the chosen hits do not overlap. Combination, left to right, of hits separated only by spaces, commas
or a linking word (at, on, of, the, in the, for):

- a date at day grain + a time of day -> that time on that day (``tomorrow at 5pm``, ``3pm on Saturday``);
- a part of the day + a clock time -> the clock time read in that part (``tonight at 8`` = 20:00);
- a weekday name + an explicit day -> the explicit day (``Monday, Feb 18``);
- an ordinal day + a month -> that day of the month (``the 20th of next month``);
- ``the day/week/weekend/month/year before|after`` + a date -> shifted from that date; without one it
  falls back to the anchor's day (confidence 0.4);
- ``end of`` / ``early`` ... + a week, month or year -> that part of it (:func:`rules_periods.part_of`);
- two dates or two times joined by ``-``, ``to``, ``through``, ``until`` or ``and`` -> the span from the first
  to the end of the second;
- a day or clock time and a length (``4pm for 30 mins``, ``for 10 days from 18th Dec``) -> the span from the
  point to the point + the length (:func:`_for_span`).
"""

from __future__ import annotations

import re
from datetime import timedelta

from memlab.text.temporal import calendar as cal
from memlab.text.temporal.hits import Ctx, Hit
from memlab.text.temporal.rules_holidays import holiday_interval
from memlab.text.temporal.rules_periods import nth_unit_of, part_of

_GAP = re.compile(r"[\s,]*(?:(?:at|on|in the|of the|of|the|for|in|from|between)\b|@)?[\s,]*", re.IGNORECASE)
_RANGE_GAP = re.compile(r"\s*(?:-|–|to|till|until|untill|thru|through|and)\s*", re.IGNORECASE)
_FOR_GAP = re.compile(r"[\s,]*")
_FOR_FROM = re.compile(r"[\s,]*(?:(?:starting|beginning)\s+)?(?:from|on|at)\b[\s,]*", re.IGNORECASE)
_AND = re.compile(r"\s*and\s*", re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s+(?:the\s+)?$", re.IGNORECASE)
_PERIOD_YEAR_GAP = re.compile(r"\s+(?:(?:of|in)\s+(?:the\s+)?)?", re.IGNORECASE)
_YEAR_PERIOD_GAP = re.compile(r"(?:['’]s)?\s+")
_ROLE_RANK = {"nthunit": 4, "nthwd": 0, "date": 0, "wday": 1, "dom": 1, "tod": 2, "rel": 3, "part": 4, "by": 4}


def select(hits: list[Hit]) -> list[Hit]:
    """Non-overlapping hits, longest first (see the module docstring), in text order."""
    order = sorted(hits, key=lambda h: (h.span[0] - h.span[1], _ROLE_RANK.get(h.role, 5), -h.conf, h.span[0]))
    taken: list[Hit] = []
    for h in order:
        if h.span[0] >= h.span[1]:
            continue
        if all(h.span[1] <= t.span[0] or h.span[0] >= t.span[1] for t in taken):
            taken.append(h)
    return sorted(taken, key=lambda h: h.span)


def _on_day(day_hit: Hit, tod: Hit, span: tuple[int, int]) -> Hit:
    day = cal.floor(day_hit.start, "day")
    data = tod.data if isinstance(tod.data, dict) else {}
    ddata = day_hit.data if isinstance(day_hit.data, dict) else {}
    if "pod" in data:
        h0, h1 = data["pod"]
        return Hit(span, day + timedelta(hours=h0), day + timedelta(hours=h1), "hour", min(day_hit.conf, tod.conf),
                   role="date", data={"pod": data["pod"], "pm": data.get("pm", False)})  # fmt: skip
    h, mi, s = data["tod"]
    if ddata.get("pm") and not data.get("known") and h < 12:
        h += 12
    elif ddata.get("pm") and not data.get("known") and h == 12 and ddata.get("pod", (0, 0))[0] >= 18:
        h = 24
    start = day + timedelta(hours=h, minutes=mi, seconds=s)
    return Hit(span, start, start + (tod.end - tod.start), tod.grain, min(day_hit.conf, tod.conf))


def _pod_clock(pod: Hit, clock: Hit, span: tuple[int, int]) -> Hit:
    day = cal.floor(pod.start, "day")
    got = _on_day(Hit(pod.span, day, day + timedelta(days=1), "day", pod.conf, data=pod.data), clock, span)
    return Hit(span, got.start, got.end, got.grain, got.conf, role="tod", data={"tod": None})


def _is_day(h: Hit) -> bool:
    return h.role in ("date", "wday", "dom") and (
        h.grain == "day" or (isinstance(h.data, dict) and "pod" in h.data and h.role == "date")
    )


def _is_pod(h: Hit) -> bool:
    return h.role == "tod" and isinstance(h.data, dict) and "pod" in h.data


def _is_weak(h: Hit) -> bool:
    return h.role == "tod" and isinstance(h.data, dict) and bool(h.data.get("weak"))


def _is_clock(h: Hit) -> bool:
    return h.role == "tod" and isinstance(h.data, dict) and h.data.get("tod") is not None


def _relative(rel: Hit, ref_start, ref_end, span: tuple[int, int], conf: float) -> Hit | None:  # type: ignore[no-untyped-def]
    d = rel.data if isinstance(rel.data, dict) else {}
    n, what, sign = d["n"], d["what"].replace("-", "").replace(" ", ""), d["sign"]
    day0 = cal.floor(ref_start, "day")
    day1 = cal.floor(ref_end - timedelta(microseconds=1), "day") + timedelta(days=1)
    if what in ("day", "night"):
        start = day0 - timedelta(days=n) if sign < 0 else day1 + timedelta(days=n - 1)
        return Hit(span, start, start + timedelta(days=1), "day", conf)
    if what == "week":
        start = day0 - timedelta(weeks=n) if sign < 0 else day1 + timedelta(weeks=n - 1)
        return Hit(span, start, start + timedelta(weeks=1), "week", conf)
    if what == "weekend":
        if sign < 0:
            end = day0 - timedelta(days=day0.weekday(), weeks=n - 1)
            return Hit(span, end - timedelta(days=2), end, "day", conf)
        last = day1 - timedelta(days=1)
        sat = last + timedelta(days=(5 - last.weekday()) % 7 or 7, weeks=n - 1)
        return Hit(span, sat, sat + timedelta(days=2), "day", conf)
    grain = what
    start = cal.shift(cal.floor(ref_start, grain), -n if sign < 0 else n, grain)
    return Hit(span, start, cal.shift(start, 1, grain), grain, conf)


def _zone_of(b: Hit, a: Hit) -> Hit:
    """``a`` in ``b``'s timezone when only ``b`` names one (``9h30 - 11h00 CST``: both ends are CST)."""
    bd, ad = b.data if isinstance(b.data, dict) else {}, a.data if isinstance(a.data, dict) else {}
    if bd.get("tz_shift") is None or ad.get("tz_shift") is not None or ad.get("tod") is None:
        return a
    shift = timedelta(minutes=bd["tz_shift"])
    grain = "minute" if a.grain == "hour" else a.grain
    step = timedelta(minutes=1) if grain == "minute" else a.end - a.start
    return Hit(a.span, a.start + shift, a.start + shift + step, grain, a.conf, role=a.role,
               data=ad | {"tz_shift": bd["tz_shift"]})  # fmt: skip


def _range(a: Hit, b: Hit, gap: str, text: str) -> Hit | None:
    if a.kind == "duration" or b.kind == "duration":  # a length only joins a point through _for_span
        return None
    span = (a.span[0], b.span[1])
    plain = not (_is_pod(a) or _is_pod(b) or _is_weak(a) or _is_weak(b))
    if _AND.fullmatch(gap) and not _BETWEEN.search(text, max(0, a.span[0] - 12), a.span[0]):
        return None  # "in 1982 and 1992" lists two years; "between 1982 and 1992" is a range
    if _RANGE_GAP.fullmatch(gap) and a.role == b.role and a.role in ("date", "tod") and plain and a.start < b.end:
        if a.role == "tod":
            a = _zone_of(b, a)
            fine = min(a.end - a.start, b.end - b.start)
            grain = a.grain if a.end - a.start == fine else b.grain
            return Hit(span, a.start, b.start + fine, grain, min(a.conf, b.conf), role="tod", data=a.data)
        if a.grain == b.grain:
            return Hit(span, a.start, b.end, a.grain, min(a.conf, b.conf), role="date", data=a.data)
    return None


def _relocator(h: Hit):  # type: ignore[no-untyped-def]
    """``year -> (start, end)`` for a period written without a year: ``data["relocate"]`` is ``("months",
    first month, number of months)`` (a month, quarter, half), ``("holiday", name, extent)``, or a month-day's
    ``data["noyear"] = (month, day)``.
    """
    d = h.data if isinstance(h.data, dict) else {}
    spec = d.get("relocate")
    like = cal.day_start(h.start)
    if spec and spec[0] == "months":
        _, first, n = spec
        return lambda y: (
            like.replace(year=y, month=first, day=1),
            cal.add_months(like.replace(year=y, month=first, day=1), n),
        )
    if spec and spec[0] == "holiday":
        return lambda y: (lambda got: None if got is None else got[:2])(holiday_interval(spec[1], y, spec[2], like))
    if d.get("noyear"):
        mo, day = d["noyear"]
        return lambda y: (
            like.replace(year=y, month=mo, day=day),
            like.replace(year=y, month=mo, day=day) + timedelta(days=1),
        )
    return None


def _year_of(h: Hit) -> int | None:
    """The year a whole-year hit stands for (``1989``, ``last year``, ``fiscal 1990``), else None."""
    if h.role != "date" or h.grain != "year" or (h.start.month, h.start.day, h.start.hour) != (1, 1, 0):
        return None
    return h.start.year if cal.shift(h.start, 1, "year") == h.end else None


def _in_year(a: Hit, b: Hit, gap: str, text: str) -> Hit | None:
    """``February this year``, ``the first quarter of next year``, ``the 1988 third quarter``, ``1990's first
    half``: the period without a year moved into the year beside it.
    """
    if a.kind == "duration" or b.kind == "duration":
        return None
    if _PERIOD_YEAR_GAP.fullmatch(gap) and _relocator(a) and _year_of(b) is not None:
        period, year = a, b
    elif _YEAR_PERIOD_GAP.fullmatch(gap) and _relocator(b) and _year_of(a) is not None:
        period, year = b, a
    else:
        return None
    try:
        got = _relocator(period)(_year_of(year))
    except ValueError:
        return None
    if got is None:
        return None
    return Hit((a.span[0], b.span[1]), got[0], got[1], period.grain, min(1.0, max(period.conf, year.conf)))


def _agree(date: Hit, wd: int, span: tuple[int, int]) -> Hit:
    """A day written with its weekday but no year (``Fri, Jul 18``): the nearest year where they agree."""
    noyear = date.data.get("noyear") if isinstance(date.data, dict) else None
    if noyear and date.start.weekday() != wd:
        for dy in (1, -1, 2, -2, 3, -3):
            try:
                cand = date.start.replace(year=date.start.year + dy)
            except ValueError:
                continue
            if cand.weekday() == wd:
                return Hit(span, cand, cand + timedelta(days=1), "day", date.conf)
    return date.with_span(span, role="date", data=None)


def _pair(a: Hit, b: Hit, gap: str, text: str) -> Hit | None:
    if a.kind == "duration" or b.kind == "duration":
        return None
    span = (a.span[0], b.span[1])
    if not _GAP.fullmatch(gap):
        return None
    if a.role == "rel" and not gap.strip() and b.role in ("date", "wday", "dom"):
        return _relative(a, b.start, b.end, span, min(0.9, b.conf))
    if a.role == "part" and b.role == "date" and b.grain in ("week", "month", "year"):
        got = part_of(b.start, b.grain, a.data["part"])  # type: ignore[index]
        return None if got is None else Hit(span, got[0], got[1], got[2], min(a.conf, b.conf))
    if a.role == "wday" and b.role in ("date", "dom") and b.grain == "day":
        return _agree(b, a.start.weekday(), span)
    if b.role == "wday" and a.role == "date" and a.grain == "day":
        return _agree(a, b.start.weekday(), span)
    if a.role == "by" and b.role in ("date", "wday", "dom", "tod") and not _is_weak(b) and b.end > a.start:
        return Hit(span, a.start - timedelta(microseconds=a.start.microsecond), b.end, "second", b.conf)
    bare_week = isinstance(a.data, dict) and a.data.get("bare") and a.data.get("unit") == "week"
    if a.role == "nthunit" and bare_week and _is_day(b):  # "the week of March 6": the ISO week containing it
        monday = cal.floor(b.start, "week")
        return Hit(span, monday, monday + timedelta(weeks=1), "week", min(a.conf, b.conf))
    if a.role == "nthunit" and b.role == "date" and b.grain in ("month", "year"):
        d = a.data if isinstance(a.data, dict) else {}
        got = nth_unit_of(b.start, b.end, d["n"], d["unit"])
        return None if got is None else Hit(span, got[0], got[1], got[2], min(a.conf, b.conf))
    if a.role == "nthwd" and b.role == "date" and b.grain == "month":
        d = a.data if isinstance(a.data, dict) else {}
        start = cal.nth_weekday(b.start, b.start.year, b.start.month, d["wd"], d["nth"])
        return Hit(span, start, start + timedelta(days=1), "day", min(a.conf, b.conf))
    if (_is_weak(a) and not _is_pod(b)) or (_is_weak(b) and not _is_pod(a)):
        return None
    if a.role == "dom" and b.role == "date" and b.grain == "month":
        try:
            start = b.start.replace(day=a.data["day"])  # type: ignore[index]
        except ValueError:
            return None
        return Hit(span, start, start + timedelta(days=1), "day", min(a.conf, b.conf))
    if _is_pod(a) and _is_clock(b):
        return _pod_clock(a, b, span)
    if _is_clock(a) and _is_pod(b):
        return _pod_clock(b, a, span)
    if _is_day(a) and b.role == "tod":
        return _on_day(a, b, span)
    if a.role == "tod" and _is_day(b):
        return _on_day(b, a, span)
    return None


def _fine(grain: str) -> int:
    return cal.GRAINS.index(grain) if grain in cal.GRAINS else len(cal.GRAINS)


def _for_span(a: Hit, b: Hit, gap: str, text: str) -> Hit | None:
    """``4pm for 30 mins`` / ``for 10 days from 18th Dec``: the range from the point to the point + the length.

    Read like ``from X to X + length`` (the end point included at its grain, as in every range here). Only a
    time of day or a point at least as fine as the length's unit starts a span (``on Monday for 2 hours``
    stays Monday; ``in May for two weeks`` stays May).
    """
    if a.kind == "duration" and b.kind == "point" and _FOR_FROM.fullmatch(gap):
        point, length = b, a
    elif a.kind == "point" and b.kind == "duration" and _FOR_GAP.fullmatch(gap):
        point, length = a, b
    else:
        return None
    d = length.data if isinstance(length.data, dict) else {}
    if "n" not in d or point.role not in ("date", "tod", "dom", "wday") or _is_pod(point) or _is_weak(point):
        return None
    unit, day = d["unit"], _fine("day")
    if _fine(point.grain) > day or (_fine(point.grain) == day and _fine(unit) < day):
        return None
    grain = point.grain if _fine(point.grain) <= _fine(unit) else unit
    end = cal.shift(cal.shift(point.start, d["n"], unit), 1, grain)
    span = (a.span[0], b.span[1])
    data = point.data if _is_clock(point) else None
    return Hit(span, point.start, end, grain, min(point.conf, length.conf), role=point.role, data=data)


def combine(hits: list[Hit], ctx: Ctx) -> list[Hit]:
    """Merge neighbouring hits (see the module docstring); drop hits that needed a partner and found none."""
    out = list(hits)
    for merge in (_range, _in_year, _pair, _for_span):
        changed = True
        while changed:
            changed = False
            for i in range(len(out) - 1):
                a, b = out[i], out[i + 1]
                merged = merge(a, b, ctx.text[a.span[1] : b.span[0]], ctx.text)
                if merged is not None:
                    out[i : i + 2] = [merged]
                    changed = True
                    break
    final: list[Hit] = []
    for h in out:
        if h.needs_merge:
            continue
        if h.role == "rel":
            day = cal.day_start(ctx.anchor)
            h = _relative(h, day, day + timedelta(days=1), h.span, 0.4) or h
        elif (
            h.role == "tod"
            and isinstance(h.data, dict)
            and "tod" in h.data
            and ctx.lean(h.span).direction == "future"
            and h.start < ctx.anchor
        ):
            h = Hit(h.span, h.start + timedelta(days=1), h.end + timedelta(days=1), h.grain, h.conf, role="tod")
        final.append(h)
    return final
