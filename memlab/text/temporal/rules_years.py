"""Rules for years and decades.

- ``in 2022`` / ``since 2019`` / ``2022 AD``: that year. A bare four-digit number from 1500 to 2199 is a year too
  (``the 1996 law``, ``between 1982 and 1992``; confidence 0.7) unless money, a count or a clock reading
  surrounds it (``$1990``, ``1,990``, ``1990 people``, ``1990 hours``, ``1990 GMT``).
- Years in words: ``nineteen ninety-six``, ``two thousand and one``, ``twenty ten``.
- Fiscal years (``fiscal 1989``, ``fiscal year 1990``, ``fiscal '90``, ``FY1989``, ``FY90``) are read as the
  calendar year of the same number: a company's fiscal calendar is not in the text (TimeML reads them so too).
- ``2000 or later``, ``1990 and beyond``, ``1985 or earlier``, ``1994 onwards``: the boundary year itself, like
  ``since 2016`` (an open interval is reported on its boundary; confidence 0.8).
- Decades: ``the 1990s``, ``the '90s``, ``the 90s``, ``the nineties``, ``the nineteen-nineties``; ``the early /
  mid / late 1980s`` = its years 0-3 / 4-6 / 7-9 (grain year).
"""

from __future__ import annotations

import re

from memlab.text.temporal import calendar as cal
from memlab.text.temporal.hits import Ctx, Hit, Rule
from memlab.text.temporal.lexicon import DECADE_WORDS, SPELLED_YEAR, YEAR, spelled_year, words_below_100, year2
from memlab.text.temporal.rules_absolute import _date

_F = re.IGNORECASE
_BOUNDARY = r"(?:\s+(?:or|and)\s+(?:later|after|beyond|earlier|before)|\s+onwards?)?"
_COUNT_WORDS = (
    r"people|persons|men|women|children|shares|miles|feet|foot|meters|metres|kilometers|kilometres|km|kg|pounds|"
    r"tons|tonnes|dollars|yen|francs|marks|units|members|employees|workers|jobs|points|votes|cars|troops|"
    r"soldiers|hours|hrs|h|gmt|utc|est|edt|pst|pdt|cst|cdt|am|pm|a\.m|p\.m|barrels|acres|square|cubic|mph|rpm"
)
DECADE_PARTS = {"early": (0, 4), "mid": (4, 7), "late": (7, 10)}


def year_hit(span: tuple[int, int], y: int, ctx: Ctx, conf: float) -> Hit:
    """The whole year ``y`` (``data["year"]`` lets a month or quarter beside it move into it)."""
    start = _date(y, 1, 1, ctx.anchor)
    return Hit(span, start, cal.add_months(start, 12), "year", conf, data={"year": y})


def _boundary_conf(m: re.Match[str], conf: float) -> float:
    tail = m.group(0).lower()
    return min(conf, 0.8) if re.search(r"(?:later|after|beyond|earlier|before|onwards?)$", tail) else conf


def _year(m: re.Match[str], ctx: Ctx) -> Hit | None:
    return year_hit(m.span(), int(m.group(1)), ctx, _boundary_conf(m, 1.0))


def _bare_year(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """A four-digit year standing alone (0.7), or with ``AD`` after it (1.0)."""
    return year_hit(m.span(), int(m.group(1)), ctx, _boundary_conf(m, 1.0 if m.group(2) else 0.7))


def _spelled(m: re.Match[str], ctx: Ctx) -> Hit | None:
    y = spelled_year(m.group(1))
    return None if y is None else year_hit(m.span(), y, ctx, _boundary_conf(m, 0.8))


def _fiscal(m: re.Match[str], ctx: Ctx) -> Hit | None:
    digits = (m.group(1) or m.group(2)).lstrip("'’")
    y = year2(int(digits), ctx.anchor.year) if len(digits) == 2 else int(digits)
    return year_hit(m.span(), y, ctx, 0.9)


def _decade_hit(m: re.Match[str], ctx: Ctx, part: str, y: int | None) -> Hit | None:
    if y is None or y % 10:
        return None
    start = _date(y, 1, 1, ctx.anchor)
    if part in DECADE_PARTS:
        lo, hi = DECADE_PARTS[part]
        return Hit(m.span(), cal.shift(start, lo, "year"), cal.shift(start, hi, "year"), "year", 0.8)
    return Hit(m.span(), start, cal.add_months(start, 120), "decade", 0.9)


def _decade_digits(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``the 1990s``, ``the early 1980s``."""
    return _decade_hit(m, ctx, (m.group(1) or "").lower(), int(m.group(2)))


def _decade_short(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``the '90s``, ``the late nineties``, ``the nineteen-nineties``."""
    part = (m.group(1) or "").lower()
    if m.group(2):
        return _decade_hit(m, ctx, part, year2(int(m.group(2)), ctx.anchor.year))
    if m.group(3):
        return _decade_hit(m, ctx, part, year2(DECADE_WORDS[m.group(3).lower()], ctx.anchor.year))
    century = spelled_year(m.group(4) + " hundred")
    tens = words_below_100(m.group(5).lower()[:-3] + "y")  # nineties -> ninety
    return _decade_hit(m, ctx, part, None if century is None or tens is None else century + tens)


_CENTURY_WORDS = r"(fifteen|sixteen|seventeen|eighteen|nineteen)"
_TENS_PLURAL = r"(twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)"

RULES: list[Rule] = [
    (
        re.compile(
            rf"\b(?:in|during|since|from|until|till|by|of|back in|before|after|around|through|year)\s+({YEAR})"
            rf"\b(?!\s*(?:am|pm|hours?|h)\b)(?:\s*a\.?d\.?\b)?{_BOUNDARY}",
            _F,
        ),
        _year,
        re.compile(r"[12]\d{3}"),
    ),
    (
        re.compile(
            rf"(?<![\w$£€#.,/:'’])(?<!\d-)(?<!\bno\.\s)({YEAR})(?![\w%]|[.,:/-]\d)"
            rf"(?!\s+(?:{_COUNT_WORDS})\b)(\s*a\.?d\.?(?!\w))?{_BOUNDARY}",
            _F,
        ),
        _bare_year,
        re.compile(r"[12]\d{3}"),
    ),
    (re.compile(rf"\b({SPELLED_YEAR})\b{_BOUNDARY}", _F), _spelled),
    (
        re.compile(rf"\bfiscal(?:[\s-]+year)?[\s-]+({YEAR}|['’]\d\d)\b|\bfy\s?-?({YEAR}|\d\d)\b", _F),
        _fiscal,
        frozenset({"fiscal", "fy"}),
    ),
    (
        re.compile(r"\b(?:(?:in\s+)?the\s+)?(?:(early|mid|late)[\s-]+)?((?:1[5-9]|20)\d0)['’]?s\b", _F),
        _decade_digits,
        re.compile(r"\d0['’]?s\b"),
    ),
    (
        re.compile(
            r"\b(?:in\s+)?the\s+(?:(early|mid|late)[\s-]+)?(?:['’]?(\d0)['’]?s\b|"
            rf"({'|'.join(DECADE_WORDS)})\b|{_CENTURY_WORDS}[\s-]{_TENS_PLURAL}\b)",
            _F,
        ),
        _decade_short,
        re.compile(r"\d0['’]?s\b|ties\b"),
    ),
]
