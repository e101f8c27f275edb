"""The ``dateparser`` package wrapped as a peer baseline resolver (``temporal=dateparser``).

Settings: ``RELATIVE_BASE`` = the anchor (naive, in the anchor's zone), ``PREFER_DATES_FROM = past``,
English only. Two modes:

- ``search`` (default): ``dateparser.search.search_dates`` over the whole text, which finds expressions
  inside running text as the :class:`~memlab.strategies.temporal.base.TemporalBase` contract requires; spans are the
  returned substrings located left to right.
- ``parse``: ``DateDataParser.get_date_data`` on the whole text as one expression (span = the whole text);
  cheaper, but it cannot find an expression inside a sentence.

Grain: the ``period`` dateparser reports for the (sub)string (``day``, ``week``, ``month``, ``year``, or
``time``). dateparser also says ``day`` for clock times (``at 3am``), so a ``day`` result whose time of day
is neither midnight nor the anchor's own (relative days keep the anchor's clock) is treated as a time: hour,
minute or second from the finest non-zero field (minute when minutes are written, ``19:00``). The interval
is the grain period containing the result.
Confidence is 0.7 for every result (dateparser reports none).
dateparser is imported on first use; without it a :class:`~memlab.core.errors.MemlabError` names the package.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import TemporalRef
from memlab.strategies.temporal.base import TemporalBase
from memlab.text.temporal import calendar as cal

_PERIODS = {"day": "day", "week": "week", "month": "month", "year": "year"}


_MINUTES_WRITTEN = re.compile(r"\d\s*[:h.]\s*\d\d")


def _grain(period: str | None, t: datetime, anchor: datetime, text: str = "") -> str:
    clock = (t.hour, t.minute, t.second)
    timed = period == "time" or (
        period == "day" and clock not in ((0, 0, 0), (anchor.hour, anchor.minute, anchor.second))
    )
    if period in _PERIODS and not timed:
        return _PERIODS[period]
    if t.second or t.microsecond:
        return "second"
    return "minute" if t.minute or _MINUTES_WRITTEN.search(text) else "hour"


class DateparserResolver(TemporalBase):
    """dateparser as a resolver (see the module docstring).

    Args:
        mode: ``search`` or ``parse``.
        prefer_dates_from: dateparser's ``PREFER_DATES_FROM`` (``past``, ``future``, ``current_period``).
    """

    name: ClassVar[str] = "dateparser"
    version: ClassVar[int] = 1

    def __init__(self, mode: str = "search", prefer_dates_from: str = "past") -> None:
        self.mode = mode
        self.prefer_dates_from = prefer_dates_from
        self.parser_: Any = None
        self.search_: Any = None

    def _load(self) -> None:
        if self.parser_ is not None:
            return
        try:
            from dateparser.date import DateDataParser
            from dateparser.search import search_dates
        except ImportError:
            raise MemlabError(
                "temporal=dateparser needs the dateparser package; install it with `pip install dateparser`"
            ) from None
        if self.mode not in ("search", "parse"):
            raise MemlabError(f"temporal.mode must be 'search' or 'parse', not {self.mode!r}")
        self.parser_ = DateDataParser
        self.search_ = search_dates

    def _settings(self, anchor: datetime) -> dict[str, Any]:
        return {
            "RELATIVE_BASE": anchor.replace(tzinfo=None),
            "PREFER_DATES_FROM": self.prefer_dates_from,
            "RETURN_AS_TIMEZONE_AWARE": False,
        }

    def _ref(self, text: str, span: tuple[int, int], t: datetime, period: str | None, anchor: datetime):  # type: ignore[no-untyped-def]
        grain = _grain(period, t, anchor, text)
        start, end = cal.interval(t.replace(tzinfo=anchor.tzinfo), grain)
        return TemporalRef(text, span, start, end, grain, 0.7)

    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """Resolve ``text`` with dateparser (never raises on bad input)."""
        self._load()
        if not isinstance(text, str) or not text.strip() or not isinstance(anchor, datetime):
            return []
        settings = self._settings(anchor)
        try:
            parser = self.parser_(languages=["en"], settings=settings)
            if self.mode == "parse":
                data = parser.get_date_data(text)
                if data is None or data.date_obj is None:
                    return []
                return [self._ref(text, (0, len(text)), data.date_obj, data.period, anchor)]
            found = self.search_(text, languages=["en"], settings=settings) or []
        except Exception:  # dateparser raises assorted errors on odd input; the contract says []
            return []
        out: list[TemporalRef] = []
        pos = 0
        for sub, t in found:
            i = text.find(sub, pos)
            if i < 0:
                continue
            pos = i + len(sub)
            try:
                data = parser.get_date_data(sub)
                period = data.period if data is not None else None
                out.append(self._ref(sub, (i, i + len(sub)), t, period, anchor))
            except Exception:
                continue
        return out
