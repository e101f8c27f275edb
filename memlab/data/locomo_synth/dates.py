"""Dates in LoCoMo's written styles and the calendar arithmetic the generator's gold rests on.

Session stamps look like ``1:56 pm on 8 May, 2023`` (12-hour clock, no leading zero on the hour or the
day, full month name, a comma before the year). Temporal answers look like ``7 May 2023``, ``The week
before 9 June 2023``, ``June 2023`` or ``2022``. Gold intervals are half-open ``[start, end)`` in days.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

MONTHS: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
WEEKDAYS: tuple[str, ...] = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NUMBER_WORDS: tuple[str, ...] = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def session_stamp(moment: datetime) -> str:
    """LoCoMo's ``session_N_date_time`` text: ``1:56 pm on 8 May, 2023`` (``12:09 am`` after midnight)."""
    hour = moment.hour % 12 or 12
    half = "am" if moment.hour < 12 else "pm"
    return f"{hour}:{moment.minute:02d} {half} on {moment.day} {MONTHS[moment.month - 1]}, {moment.year}"


def day_text(day: date) -> str:
    """``7 May 2023``."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def month_text(year: int, month: int) -> str:
    """``June 2023``."""
    return f"{MONTHS[month - 1]} {year}"


def add_months(year: int, month: int, delta: int) -> tuple[int, int]:
    """``(year, month)`` shifted by ``delta`` months."""
    index = year * 12 + (month - 1) + delta
    return index // 12, index % 12 + 1


def month_interval(year: int, month: int) -> tuple[date, date]:
    """``[first day of the month, first day of the next month)``."""
    ny, nm = add_months(year, month, 1)
    return date(year, month, 1), date(ny, nm, 1)


def year_interval(year: int) -> tuple[date, date]:
    """``[1 January, next 1 January)``."""
    return date(year, 1, 1), date(year + 1, 1, 1)


def summer_interval(year: int) -> tuple[date, date]:
    """Meteorological (northern) summer: ``[1 June, 1 September)``."""
    return date(year, 6, 1), date(year, 9, 1)


def week_start(day: date) -> date:
    """Monday of the calendar week holding ``day``."""
    return day - timedelta(days=day.weekday())


def previous_weekday(day: date, weekday: int) -> date:
    """The latest date strictly before ``day`` whose weekday is ``weekday`` (0 = Monday); 1–7 days back."""
    back = (day.weekday() - weekday) % 7 or 7
    return day - timedelta(days=back)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
