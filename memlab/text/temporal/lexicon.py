"""Words the rules understand: numbers, ordinals, months, weekdays, units, and regex fragments built from them."""

from __future__ import annotations

import re

NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "couple": 2, "a couple": 2, "a couple of": 2, "couple of": 2, "a pair of": 2,
    "a few": 3, "few": 3, "several": 3,
}  # fmt: skip
VAGUE_NUMBERS = {"a few", "few", "several"}

ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
    "twenty-first": 21, "twenty first": 21, "twenty-second": 22, "twenty second": 22, "twenty-third": 23,
    "twenty third": 23, "thirtieth": 30, "thirty-first": 31, "thirty first": 31,
}  # fmt: skip

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip

WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2, "wed": 2, "thursday": 3,
    "thurs": 3, "thur": 3, "thu": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip

UNITS = {
    "second": "second", "sec": "second", "minute": "minute", "min": "minute", "hour": "hour", "hr": "hour",
    "day": "day", "week": "week", "wk": "week", "fortnight": "fortnight", "month": "month", "mo": "month",
    "quarter": "quarter", "qtr": "quarter", "year": "year", "yr": "year", "decade": "decade",
}  # fmt: skip

DECADE_WORDS = {
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70,
    "eighties": 80, "nineties": 90,
}  # fmt: skip


def alt(words: object) -> str:
    """A regex alternation of ``words`` (longest first so prefixes do not win)."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))  # type: ignore[arg-type]


NUM = r"(?:\d{1,3}|" + alt(NUMBER_WORDS) + r")"
MONTH = r"(?:" + alt(MONTHS) + r")\.?"
WEEKDAY = r"(?:" + alt(WEEKDAYS) + r")"
UNIT = r"(?:" + alt(UNITS) + r")s?"
ORD_DAY = r"(?:(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?|" + alt(ORDINAL_WORDS) + r")"
YEAR = r"(?:1[5-9]\d\d|2[01]\d\d)"


def number(word: str) -> int | None:
    """The value of a number written in digits or words, or None."""
    w = " ".join(word.lower().split())
    if w.isdigit():
        return int(w)
    return NUMBER_WORDS.get(w)


_DIGITS = re.compile(r"\d+")


def ordinal(word: str) -> int | None:
    """The value of ``5th``, ``5``, ``fifth``, or None."""
    w = " ".join(word.lower().split())
    digits = _DIGITS.match(w)
    if digits:
        return int(digits.group(0))
    return ORDINAL_WORDS.get(w)


def month(word: str) -> int:
    """Month number of a month name or abbreviation (with or without a dot)."""
    return MONTHS[word.lower().rstrip(".")]


def weekday(word: str) -> int:
    """Weekday number (Monday = 0) of a weekday name or abbreviation."""
    return WEEKDAYS[word.lower().rstrip(".").rstrip("s") if word.lower() not in WEEKDAYS else word.lower()]


def unit(word: str) -> str:
    """Canonical unit of a unit word (``weeks`` -> ``week``)."""
    w = word.lower()
    return UNITS.get(w) or UNITS[w[:-1]]


def year2(yy: int, anchor_year: int) -> int:
    """Expand a two-digit year: the latest year ending in ``yy`` that is at most 20 years after the anchor."""
    y = 2000 + yy
    return y if y <= anchor_year + 20 else 1900 + yy


_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TEENS = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_CENTURIES = {"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}
_TWO_DIGITS = (
    rf"(?:(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(_ONES)}))?|{'|'.join(_TEENS)}|(?:oh|o)[\s-](?:{'|'.join(_ONES)}))"
)
#: a year in words: ``nineteen ninety-six``, ``nineteen hundred``, ``two thousand (and) one``, ``twenty ten``
SPELLED_YEAR = (
    rf"(?:(?:{'|'.join(_CENTURIES)})[\s-](?:hundred|{_TWO_DIGITS})"
    rf"|two[\s-]thousand(?:(?:\s+and)?[\s-](?:{_TWO_DIGITS}|{'|'.join(_ONES)}))?)"
)


def words_below_100(text: str) -> int | None:
    """``ninety-six`` -> 96, ``oh five`` -> 5, ``eleven`` -> 11, ``seven`` -> 7 (None if not such words)."""
    parts = re.split(r"[\s-]+", text.lower().strip())
    if len(parts) == 1:
        w = parts[0]
        return _ONES.get(w) or _TEENS.get(w) or _TENS.get(w)
    if len(parts) == 2 and parts[0] in ("oh", "o") and parts[1] in _ONES:
        return _ONES[parts[1]]
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _ONES:
        return _TENS[parts[0]] + _ONES[parts[1]]
    return None


def spelled_year(text: str) -> int | None:
    """The value of a year written in words (see ``SPELLED_YEAR``), or None."""
    parts = re.split(r"[\s-]+", text.lower().strip())
    if len(parts) >= 2 and parts[0] == "two" and parts[1] == "thousand":
        rest = [p for p in parts[2:] if p != "and"]
        if not rest:
            return 2000
        low = words_below_100(" ".join(rest))
        return None if low is None else 2000 + low
    if parts and parts[0] in _CENTURIES and len(parts) >= 2:
        if parts[1:] == ["hundred"]:
            return _CENTURIES[parts[0]] * 100
        low = words_below_100(" ".join(parts[1:]))
        return None if low is None or (low < 10 and parts[1] not in ("oh", "o")) else _CENTURIES[parts[0]] * 100 + low
    return None
