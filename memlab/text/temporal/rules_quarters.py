"""Rules for quarters, halves and the first months of a year (calendar quarters; fiscal ones read the same way).

- ``the third quarter``, ``third-quarter`` (as in ``third-quarter profit``), ``fiscal second-quarter``, ``Q3``,
  ``3Q``, ``the 4th qtr``: that quarter of the year the text leans to (:mod:`.occurrence`; ``third-quarter
  profit rose`` in October is the quarter just ended). With a year: ``the third quarter of 1989``, ``Q3 2023``,
  ``2023 Q3``, ``'23 Q3``, and through :mod:`.combine` ``the 1988 third quarter``, ``next year's first quarter``.
- ``the latest quarter`` / ``the most recent quarter`` / ``the previous quarter``: the quarter before the
  anchor's (the last one completed).
- ``the first half``, ``second-half``, ``H1``: January-June / July-December (grain quarter), year as above.
- ``the first nine months`` (of a year): January to the end of the ninth month (grain month).
"""

from __future__ import annotations

import re
from datetime import datetime

from memlab.text.temporal import calendar as cal
from memlab.text.temporal.hits import Ctx, Hit, Rule
from memlab.text.temporal.lexicon import NUMBER_WORDS, YEAR
from memlab.text.temporal.occurrence import pick
from memlab.text.temporal.rules_absolute import _date, _year_of

_F = re.IGNORECASE
_QWORDS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "final": 4}
_QWORDS |= {"last": 4}
_HWORDS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "last": 2, "latter": 2}


def period_hit(m: re.Match[str], ctx: Ctx, first_month: int, months: int, grain: str, year: int | None,
               conf: float) -> Hit:  # fmt: skip
    """The ``months`` from ``first_month`` of ``year``, or (None) of the year the text leans to; movable by a
    year written beside it (``data["relocate"]``, see :mod:`.combine`).
    """

    def interval(y: int) -> tuple[datetime, datetime]:
        start = _date(y, first_month, 1, ctx.anchor)
        return start, cal.add_months(start, months)

    if year is not None:
        start, end = interval(year)
    else:
        cands = [interval(y) for y in (ctx.anchor.year - 1, ctx.anchor.year, ctx.anchor.year + 1)]
        start, end = pick(cands, ctx.anchor, ctx.lean(m.span())) or cands[1]
        conf = min(conf, 0.8)
    return Hit(m.span(), start, end, grain, conf, data={"relocate": None if year else ("months", first_month, months)})


def _quarter(m: re.Match[str], ctx: Ctx) -> Hit | None:
    if m.group(1):
        q, y = _QWORDS[m.group(1).lower()], int(m.group(2)) if m.group(2) else None
        if m.group(1).lower() == "last" and y is None:  # "last quarter" = the previous one (rules_relative)
            return None
    elif m.group(3):
        q, y = int(m.group(4)), _year_of(m.group(3), ctx)
    else:
        q, y = int(m.group(5) or m.group(7)), int(m.group(6)) if m.group(6) else None
    return period_hit(m, ctx, 3 * (q - 1) + 1, 3, "quarter", y, 1.0)


def _latest_quarter(m: re.Match[str], ctx: Ctx) -> Hit | None:
    start = cal.shift(cal.floor(ctx.anchor, "quarter"), -1, "quarter")
    return Hit(m.span(), start, cal.shift(start, 1, "quarter"), "quarter", 0.8)


def _half(m: re.Match[str], ctx: Ctx) -> Hit | None:
    h = _HWORDS.get((m.group(1) or "").lower()) or int(m.group(3))
    y = int(m.group(2)) if m.group(2) else int(m.group(4)) if m.group(4) else None
    return period_hit(m, ctx, 1 if h == 1 else 7, 6, "quarter", y, 0.9)


def _first_months(m: re.Match[str], ctx: Ctx) -> Hit | None:
    n = NUMBER_WORDS.get(m.group(1).lower()) or (int(m.group(1)) if m.group(1).isdigit() else 0)
    if not 1 <= n <= 12:
        return None
    return period_hit(m, ctx, 1, n, "month", int(m.group(2)) if m.group(2) else None, 0.8)


_ORDQ = r"(first|second|third|fourth|final|1st|2nd|3rd|4th|last)"
RULES: list[Rule] = [
    (
        re.compile(
            rf"\b(?:the\s+)?(?:fiscal[\s-]+)?{_ORDQ}[\s-]+(?:fiscal[\s-]+)?(?:quarter|qtr)(?!s)"
            rf"(?:\s+(?:of\s+)?({YEAR}))?\b|\b(\d{{2}}|\d{{4}})\s*q([1-4])\b|\bq([1-4])(?:\s+({YEAR}))?\b|"
            r"\b([1-4])q\b",
            _F,
        ),
        _quarter,
        frozenset({"quarter", "qtr", "q"}),
    ),
    (
        re.compile(r"\bthe\s+(?:latest|most\s+recent|recent|previous|prior|preceding)\s+(?:fiscal\s+)?quarter\b", _F),
        _latest_quarter,
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?(first|1st|second|2nd|last|latter)[\s-]+half\b(?!\s+(?:an?\b|of\s+(?:the|an?|his|her|its|"
            rf"their|our|my)\b))(?:\s+(?:of\s+)?({YEAR}))?|\bh([12])(?:\s+({YEAR}))?\b",
            _F,
        ),
        _half,
        frozenset({"half", "h"}),
    ),
    (
        re.compile(
            r"\b(?:the\s+)?first\s+(two|three|four|five|six|seven|eight|nine|ten|eleven|[2-9]|1[01])\s+months\b"
            rf"(?:\s+of\s+({YEAR}))?",
            _F,
        ),
        _first_months,
    ),
]
