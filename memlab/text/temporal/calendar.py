"""Calendar arithmetic on aware or naive datetimes: floors, shifts and half-open grain intervals.

Weeks start on Monday (ISO). Month arithmetic clamps to the month end (31 Jan + 1 month = 28/29 Feb;
29 Feb 2024 - 1 year = 28 Feb 2023). Seasons are meteorological, northern hemisphere: spring = Mar-May,
summer = Jun-Aug, autumn = Sep-Nov, winter = Dec-Feb (a winter belongs to the year of its December).
"""

from __future__ import annotations

import calendar as _cal
from datetime import datetime, timedelta

GRAINS = ("second", "minute", "hour", "day", "week", "month", "season", "quarter", "year", "decade")
SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


def day_start(t: datetime) -> datetime:
    """Midnight at the start of ``t``'s day (same tzinfo)."""
    return t.replace(hour=0, minute=0, second=0, microsecond=0)


def add_months(t: datetime, n: int) -> datetime:
    """``t`` shifted by ``n`` calendar months, the day clamped to the target month's length."""
    y, m0 = divmod(t.month - 1 + n, 12)
    year = t.year + y
    day = min(t.day, _cal.monthrange(year, m0 + 1)[1])
    return t.replace(year=year, month=m0 + 1, day=day)


def floor(t: datetime, grain: str) -> datetime:
    """Start of the ``grain`` period containing ``t``."""
    if grain == "second":
        return t.replace(microsecond=0)
    if grain == "minute":
        return t.replace(second=0, microsecond=0)
    if grain == "hour":
        return t.replace(minute=0, second=0, microsecond=0)
    d = day_start(t)
    if grain == "day":
        return d
    if grain == "week":
        return d - timedelta(days=d.weekday())
    if grain == "month":
        return d.replace(day=1)
    if grain == "quarter":
        return d.replace(month=3 * ((d.month - 1) // 3) + 1, day=1)
    if grain == "season":
        # meteorological: Dec/Jan/Feb -> the December that starts the winter
        m = d.month
        start_month = 12 if m in (12, 1, 2) else 3 * (m // 3)
        year = d.year - 1 if m in (1, 2) else d.year
        return d.replace(year=year, month=start_month, day=1)
    if grain == "year":
        return d.replace(month=1, day=1)
    if grain == "decade":
        return d.replace(year=d.year - d.year % 10, month=1, day=1)
    raise ValueError(f"unknown grain {grain!r}")


def shift(t: datetime, n: int, grain: str) -> datetime:
    """``t`` moved by ``n`` units of ``grain`` (calendar-aware for month and coarser)."""
    if grain == "second":
        return t + timedelta(seconds=n)
    if grain == "minute":
        return t + timedelta(minutes=n)
    if grain == "hour":
        return t + timedelta(hours=n)
    if grain == "day":
        return t + timedelta(days=n)
    if grain == "week":
        return t + timedelta(weeks=n)
    if grain == "month":
        return add_months(t, n)
    if grain in ("quarter", "season"):
        return add_months(t, 3 * n)
    if grain == "year":
        return add_months(t, 12 * n)
    if grain == "decade":
        return add_months(t, 120 * n)
    raise ValueError(f"unknown grain {grain!r}")


def interval(t: datetime, grain: str, n: int = 1) -> tuple[datetime, datetime]:
    """The half-open interval of ``n`` ``grain`` periods starting with the one containing ``t``."""
    start = floor(t, grain)
    return start, shift(start, n, grain)


def season_interval(name: str, year: int, like: datetime) -> tuple[datetime, datetime]:
    """The season ``name`` of ``year`` (winter = December of ``year`` to March of ``year + 1``)."""
    start = day_start(like).replace(year=year, month=SEASON_START[name], day=1)
    return start, add_months(start, 3)


def nth_weekday(like: datetime, year: int, month: int, weekday: int, n: int) -> datetime:
    """The ``n``-th (1-based; -1 = last) ``weekday`` (Monday = 0) of a month, as a day start."""
    first = day_start(like).replace(year=year, month=month, day=1)
    if n > 0:
        d = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    else:
        last = add_months(first, 1) - timedelta(days=1)
        d = last - timedelta(days=(last.weekday() - weekday) % 7)
    return d
