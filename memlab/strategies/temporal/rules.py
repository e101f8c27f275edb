"""Our rule-based temporal resolver: precompiled regular expressions, calendar arithmetic, no model.

Conventions (all intervals half-open ``[start, end)`` in the anchor's timezone; weeks start on Monday):

- ``today`` / ``yesterday`` / ``tomorrow``: that calendar day. A session at 00:05 saying "yesterday" means
  the previous calendar day. ``tonight`` = 18:00-24:00, ``last night`` = 18:00-24:00 of the previous day.
- ``N days/weeks/months ago`` (digits or words; ``a few`` = 3 with confidence 0.5): the calendar day of the
  anchor shifted back (months clamp to the month end: 31 Mar - 1 month = 28/29 Feb); ``N years ago``: the
  month of the shifted anchor (grain month). ``in N ...`` / ``N ... from now`` the same forwards.
  Minutes and hours resolve at second / minute grain.
- ``last/this/next week|month|year|quarter|decade``: the previous / current / following calendar period
  (``last week`` = the previous ISO week, Monday to Monday, whatever the anchor's weekday).
  ``last/this/next weekend`` = Saturday 00:00 to Monday 00:00 of the previous / current / next ISO week.
  ``last 2 weeks`` = the two whole weeks before the current one; ``next 3 days`` = the three days after today.
- Direction: each underspecified expression (a bare weekday, a month or day without a year, a quarter, a
  holiday, a season) is read in the direction of the cue that governs it: the nearest tense cue in its clause
  (:mod:`memlab.text.temporal.tense`: will, said, went, expects to, until ...); only without any cue the
  ``prefer`` default (future, past or nearest) applies.
- Weekdays: ``last Friday`` = the most recent Friday strictly before the anchor's day; ``next Monday`` = the
  Monday of the next ISO week; ``Friday after next`` = the Friday two ISO weeks on; ``Friday of this/next/last
  week`` = that week's Friday; ``coming Friday`` = the first after the anchor's day. ``this Sunday``, ``on
  Saturday`` and a bare ``Saturday`` follow the cue: the Saturday within the six days before (past) or after
  (future) the anchor's day, or the nearer one (present, possessive), the anchor's own day included ("said
  Friday" in an article dated Friday is that day). Without a cue: strictly after the anchor's day (prefer
  future: the assistant's "Tuesday" said on a Tuesday is next week's), strictly before (past), or the nearer.
- Months and days without a year: the occurrence the text leans to among last, this and next year's
  (:mod:`memlab.text.temporal.occurrence`: a strong cue such as "went" or "will" is a wall; a weak one such as
  "said" or an infinitive, and the default, only weigh the other side's distance x4 / x8, so "Aug. 7" in an
  article of 13 Aug is that Aug. 7). ``May 2023`` / ``in May of 2023`` = that month; ``last May`` = the latest
  May before the anchor's month, ``next May`` the first after it; a year expression beside it moves it
  (``February this year``). ``May 7`` / ``7 May 2023`` / ``7th of May`` / ``5/7/2023`` (US order; day first
  when the first number exceeds 12) / ``2023-05-07`` = that day. A lowercase ``may`` is a verb unless a day or
  year stands beside it.
- Years (:mod:`memlab.text.temporal.rules_years`): ``in 2022``; a bare four-digit number from 1500 to 2199
  (confidence 0.7) unless money or a count surrounds it; ``nineteen ninety-six``; fiscal years read as the
  calendar year; ``1994 or later`` = 1994 (the boundary, like ``since``). Decades: ``the 90s``, ``the '90s``,
  ``the 1990s``, ``the nineties``, ``the late 1980s`` (years 7-9). Quarters, halves and ``the first nine
  months`` (:mod:`memlab.text.temporal.rules_quarters`); holidays (:mod:`memlab.text.temporal.rules_holidays`).
  Seasons are meteorological (summer = June-August); ``last summer`` = the latest summer that started before
  the current season.
- ``the day/week/weekend/month/year before|after <date>`` shift from that date; ``the week before X`` =
  the seven days before X's day; without a date they shift from the anchor's day (confidence 0.4).
- ``the other day`` = the 7 days before the anchor's day (0.4); ``recently`` / ``lately`` = the 30 days up to
  and including it (0.2). ``on the 5th`` = the 5th of the anchor's month, moved a month on (future) or back
  (past) when it does not fit. Clock times land on the anchor's day unless a date stands beside them.
- ``the week/month/year before last`` = two periods back; ``over the weekend`` = the weekend just past
  (past tense, Monday to Friday) or this week's. ``the first/last week of May`` = the first/last full ISO
  week inside May; ``the last day of May``; ``the first Monday of June``; ``end of the month`` = days 21 to
  the end, ``early March`` = days 1-10, ``late 1990`` = September-December (Duckling's parts; ``mid-``,
  ``the beginning/middle/end of`` alike). ``by Friday`` = from the anchor to Friday's end.
  ``July 13-15`` and ``3-4pm`` are ranges. ``since 2016`` resolves to 2016 itself (``kind="point"``).
- Clock times: ``3pm``, ``15:30``, ``half past three``, ``8:00 GMT``, ``6:40 p.m. (GMT +8)`` (converted to
  the anchor's zone); a
  time without am/pm and an hour from 1 to 6 is afternoon. A clock time with no date beside it lands on
  the anchor's day, or the next day when the sentence reads as future and the time has passed.
- Durations: ``for two weeks`` -> ``kind="duration"``, interval = the span of that length ending at the
  anchor (start = anchor - length, end = anchor), grain = the unit. Beside a day or a time of day at least as
  fine as its unit, a length makes a range read as ``from X to X + length``: ``4pm for 30 mins`` =
  16:00-16:31, ``from 18th Dec for 10 days`` = 18-28 Dec (end point included at its grain, as in every
  range; Duckling reads it the same way). ``on Monday for 2 hours`` stays Monday. A timezone after a range
  (``9:30 - 11:00 CST``) applies to both ends.
- Deliberate differences from Duckling's corpus conventions: ``7 days ago`` is a day (Duckling: the hour
  seven days back); weekends are Saturday-Sunday (Duckling: Friday 18:00 to Monday); seasons are
  meteorological (Duckling: astronomical dates); ``next Friday`` is the Friday of next week.

Garbage, empty or huge input never raises: the worst case is ``[]`` (text beyond 200,000 characters is
ignored). A misspelt ``prefer`` is a configuration error (:class:`~memlab.core.errors.MemlabError`).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import TemporalRef
from memlab.strategies.temporal.base import TemporalBase
from memlab.text.temporal import calendar as cal
from memlab.text.temporal import (
    rules_absolute,
    rules_clock,
    rules_holidays,
    rules_periods,
    rules_quarters,
    rules_relative,
    rules_years,
)
from memlab.text.temporal.combine import combine, select
from memlab.text.temporal.hits import Ctx, Hit
from memlab.text.temporal.lexicon import NUM, UNIT, VAGUE_NUMBERS, number, unit
from memlab.text.temporal.prefilter import any_word, first_chars, letter_runs, present, trigger

PREFER = ("future", "past", "nearest")
_RULES = (
    rules_relative.RULES
    + rules_absolute.RULES
    + rules_years.RULES
    + rules_quarters.RULES
    + rules_holidays.RULES
    + rules_periods.RULES
    + rules_clock.RULES
)
_TRIGGERS = [trigger(r[0]) for r in _RULES]


def _lead(pattern: re.Pattern[str]) -> str:
    """A lookahead for the characters a match can start with (lowercase), so the engine skips other positions."""
    chars = first_chars(re.compile(pattern.pattern, pattern.flags & ~re.IGNORECASE))
    if chars is None:
        return ""
    chars = frozenset(c.lower() for c in chars)
    return "(?=[" + "".join(re.escape(c) for c in sorted(chars)) + "])"


#: the same patterns without IGNORECASE, run on the lowercased text (about twice as fast)
_LOWER_RULES = [(re.compile(_lead(r[0]) + r[0].pattern, r[0].flags & ~re.IGNORECASE), r[1]) for r in _RULES]
#: each rule's gate (a cheap regex every match contains), or None
_GATES = [r[2] if len(r) > 2 else None for r in _RULES]
_VOCAB = frozenset().union(
    *(t.words for t in _TRIGGERS if t.words is not None), *(w for t in _TRIGGERS for w, _ in t.also)
)
_ALWAYS = any(t.words is None for t in _TRIGGERS)
#: inverted index of the prefilter: trigger word -> rules it may wake; rules woken by any digit / always run
_BY_WORD: dict[str, set[int]] = {}
for _i, _t in enumerate(_TRIGGERS):
    for _w in _t.words or ():
        _BY_WORD.setdefault(_w, set()).add(_i)
_BY_DIGIT = frozenset(i for i, t in enumerate(_TRIGGERS) if t.digit)
_EVERY = frozenset(i for i, t in enumerate(_TRIGGERS) if t.words is None)
_WITH_ALSO = frozenset(i for i, t in enumerate(_TRIGGERS) if t.also)


def _candidates(words: set[str], has_digit: bool) -> list[int]:
    """Indices of the rules whose requirement is met, in rule order."""
    todo = set(_EVERY)
    if has_digit:
        todo |= _BY_DIGIT
    for w in words:
        todo |= _BY_WORD.get(w, set())
    return sorted(i for i in todo if i not in _WITH_ALSO or _TRIGGERS[i].rest_met(words, has_digit))


_HAS_DIGIT = re.compile(r"\d")
_DURATION = re.compile(rf"\bfor\s+(?:(?:the|about|almost|nearly|over|around)\s+)?({NUM})\s+({UNIT[3:-3]})s?\b",
                       re.IGNORECASE)  # fmt: skip
MAX_CHARS = 200_000


def _durations(ctx: Ctx) -> list[Hit]:
    out: list[Hit] = []
    for m in _DURATION.finditer(ctx.text):
        n, u = number(m.group(1)) or 0, unit(m.group(2))
        if u == "fortnight":
            n, u = 2 * n, "week"
        if n <= 0:
            continue
        start = cal.shift(ctx.anchor, -n, u)
        vague = m.group(1).lower() in VAGUE_NUMBERS
        conf = 0.5 if vague else 0.8
        out.append(Hit(m.span(), start, ctx.anchor, u, conf, kind="duration", data={"n": n, "unit": u}))
    return out


def resolve_chunk(text: str, anchor: datetime, prefer: str, prefilter: bool = True) -> list[Hit]:
    """All hits in ``text``, selected and combined (``prefilter``: skip rules that cannot match)."""
    ctx = Ctx(anchor, prefer, text)
    hits: list[Hit] = []
    lower, has_digit = text.lower(), bool(_HAS_DIGIT.search(text))
    runs = letter_runs(lower)
    words = present(lower, _VOCAB, runs)
    if prefilter and not words and not has_digit and not _ALWAYS:
        return []
    passed: dict[object, bool] = {}  # gate -> found (gates are shared between rules)
    same_length = len(lower) == len(text)
    rules, target = (_LOWER_RULES, lower) if same_length else (_RULES, text)
    for index in _candidates(words, has_digit) if prefilter else range(len(rules)):
        pattern, handler = rules[index]
        gate = _GATES[index]
        if prefilter and gate is not None:
            if gate not in passed:
                passed[gate] = any_word(gate, lower, runs) if isinstance(gate, frozenset) else bool(gate.search(lower))
            if not passed[gate]:
                continue
        for m in pattern.finditer(target):
            try:
                h = handler(m, ctx)
            except (ValueError, OverflowError, KeyError, TypeError, IndexError):
                h = None
            if h is not None and h.start < h.end:
                hits.append(h)
    try:
        if "for" in runs:
            hits.extend(_durations(ctx))
    except (ValueError, OverflowError, KeyError):
        pass
    try:
        return combine(select(hits), ctx)
    except (ValueError, OverflowError, KeyError, TypeError, IndexError):
        return []


class RulesResolver(TemporalBase):
    """Rule-based resolver (conventions in the module docstring).

    Args:
        prefer: ``future``, ``past`` or ``nearest``: how a bare weekday, month, day or quarter without a year
            is read when nothing around it gives a direction (:mod:`memlab.text.temporal.tense`).
        min_confidence: Results below this confidence are dropped.
        default_direction: The former name of ``prefer`` (version 1 configs); wins when given.
    """

    name: ClassVar[str] = "rules"
    version: ClassVar[int] = 2

    def __init__(
        self, prefer: str = "future", min_confidence: float = 0.0, default_direction: str | None = None
    ) -> None:
        self.prefer = prefer
        self.min_confidence = min_confidence
        self.default_direction = default_direction

    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """Resolve every expression in ``text`` against ``anchor`` (never raises)."""
        if not isinstance(text, str) or not text or not isinstance(anchor, datetime):
            return []
        prefer = self.default_direction or self.prefer
        if prefer not in PREFER:
            raise MemlabError(f"temporal.prefer must be one of {', '.join(PREFER)}, not {prefer!r}")
        text = text[:MAX_CHARS]
        out: list[TemporalRef] = []
        for h in resolve_chunk(text, anchor, prefer):
            if h.conf < self.min_confidence or not h.start < h.end:
                continue
            s, e = h.span
            out.append(TemporalRef(text[s:e], (s, e), h.start, h.end, h.grain, float(h.conf), h.kind))
        return out
