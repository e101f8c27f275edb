"""A day written out in a text (``2025-03-04``, ``4 March 2025``, ``March 4th``): the absolute rules alone.

Below the strategies so that a reader and the benchmarks' scoring read days alike without importing the temporal
strategy (a strategy imports only its own group): relative expressions ("yesterday") are never read here.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from memlab.text.temporal.hits import Ctx
from memlab.text.temporal.rules_absolute import RULES

_YEAR = re.compile(r"\b(1[5-9]|2[01])\d\d\b")


def written_day(text: str, anchor: datetime, with_year: bool = True) -> date | None:
    """The first day written out in ``text``; with ``with_year`` only one written with its year, else a day without
    one is read towards the past of ``anchor``.
    """
    lower, ctx, found = text.lower(), Ctx(anchor, "past", text.lower()), []
    for pattern, handler, *_ in RULES:
        for m in pattern.finditer(lower):
            try:
                hit = handler(m, ctx)
            except (ValueError, OverflowError, KeyError, TypeError, IndexError):
                continue
            if hit is not None and hit.grain == "day" and (not with_year or _YEAR.search(m.group(0))):
                found.append((hit.span[0], -hit.span[1], hit.start.date()))
    return min(found)[2] if found else None
