"""Choosing one occurrence of a recurring period (a day of the year, a month, a quarter, a season, a holiday)
given the direction the text leans.

Candidates are the period in the anchor's year and the years around it. The distance of a candidate is 0 when
it contains the anchor, else the days between the anchor and its nearer edge. A direction (``past`` or
``future``) from a strong cue (the tense of the verb itself, :class:`~memlab.text.temporal.tense.Lean`) is a
wall: only candidates on its side (or containing the anchor) are kept. A weak cue and the configured default
are preferences: a candidate on the other side counts ``AGAINST_CUE`` / ``AGAINST_DEFAULT`` times its distance.
The smallest weighted distance wins (``nearest``: plain distance). So "changed ... in December" in an October
article is last December, "Aug. 7" in an article of 13 Aug is six days back even under a weak future lean,
"Feb. 10" in a January article that says a witness was subpoenaed "to testify on Feb. 10" (an infinitive: a
weak future lean) is the coming 10 February, and a dateline "August 7" with no verb in an article of 8 August
is the day before, not next year's (the weighted day back, 8, is far below 364).
"""

from __future__ import annotations

from datetime import datetime

from memlab.text.temporal.tense import Lean

#: How much farther a candidate against a direction counts (1 = plain nearest): against a strong cue (the
#: tense of a verb: went, will): a wall; against a weak one (a reporting verb, an infinitive, would, expects to,
#: a deadline preposition); against the configured default when the text has no cue.
AGAINST_STRONG = float("inf")
AGAINST_CUE = 4.0
AGAINST_DEFAULT = 8.0


def _side(start: datetime, end: datetime, anchor: datetime) -> tuple[str, float]:
    if start <= anchor < end:
        return "now", 0.0
    if start > anchor:
        return "future", (start - anchor).total_seconds() / 86400
    return "past", (anchor - end).total_seconds() / 86400


def pick(cands: list[tuple[datetime, datetime]], anchor: datetime, lean: Lean) -> tuple[datetime, datetime] | None:
    """The candidate the text most likely means (see the module docstring); None for no candidates."""
    best: tuple[float, float, int, tuple[datetime, datetime]] | None = None
    for i, (start, end) in enumerate(cands):
        side, dist = _side(start, end, anchor)
        weighted = dist
        if lean.direction in ("past", "future") and side not in ("now", lean.direction):
            weighted *= (AGAINST_STRONG if lean.strong else AGAINST_CUE) if lean.cued else AGAINST_DEFAULT
        if best is None or (weighted, dist, i) < best[:3]:
            best = (weighted, dist, i, (start, end))
    return None if best is None else best[3]
