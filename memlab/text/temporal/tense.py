"""Which way an underspecified expression points, read from the words around it.

A weekday, a month or a day without a year, a quarter without a year: each names several occurrences, and the
sentence says which one. :func:`cues` finds the tense cues of a text once; :func:`lean_at` picks the cue that
governs an expression: the nearest one in the same clause (clauses end at ``;``, quotation marks, ``--`` and
sentence ends), else the nearest within ``FALLBACK_CHARS`` characters, else none.

Cues, strongest first where they overlap:

- ``future``: will, won't, shall, 'll, would, going to, gonna; is/are/was/were to; scheduled, expected, due,
  set, slated, planned, supposed + to/for; plans/intends/hopes/aims/wants to; about to, soon;
  a deadline preposition right before the expression or starting it (until, till, by, through, effective,
  as early as, as soon as, no later than; a clock time may stand between: ``until 9 a.m. Tuesday``).
- ``past``: a past-tense or perfect verb (was, were, had, did, has/have, a verb ending in -ed, a common
  irregular past form such as said, went, took), ago, previously, yesterday; ``since`` right
  before the expression.
- ``present``: is, are, am, says, now, currently, can, must, should, may/might (lowercase): the nearest
  occurrence either way. A possessive expression (``Wednesday's ruling``, ``December's figures``) is read the
  same way: it names a thing, and no verb governs when it happened.

No cue: the caller's default (``prefer``). The result is a :class:`Lean`: the direction and whether it came
from a cue (a cue lets a weekday equal to the anchor's own be that very day; see
:func:`memlab.text.temporal.rules_relative.resolve_weekday`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_IRREGULAR = (
    r"was|were|had|did|said|went|came|got|made|took|saw|told|gave|found|thought|knew|left|felt|kept|began|"
    r"brought|bought|caught|taught|fought|sought|built|sent|spent|lent|meant|met|led|fed|held|sold|stood|"
    r"understood|wrote|rode|drove|rose|fell|won|lost|paid|laid|ran|sat|spoke|broke|chose|froze|stole|woke|"
    r"wore|tore|swore|drew|grew|threw|flew|shot|struck|hung|sang|rang|sank|drank|swam|forgot|hid|shook|"
    r"slid|fled|dealt|dug|heard|became|overcame|withdrew|undertook|arose|awoke|forbade|sprang|stuck|stung|"
    r"swung|wept|wound"
)
_NOT_PAST = frozenset({
    "speed", "breed", "proceed", "exceed", "succeed", "indeed", "hundred", "bleed", "greed", "creed", "steed",
    "embed", "united", "limited",
})  # fmt: skip
_IRREGULAR_SET = frozenset(_IRREGULAR.split("|"))
_FUTURE_WORDS = frozenset({"will", "won't", "shall", "would", "wouldn't", "gonna", "soon"})
_FUTURE_PAIRS = {
    "going": {"to"}, "has": {"to"}, "have": {"to"}, "is": {"to"}, "are": {"to"}, "was": {"to"}, "were": {"to"},
    "about": {"to"}, "planning": {"to"}, "looking": {"forward"}, "can't": {"wait"},
    **{w: {"to", "for"} for w in ("scheduled", "expected", "due", "set", "slated", "planned", "supposed", "poised",
                                  "likely")},
    **{w: {"to"} for w in ("plan", "plans", "intend", "intends", "hope", "hopes", "aim", "aims", "want", "wants",
                           "promised", "vowed", "agreed", "pledged")},
}  # fmt: skip
_PAST_WORDS = frozenset({"ago", "previously", "yesterday", "has", "have", "hasn't", "haven't"}) | _IRREGULAR_SET
_PRESENT_WORDS = frozenset({"is", "are", "am", "says", "now", "currently", "can", "must", "should", "may", "might"})
_TOKEN = re.compile(r"(?<![a-z0-9])[a-z]+(?:'[a-z]+)?")
_BOUNDARY = re.compile(r";|\"|“|”|``|''|\s--\s|[.!?]\s+(?=[A-Z\"'`])")
_PREP = r"(until|till|through|by|since|effective|as\s+(?:early|soon)\s+as|no\s+later\s+than)"
_CLOCK = r"(?:(?:\d{1,2}(?::\d\d)?\s*(?:[ap]\.?\s?m\.?)?|noon|midnight)\s+(?:[a-z]{3}\s+)?)?"
#: a deadline / start preposition right before the expression (a clock time may stand between: "until 9 a.m. Tuesday")
_BEFORE = re.compile(rf"\b{_PREP}\s+(?:the\s+)?{_CLOCK}$", re.IGNORECASE)
#: the same preposition as the first word of the expression's own span ("until March", "by August")
_START = re.compile(rf"{_PREP}\s", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['’]s\b")


#: How far (characters) a cue outside the expression's clause may stand and still count.
FALLBACK_CHARS = 150


class Lean(NamedTuple):
    """A direction (``past``, ``future`` or ``nearest``) and whether a cue in the text gave it."""

    direction: str
    cued: bool


class Cues(NamedTuple):
    """The cues of one text: ``(start, end, direction)`` in text order, and the clause boundaries."""

    items: list[tuple[int, int, str]]
    bounds: list[int]


_WORD_DIRECTION = {
    **{w: "nearest" for w in _PRESENT_WORDS},
    **{w: "past" for w in _PAST_WORDS},
    **{w: "future" for w in _FUTURE_WORDS},
}


def cues(text: str) -> Cues:
    """Every tense cue in ``text`` (words are matched lowercased; see the module docstring).

    A word cues by itself (will, said, is ...), as a verb ending in -ed (not a name capitalised mid-sentence
    such as Alfred, nor speed or hundred), or with the next word as a future phrase (``going to``,
    ``expected to``), which then replaces its own reading.
    """
    lower = text.lower()
    items: list[tuple[int, int, str]] = []
    prev, prev_start, prev_end = "", -1, -1
    for m in _TOKEN.finditer(lower):
        word = m.group()
        start, end = m.span()
        if prev and word in _FUTURE_PAIRS.get(prev, ()) and lower[prev_end:start].isspace():
            if items and items[-1][0] == prev_start:
                items.pop()
            items.append((prev_start, end, "future"))
            prev = ""
            continue
        prev, prev_start, prev_end = word, start, end
        got = _WORD_DIRECTION.get(word)
        if got is not None:
            if word != "may" or text[start] != "M":  # "May" is a month
                items.append((start, end, got))
        elif word.endswith("ed"):
            if len(word) >= 5 and word not in _NOT_PAST and not (start and text[start].isupper()):
                items.append((start, end, "past"))
        elif word.endswith("'ll"):
            items.append((start, end, "future"))
    bounds = [m.start() for m in _BOUNDARY.finditer(text)]
    return Cues(items, bounds)


def _clause(bounds: list[int], span: tuple[int, int], n: int) -> tuple[int, int]:
    lo, hi = 0, n
    for b in bounds:
        if b < span[0]:
            lo = b
        elif b >= span[1]:
            hi = b
            break
    return lo, hi


def lean_at(text: str, found: Cues, span: tuple[int, int], prefer: str) -> Lean:
    """The direction governing the expression at ``span`` (see the module docstring)."""
    prep = _START.match(text, span[0], span[1]) or _BEFORE.search(text, max(0, span[0] - 40), span[0])
    if prep:
        return Lean("past" if prep.group(1).lower() == "since" else "future", True)
    if _POSSESSIVE.match(text, span[1]):  # "Wednesday's ruling", "December's figures": no verb governs it
        return Lean("nearest", True)
    lo, hi = _clause(found.bounds, span, len(text))
    best: tuple[int, str] | None = None
    fallback: tuple[int, str] | None = None
    for s, e, direction in found.items:
        if span[0] <= s < span[1] or span[0] < e <= span[1]:
            continue  # a word of the expression itself ("last", "next", "earlier")
        dist = span[0] - e if e <= span[0] else s - span[1]
        if lo <= s and e <= hi and (best is None or dist < best[0]):
            best = (dist, direction)
        if dist <= FALLBACK_CHARS and (fallback is None or dist < fallback[0]):
            fallback = (dist, direction)
    got = best or fallback
    return Lean(got[1], True) if got else Lean(prefer, False)
