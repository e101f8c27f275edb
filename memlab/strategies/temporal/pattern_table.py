"""The seed's temporal phrase table, kept as the baseline resolver.

Each phrase maps to a shift of the anchor (``last month`` = 30 days back, ``a few days ago`` = 3 days
back), resolved at day grain as the seed does: the result is the calendar day of the shifted anchor,
``[day, day + 1)``. Matching is case-insensitive on word boundaries, longest phrase first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import ClassVar

from memlab.core.types import TemporalRef
from memlab.strategies.temporal.base import TemporalBase

#: phrase -> (shift of the anchor, confidence)
SEED_TABLE: dict[str, tuple[Callable[[datetime], datetime], float]] = {
    "yesterday": (lambda t: t - timedelta(days=1), 1.0),
    "today": (lambda t: t, 1.0),
    "tomorrow": (lambda t: t + timedelta(days=1), 1.0),
    "the day before": (lambda t: t - timedelta(days=1), 0.8),
    "the day after": (lambda t: t + timedelta(days=1), 0.8),
    "two days ago": (lambda t: t - timedelta(days=2), 1.0),
    "a few days ago": (lambda t: t - timedelta(days=3), 0.5),
    "last week": (lambda t: t - timedelta(weeks=1), 0.7),
    "this week": (lambda t: t, 0.7),
    "next week": (lambda t: t + timedelta(weeks=1), 0.7),
    "a week ago": (lambda t: t - timedelta(weeks=1), 0.9),
    "last month": (lambda t: t - timedelta(days=30), 0.6),
    "this month": (lambda t: t, 0.6),
    "a month ago": (lambda t: t - timedelta(days=30), 0.6),
    "this morning": (lambda t: t, 1.0),
    "this afternoon": (lambda t: t, 1.0),
    "this evening": (lambda t: t, 1.0),
    "tonight": (lambda t: t, 1.0),
    "last night": (lambda t: t - timedelta(days=1), 1.0),
}

_PATTERN = re.compile(
    r"\b(" + "|".join(re.escape(p) for p in sorted(SEED_TABLE, key=len, reverse=True)) + r")\b", re.IGNORECASE
)


def day_interval(t: datetime) -> tuple[datetime, datetime]:
    """The calendar day containing ``t`` as ``[start, end)`` in ``t``'s timezone."""
    start = t.replace(hour=0, minute=0, second=0, microsecond=0)
    return start, start + timedelta(days=1)


class PatternTableResolver(TemporalBase):
    """The seed's phrase table (see the module docstring)."""

    name: ClassVar[str] = "pattern_table"
    version: ClassVar[int] = 1

    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """Resolve every table phrase in ``text`` against ``anchor``."""
        out: list[TemporalRef] = []
        for match in _PATTERN.finditer(text or ""):
            shift, confidence = SEED_TABLE[match.group(1).lower()]
            try:
                start, end = day_interval(shift(anchor))
            except OverflowError:  # anchors at the ends of the calendar: skip rather than raise
                continue
            out.append(TemporalRef(match.group(0), match.span(), start, end, "day", confidence))
        return out
