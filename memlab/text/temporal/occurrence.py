"""Choosing one occurrence of a recurring period (a day of the year, a month, a quarter, a season, a holiday)
given the direction the text leans.

Candidates are the period in the anchor's year and the years around it. The distance of a candidate is 0 when
it contains the anchor, else the days between the anchor and its nearer edge. A direction (``past`` or
``future``) is a preference, not a wall: a candidate on the other side of the anchor counts ``AGAINST_CUE``
times its distance when a cue in the text gave the direction, ``AGAINST_DEFAULT`` times when it is only the
configured default; the smallest weighted distance wins (``nearest``: plain distance). So "Aug. 7" in an
article of 13 Aug is six days back even if a future verb governs it, "Feb. 10" in a January article that
reports a subpoena in the past tense is the coming 10 February, "in December" in a past-tense October article
is last December (36 days ahead x 4 > 298 days back), and a dateline "August 7" with no verb in an article of
8 August is the day before, not the next year's (the weighted day back, 8, is far below 364).
"""

from __future__ import annotations

from datetime import datetime

from memlab.text.temporal.tense import Lean

#: How much farther a candidate against a cued direction counts (1 = plain nearest).
AGAINST_CUE = 4.0
#: The same for a direction that is only the configured default (no cue in the text).
AGAINST_DEFAULT = 8.0


def _side(start: datetime, end: datetime, anchor: datetime) -> tuple[str, float]:
    if start <= anchor < end:
        return "now", 0.0
    if start > anchor:
        return "future", (start - anchor).total_seconds() / 86400
    return "past", (anchor - end).total_seconds() / 86400


def pick(cands: list[tuple[datetime, datetime]], anchor: datetime, lean: Lean) -> tuple[datetime, datetime] | None:
    """The candidate the text most likely means (see the module docstring); None for no candidates."""
    best: tuple[float, int, tuple[datetime, datetime]] | None = None
    for i, (start, end) in enumerate(cands):
        side, dist = _side(start, end, anchor)
        if lean.direction in ("past", "future") and side not in ("now", lean.direction):
            dist *= AGAINST_CUE if lean.cued else AGAINST_DEFAULT
        if best is None or (dist, i) < best[:2]:
            best = (dist, i, (start, end))
    return None if best is None else best[2]
