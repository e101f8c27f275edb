"""Rules for times of day: clock times (``3pm``, ``15:30``, ``half past three``), noon and midnight, parts of
the day (``this morning``, ``in the evening``). A time lands on the anchor's day unless a date stands beside
it (``tomorrow at 5pm``, ``1:56 pm on 8 May, 2023``); see :mod:`memlab.text.temporal.combine`.

A clock time without am/pm and an hour from 1 to 6 is read as afternoon (``at 3:30`` = 15:30).
"""

from __future__ import annotations

import re
from datetime import timedelta

from memlab.text.temporal import calendar as cal
from memlab.text.temporal.hits import Ctx, Hit, Rule

_F = re.IGNORECASE

HOUR_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}  # fmt: skip
MINUTE_TENS = {"ten": 10, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "oh": 0, "o": 0, "zero": 0}
MINUTE_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
MINUTE_TEENS = {"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16}
MINUTE_TEENS |= {"seventeen": 17, "eighteen": 18, "nineteen": 19}
PODS = {
    "morning": (0, 12), "early morning": (0, 9), "afternoon": (12, 19), "evening": (18, 24), "night": (18, 24),
    "lunch": (12, 14), "lunchtime": (12, 14), "late evening": (21, 24), "late night": (21, 24),
}  # fmt: skip
PM_PODS = {"afternoon", "evening", "night", "late evening", "late night", "tonight"}

_HW = "|".join(sorted(HOUR_WORDS, key=len, reverse=True))
_MW = (
    r"(?:(?:twenty|thirty|forty|fifty)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?|"
    + "|".join(sorted(MINUTE_TEENS, key=len, reverse=True))
    + r"|ten|(?:oh|o|zero)[\s-](?:one|two|three|four|five|six|seven|eight|nine))"
)
_AMPM = r"(a\.\s?m\.|p\.\s?m\.|a\s?m\b|p\s?m\b|(?<=\d)(?:a|p)\b\.?)"
TZ_OFFSETS = {"gmt": 0, "utc": 0, "bst": 60, "cet": 60, "cest": 120, "est": -300, "edt": -240, "cst": -360}
TZ_OFFSETS |= {"cdt": -300, "mst": -420, "mdt": -360, "pst": -480, "pdt": -420, "ist": 330}
#: a zone name, or an offset from GMT/UTC ("GMT +8", "UTC-05:30"), optionally in parentheses
ZONE = r"(?:(?:gmt|utc)\s?[+-]\d{1,2}(?::?\d\d)?\b|(?:" + "|".join(TZ_OFFSETS) + r")\b)"
_TZ = rf"(?:\s*\(?({ZONE})\)?)?"
_OFFSET = re.compile(r"(?:gmt|utc)\s*([+-])\s*(\d{1,2})(?::?(\d\d))?", re.IGNORECASE)


def zone_minutes(zone: str) -> int | None:
    """Minutes east of UTC of a zone name or a ``GMT+8`` offset (None for an unknown zone)."""
    m = _OFFSET.fullmatch(zone.strip())
    if m:
        minutes = int(m.group(2)) * 60 + int(m.group(3) or 0)
        return minutes if m.group(1) == "+" else -minutes
    return TZ_OFFSETS.get(zone.strip().lower())


def tod_hit(span: tuple[int, int], ctx: Ctx, h: int, mi: int, s: int, grain: str, known: bool, conf: float = 0.9,
            needs_merge: bool = False, tz: str | None = None, weak: bool = False) -> Hit | None:  # fmt: skip
    """A time-of-day hit on the anchor's day (hour 24 = the next midnight).

    With a timezone abbreviation (``8:00 GMT``) the time is converted to the anchor's zone (minute grain);
    ``data["tz_shift"]`` keeps the shift in minutes so that a range's zone applies to both ends.
    """
    if not (0 <= h <= 24 and 0 <= mi < 60 and 0 <= s < 60):
        return None
    shift = 0
    if tz:
        off = ctx.anchor.utcoffset()
        zone = zone_minutes(tz)
        if zone is None or abs(zone) > 14 * 60:
            return None
        shift = (int(off.total_seconds() // 60) if off is not None else 0) - zone
        total = h * 60 + mi + shift
        h, mi, grain = total // 60, total % 60, "minute" if grain == "hour" else grain
    start = cal.day_start(ctx.anchor) + timedelta(hours=h, minutes=mi, seconds=s)
    step = {"hour": timedelta(hours=1), "minute": timedelta(minutes=1), "second": timedelta(seconds=1)}[grain]
    data = {"tod": (h, mi, s), "known": known, "weak": weak, "tz_shift": shift if tz else None}
    return Hit(span, start, start + step, grain, conf, role="tod", needs_merge=needs_merge, data=data)


def apply_ampm(h: int, ampm: str | None) -> tuple[int, bool]:
    """24-hour value of ``h`` given an am/pm marker (``None``: 1-6 read as pm); second item: marker known."""
    if ampm:
        pm = ampm.lower().startswith("p")
        if h == 12:
            return (12 if pm else 24), True
        return (h + 12 if pm and h < 12 else h), True
    return (h + 12 if 1 <= h <= 6 else h), False


def _minute_words(text: str) -> int | None:
    parts = re.split(r"[\s-]+", text.lower())
    if len(parts) == 1:
        w = parts[0]
        return MINUTE_TENS.get(w) if w in MINUTE_TENS else MINUTE_TEENS.get(w)
    if parts[0] in MINUTE_TENS and parts[1] in MINUTE_ONES:
        return MINUTE_TENS[parts[0]] + MINUTE_ONES[parts[1]]
    return None


def _clock_ampm(m: re.Match[str], ctx: Ctx) -> Hit | None:
    h = int(m.group(1))
    if m.group(2) is None and len(m.group(1)) > 2:
        return None
    mi = int(m.group(2) or 0)
    s = int(m.group(3) or 0)
    if h > 12:
        return None
    h24, _ = apply_ampm(h, m.group(4))
    grain = "second" if m.group(3) else "minute" if m.group(2) else "hour"
    return tod_hit(m.span(), ctx, h24, mi, s, grain, True, tz=m.group(5))


def _clock_compact(m: re.Match[str], ctx: Ctx) -> Hit | None:
    h24, _ = apply_ampm(int(m.group(1)), m.group(3))
    return tod_hit(m.span(), ctx, h24, int(m.group(2)), 0, "minute", True, tz=m.group(4))


def _clock24(m: re.Match[str], ctx: Ctx) -> Hit | None:
    h, mi = int(m.group(1)), int(m.group(2))
    s = int(m.group(3)) if m.group(3) else 0
    known = h > 12 or m.group(1).startswith("0")
    if not known:
        h, _ = apply_ampm(h, None)
    return tod_hit(
        m.span(), ctx, h, mi, s, "second" if m.group(3) else "minute", known or bool(m.group(4)), 0.8, tz=m.group(4)
    )


def _clock_h(m: re.Match[str], ctx: Ctx) -> Hit | None:
    return tod_hit(m.span(), ctx, int(m.group(1)), int(m.group(2) or 0), 0, "minute", True, 0.8, tz=m.group(3))


def _word_clock(m: re.Match[str], ctx: Ctx) -> Hit | None:
    h = HOUR_WORDS[m.group(1).lower()]
    mi = _minute_words(m.group(2)) if m.group(2) else 0
    if mi is None:
        return None
    ampm = m.group(3) if (m.lastindex or 0) >= 3 else None
    h24, known = apply_ampm(h, ampm)
    return tod_hit(m.span(), ctx, h24, mi, 0, "minute" if m.group(2) else "hour", known, 0.8)


def _noon(m: re.Match[str], ctx: Ctx) -> Hit | None:
    return tod_hit(m.span(), ctx, 24 if m.group(1).lower() == "midnight" else 12, 0, 0, "hour", True)


def _past_to(m: re.Match[str], ctx: Ctx) -> Hit | None:
    q = m.group(1).lower()
    mins = 30 if q == "half" else 15 if "quarter" in q else int(q) if q.isdigit() else _minute_words(q)
    if mins is None or mins >= 60:
        return None
    target = m.group(3).lower()
    explicit = q in ("half", "quarter", "a quarter") or "minute" in m.group(0).lower()
    if not explicit and not m.group(4) and target not in ("noon", "midnight"):
        return None
    if target in ("noon", "midnight"):
        h, known = (12 if target == "noon" else 24), True
    else:
        hv = int(target) if target.isdigit() else HOUR_WORDS[target]
        h, known = apply_ampm(hv, m.group(4)) if hv <= 12 else (hv, True)
    total = h * 60 + (mins if m.group(2).lower() in ("past", "after") else -mins)
    return tod_hit(m.span(), ctx, total // 60, total % 60, 0, "minute", known)


def _oclock(m: re.Match[str], ctx: Ctx) -> Hit | None:
    hv = int(m.group(1)) if m.group(1).isdigit() else HOUR_WORDS[m.group(1).lower()]
    h, known = apply_ampm(hv, m.group(2))
    return tod_hit(m.span(), ctx, h, 0, 0, "hour", known)


def _at_bare(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``at 8`` alone is too ambiguous: kept only when a part of day or a date stands beside it."""
    hv = int(m.group(2)) if m.group(2).isdigit() else HOUR_WORDS[m.group(2).lower()]
    if hv > 24:
        return None
    weak = not m.group(1) and not m.group(3)
    if weak and not _POD_NEAR.search(ctx.text, max(0, m.start() - 30), m.end() + 30):
        return None  # a bare number joins only a part of the day beside it ("8 tonight"): none here
    return tod_hit(
        m.span(),
        ctx,
        hv,
        0,
        0,
        "hour",
        hv > 12,
        0.7,
        needs_merge=not m.group(3),
        tz=m.group(3),
        weak=weak,
    )


def _clock_range(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``3-4pm``, ``9-11am``, ``3:30-6 p.m.``: both ends share the marker (``11-1pm`` starts at 11am)."""
    h1, h2 = int(m.group(1)), int(m.group(3))
    if not (1 <= h1 <= 12 and 1 <= h2 <= 12):
        return None
    e, _ = apply_ampm(h2, m.group(5))
    s_, _ = apply_ampm(h1, m.group(5))
    if s_ > e:
        s_ -= 12
    minute = bool(m.group(2) or m.group(4))
    a = tod_hit(m.span(), ctx, s_, int(m.group(2) or 0), 0, "minute" if minute else "hour", True)
    b = tod_hit(m.span(), ctx, e, int(m.group(4) or 0), 0, "minute" if minute else "hour", True)
    if a is None or b is None or not a.start < b.end:
        return None
    return Hit(m.span(), a.start, b.end, a.grain, 0.9, role="tod", data={"tod": None})


_FRACTIONS = {"half an": 30, "a half": 30, "1/2": 30, "a quarter of an": 15, "quarter of an": 15, "1/4": 15}
_FRACTIONS |= {"three quarters of an": 45, "three-quarters of an": 45, "3/4": 45}


def _in_fraction(m: re.Match[str], ctx: Ctx) -> Hit | None:
    """``in half an hour`` / ``in 1/4 h`` (second grain) and ``in 2h`` (minute grain)."""
    if m.group(1):
        t = ctx.anchor + timedelta(minutes=_FRACTIONS[" ".join(m.group(1).lower().split())])
        return Hit(m.span(), cal.floor(t, "second"), cal.floor(t, "second") + timedelta(seconds=1), "second", 0.9)
    t = ctx.anchor + timedelta(hours=int(m.group(2)))
    return Hit(m.span(), cal.floor(t, "minute"), cal.floor(t, "minute") + timedelta(minutes=1), "minute", 0.9)


def _pod(m: re.Match[str], ctx: Ctx) -> Hit | None:
    mod = (m.group(1) or "").lower().strip()
    name = " ".join(((m.group(2) or "") + " " + m.group(3)).lower().split())
    h0, h1 = PODS.get(name) or PODS[m.group(3).lower()]
    d = cal.day_start(ctx.anchor)
    data = {"pod": (h0, h1), "pm": m.group(3).lower() in PM_PODS}
    return Hit(m.span(), d + timedelta(hours=h0), d + timedelta(hours=h1), "hour", 0.8, role="tod",
               needs_merge=not mod, data=data)  # fmt: skip


#: the minute words of a spelled clock time ("five thirty", "ten oh five"), as whole words
_MINUTE_WORDS = frozenset({*MINUTE_TENS, *MINUTE_TEENS})
#: "at"/"@" before the number, a zone after it or a part of the day beside it (whole words)
_AT_BARE_GATE = frozenset(
    {"at", "@", "morning", "afternoon", "evening", "night", "lunch", "lunchtime", "tonight", "tonite", *TZ_OFFSETS}
)
_POD_NEAR = re.compile(r"morning|afternoon|evening|night|lunch|toni", re.IGNORECASE)
#: cheap necessary conditions (gates) of the costliest clock rules: an am/pm marker after a digit, ...
_AMPM_GATE = re.compile(r"\d\s*[ap](?:\.|m\b|\b)")
_PAST_TO_GATE = re.compile(rf"\b(?:past|after|to|till|before)\s+(?:\d|noon|midnight|{_HW})")

RULES: list[Rule] = [
    (
        re.compile(
            rf"\b(1[0-2]|[1-9])(?::([0-5]\d))?\s*(?:-|–|to|till|until)\s*(1[0-2]|[1-9])(?::([0-5]\d))?\s*{_AMPM}", _F
        ),
        _clock_range,
        _AMPM_GATE,
    ),
    (
        re.compile(
            r"\bin\s+(?:about\s+)?(?:(half an|a half|1/2|a quarter of an|quarter of an|1/4|"
            r"three[\s-]quarters of an|3/4)\s*(?:hours?|hrs?|h)\b|(\d{1,2})\s*h\b)",
            _F,
        ),
        _in_fraction,
        frozenset({"in"}),
    ),
    (
        re.compile(
            rf"(?:\bat\s+|@\s*|\baround\s+|\babout\s+)?\b(\d{{1,2}})(?::(\d{{2}}))?(?::(\d{{2}}))?\s*{_AMPM}{_TZ}", _F
        ),
        _clock_ampm,
        _AMPM_GATE,
    ),
    (
        re.compile(rf"(?:\bat\s+|@\s*|\baround\s+)?\b(1[0-2]|[1-9])([0-5]\d)\s*{_AMPM}{_TZ}", _F),
        _clock_compact,
        _AMPM_GATE,
    ),
    (
        re.compile(
            rf"(?:\bat\s+|@\s*|\baround\s+)?\b([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?\b(?!\s*[ap]\.?\s?m){_TZ}", _F
        ),
        _clock24,
    ),
    (re.compile(rf"(?:\bat\s+|@\s*)?\b([01]?\d|2[0-3])h([0-5]\d)?\b{_TZ}", _F), _clock_h, frozenset({"h"})),
    (
        re.compile(rf"\b(?:at\s+|@\s*)?({_HW})(?:[\s-]({_MW}))?\s*{_AMPM}", _F),
        _word_clock,
        re.compile(r"\b[ap]\.?\s?m\b"),  # after a word (not a digit) only a.m./p.m./am/pm/a m/p m
    ),
    (
        re.compile(
            rf"\b(?:at\s+|@\s*)?({_HW})[\s-]({_MW})\b(?!\s*(?:days?|weeks?|months?|years?|minutes?|hours?))", _F
        ),
        _word_clock,
        _MINUTE_WORDS,
    ),
    (re.compile(r"\b(?:at\s+)?(?:the\s+)?(noon|midday|mid day|midnight)\b", _F), _noon),
    (
        re.compile(
            r"(?<![:\d])\b(?:at\s+)?(?:for\s+)?(half|a\s+quarter|quarter|\d{1,2}|twenty|ten|five)\s+(?:minutes?\s+)?"
            rf"(past|after|to|till|before)\s+(\d{{1,2}}|noon|midnight|{_HW})(?!\d)(?:\s*{_AMPM})?",
            _F,
        ),
        _past_to,
        _PAST_TO_GATE,
    ),
    (re.compile(rf"\b(?:at\s+)?(\d{{1,2}}|{_HW})\s*o'?\s?clock\b(?:\s*{_AMPM})?", _F), _oclock),
    (
        re.compile(
            rf"(\bat\s*|@\s*)?\b(\d{{1,2}}|{_HW})\b(?![:.,]\d|\s*(?:am|pm|a\.m|p\.m|%|/|-\d))"
            rf"{_TZ}",
            _F,
        ),
        _at_bare,
        _AT_BARE_GATE,
    ),
    (
        re.compile(
            r"\b(this\s+|in\s+the\s+|during\s+the\s+|at\s+|for\s+|today\s+)?(early|late)?\s*"
            r"(morning|afternoon|evening|night|lunchtime|lunch)\b",
            _F,
        ),
        _pod,
    ),
]
