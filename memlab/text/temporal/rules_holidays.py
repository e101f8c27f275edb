"""Rules for common holidays (US-centred, as in English news; Duckling's set is larger): their dates in a given year.

Fixed dates (Christmas, New Year's Day, Independence Day, Halloween, Veterans Day, ...), n-th weekdays
(Thanksgiving = the fourth Thursday of November, Labor Day, Memorial Day, Mother's Day, Election Day = the
Tuesday after the first Monday of November, ...) and days around Easter (Gregorian computus: Good Friday, Easter
Monday, Ash Wednesday, Palm Sunday, Pentecost). ``<holiday> week`` is the ISO week containing it,
``<holiday> weekend`` the Saturday and Sunday of its week (a Monday holiday: the weekend before it and the
Monday). ``last`` / ``next`` + holiday: the latest one before / the first after the anchor's day; a year beside it
(``Christmas 1989``, ``Thanksgiving of next year``) places it in that year; else the occurrence the text leans to
(:mod:`.occurrence`: ``was found Thanksgiving Day`` in a January article is the one two months before).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from memlab.text.temporal import calendar as cal
from memlab.text.temporal.hits import Ctx, Hit, Rule
from memlab.text.temporal.lexicon import YEAR
from memlab.text.temporal.occurrence import pick

FIXED = {
    "new year's day": (1, 1), "new year's": (1, 1), "new years day": (1, 1), "new year's eve": (12, 31),
    "new years eve": (12, 31), "valentine's day": (2, 14), "valentines day": (2, 14), "st. patrick's day": (3, 17),
    "st patrick's day": (3, 17), "saint patrick's day": (3, 17), "april fools' day": (4, 1),
    "april fool's day": (4, 1), "earth day": (4, 22), "may day": (5, 1), "cinco de mayo": (5, 5),
    "flag day": (6, 14), "canada day": (7, 1), "independence day": (7, 4), "the fourth of july": (7, 4),
    "fourth of july": (7, 4), "bastille day": (7, 14), "halloween": (10, 31), "all saints' day": (11, 1),
    "veterans day": (11, 11), "veterans' day": (11, 11), "armistice day": (11, 11), "remembrance day": (11, 11),
    "christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "xmas": (12, 25),
    "boxing day": (12, 26),
}  # fmt: skip
#: name -> (month, weekday Monday=0, n-th; -1 = last)
NTH = {
    "martin luther king day": (1, 0, 3), "martin luther king jr. day": (1, 0, 3), "mlk day": (1, 0, 3),
    "presidents' day": (2, 0, 3), "presidents day": (2, 0, 3), "president's day": (2, 0, 3),
    "washington's birthday": (2, 0, 3), "mother's day": (5, 6, 2), "mothers day": (5, 6, 2),
    "memorial day": (5, 0, -1), "father's day": (6, 6, 3), "fathers day": (6, 6, 3), "labor day": (9, 0, 1),
    "labour day": (9, 0, 1), "columbus day": (10, 0, 2), "thanksgiving day": (11, 3, 4), "thanksgiving": (11, 3, 4),
}  # fmt: skip
#: name -> days from Easter Sunday
EASTER = {
    "easter sunday": 0, "easter": 0, "easter day": 0, "good friday": -2, "easter monday": 1, "holy saturday": -1,
    "maundy thursday": -3, "holy thursday": -3, "palm sunday": -7, "ash wednesday": -46, "pentecost": 49,
    "whit sunday": 49, "ascension day": 39, "shrove tuesday": -47, "mardi gras": -47,
}  # fmt: skip
OTHER = {"election day": "election", "black friday": "black friday"}
NAMES = {**FIXED, **NTH, **EASTER, **OTHER}


def _written(name: str) -> str:
    """A regex for a holiday name as written (any apostrophe or none, any spacing)."""
    return re.escape(name).replace("'", "['’]?").replace(r"\ ", r"\s+")


_COMMON = {"day", "eve", "the", "of", "s", "jr", "new", "year", "years", "may", "april"} | {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}  # fmt: skip


def _distinctive(name: str) -> str:
    tokens = re.findall(r"[a-z]+", name)
    return max([t for t in tokens if t not in _COMMON] or tokens, key=len)


def easter(year: int) -> date:
    """Gregorian Easter Sunday (anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    month, day = divmod(h + leap - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _nth(year: int, month: int, wd: int, n: int) -> date:
    if n > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(wd - first.weekday()) % 7 + 7 * (n - 1))
    last = date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - wd) % 7)


def canonical(name: str) -> str:
    """The table key of a holiday name as written (case, apostrophes and spacing normalised)."""
    key = " ".join(name.lower().replace("’", "'").split())
    if key in NAMES:
        return key
    return key.replace("'", "") if key.replace("'", "") in NAMES else key


def holiday(name: str, year: int) -> date | None:
    """The date of holiday ``name`` in ``year`` (None for an unknown name)."""
    key = canonical(name)
    if key in FIXED:
        return date(year, *FIXED[key])
    if key in NTH:
        return _nth(year, *NTH[key])
    if key in EASTER:
        return easter(year) + timedelta(days=EASTER[key])
    if key == "election day":
        return _nth(year, 11, 0, 1) + timedelta(days=1)
    if key == "black friday":
        return _nth(year, 11, 3, 4) + timedelta(days=1)
    return None


def holiday_interval(name: str, year: int, extent: str, like: datetime) -> tuple[datetime, datetime, str] | None:
    """The holiday's day (or its ``week`` / ``weekend``) in ``year``, as day starts in ``like``'s zone."""
    d = holiday(name, year)
    if d is None:
        return None
    start = cal.day_start(like).replace(year=d.year, month=d.month, day=d.day)
    if extent == "week":
        monday = start - timedelta(days=start.weekday())
        return monday, monday + timedelta(weeks=1), "week"
    if extent in ("weekend", "week-end", "week end"):
        sat = start - timedelta(days=start.weekday()) + timedelta(days=5)
        if start.weekday() == 0:
            return start - timedelta(days=2), start + timedelta(days=1), "day"
        return sat, sat + timedelta(days=2), "day"
    return start, start + timedelta(days=1), "day"


def _holiday(m: re.Match[str], ctx: Ctx) -> Hit | None:
    mod, name, extent = (m.group(1) or "").lower(), m.group(2), (m.group(3) or "").lower()
    if canonical(name) == "may day" and not ctx.text[m.start(2)].isupper():
        return None
    a = ctx.anchor
    if m.group(4):
        got = holiday_interval(name, int(m.group(4)), extent, a)
        return None if got is None else Hit(m.span(), *got, 1.0)
    cands = [c for y in range(a.year - 2, a.year + 3) if (c := holiday_interval(name, y, extent, a)) is not None]
    if not cands:
        return None
    day = cal.day_start(a)
    if mod in ("last", "past", "previous"):
        before = [c for c in cands if c[0] < day]
        got = before[-1] if before else None
    elif mod in ("next", "coming", "upcoming"):
        after = [c for c in cands if c[0] > day]
        got = after[0] if after else None
    else:
        chosen = pick([(s, e) for s, e, _ in cands], a, ctx.lean(m.span()))
        got = next((c for c in cands if (c[0], c[1]) == chosen), None)
    if got is None:
        return None
    spec = None if mod else ("holiday", canonical(name), extent)
    return Hit(m.span(), *got, 0.9 if mod else 0.8, data={"relocate": spec})


def _rule(names: list[str], gate: frozenset[str] | re.Pattern[str]) -> Rule:
    alternation = "|".join(_written(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(
        rf"\b(?:(last|past|previous|this|next|coming|upcoming)\s+)?((?:{alternation}))(?![\w'’])"
        rf"(?:\s+(week(?:[\s-]?end)?))?(?:,?\s+({YEAR})\b)?",
        re.IGNORECASE,
    )
    return pattern, _holiday, gate


#: names with a distinctive word (the rule runs only when one occurs), and the others ("new year's",
#: "good friday": every word is common) behind a regex of the names themselves
_WEAK = _COMMON | {"fourth", "good", "black"}
_PLAIN = [n for n in NAMES if _distinctive(n) not in _WEAK]
_SHARED = [n for n in NAMES if _distinctive(n) in _WEAK]
RULES: list[Rule] = [
    _rule(_PLAIN, frozenset(_distinctive(n) for n in _PLAIN)),
    _rule(_SHARED, re.compile("|".join(_written(n) for n in _SHARED))),
]
