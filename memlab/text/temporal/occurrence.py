"""Choosing one occurrence of a recurring period (a weekday-free day of the year, a month, a quarter, a season,
a holiday) given the direction the text leans.

Candidates are the period in the anchor's year and the years around it. The distance of a candidate is 0 when
it contains the anchor, else the days between the anchor and its nearer edge. Without a cue the default is
applied strictly: ``future`` keeps only candidates that contain the anchor or start after it, ``past`` only
those that contain it or ended before it, ``nearest`` keeps all; the nearest kept one wins. With a cue the
direction is a preference, not a wall: a candidate on the other side of the anchor counts ``AGAINST`` times
its distance, so "Aug. 7" in an article of 13 Aug is six days back even if a future verb governs it, and
"Feb. 10" in a January article that reports a subpoena in the past tense is the coming 10 February.
"""

from __future__ import annotations

from datetime import datetime

from memlab.text.temporal.tense import Lean

#: How much farther a candidate against a cued direction counts (1 = plain nearest).
AGAINST = 4.0


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
            if not lean.cued:
                continue
            dist *= AGAINST
        key = (dist, i, (start, end))
        if best is None or key[:2] < best[:2]:
            best = key
    return None if best is None else best[2]
