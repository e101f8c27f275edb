"""Which way an underspecified expression points, read from the words around it.

A weekday, a month or a day without a year, a quarter without a year: each names several occurrences, and the
sentence says which one. :func:`cues` finds the tense cues of a text once; :func:`lean_at` picks the cue that
governs an expression: the nearest one in the same clause (clauses end at ``;``, quotation marks, ``--`` and
sentence ends), else the nearest within ``FALLBACK_CHARS`` characters, else none.

Cues (strong: the tense of a verb itself; weak: only a lean):

- ``future``, strong: will, won't, shall, 'll, gonna, soon, going to, about to, is/are to, scheduled / due /
  set / slated / supposed / poised to or for. Weak: would; expected / likely / planned to or for; plans,
  intends, hopes, aims, wants, promised, vowed, agreed, pledged, expects, was/were/has/have + to; scheduled,
  planned, slated, expects, plans; an infinitive (``to testify``; not ``to the``); a deadline preposition right
  before the expression or starting it (until, till, through, by, effective, as early as, as soon as, no later
  than; a clock time may stand between: ``until 9 a.m. Tuesday``).
- ``past``, strong: a past-tense verb (was, were, had, did, an irregular form such as went or took, a verb
  ending in -ed that is not a participle after be/been/being nor an adjective after a determiner: ``will be
  paid``, ``the proposed merger``), has/have (perfect), ago, previously, yesterday. Weak: a verb reporting
  speech (said, told, reported, announced, ...: what it reports may lie on either side); ``since`` right before
  the expression.
- ``present`` (weak; the nearest occurrence either way): is, are, am, says, now, currently, can, must, should,
  may/might (lowercase). A possessive expression (``Wednesday's ruling``, ``December's figures``) is read the
  same way: it names a thing, and no verb governs when it happened.

No cue: the caller's default (``prefer``). The result is a :class:`Lean`; how a direction picks among
occurrences is :mod:`memlab.text.temporal.occurrence` (a strong cue is a wall, a weak cue and the default are
preferences), and a cue lets a weekday equal to the anchor's own be that very day
(:func:`memlab.text.temporal.rules_relative.resolve_weekday`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_IRREGULAR = (  # noqa: SIM905
    "was were had did went came got made took saw gave found thought knew left felt kept began brought "
    "bought caught taught fought sought built sent spent lent meant met led fed held sold stood "
    "understood rode drove rose fell won lost paid laid ran sat spoke broke chose froze stole woke wore "
    "tore swore drew grew threw flew shot struck hung sang rang sank drank swam forgot hid shook slid "
    "fled dealt dug heard became overcame withdrew undertook arose awoke forbade sprang stuck stung "
    "swung wept"
).split()
#: past-tense verbs that report speech: what they report may lie on either side, so they only lean
_REPORTING = (  # noqa: SIM905
    "said told reported announced added noted stated explained predicted claimed confirmed disclosed "
    "estimated indicated suggested acknowledged insisted warned argued wrote according"
).split()
_NOT_PAST = frozenset({
    "speed", "breed", "proceed", "exceed", "succeed", "indeed", "hundred", "bleed", "greed", "creed", "steed",
    "embed", "united", "limited",
})  # fmt: skip
_BE = frozenset({"be", "been", "being", "is", "are", "was", "were", "get", "gets", "got", "become", "became"})
#: word -> (direction, strong)
_WORDS: dict[str, tuple[str, bool]] = {
    **{w: ("nearest", False) for w in ("is", "are", "am", "says", "say", "now", "currently", "can", "must",
                                       "should", "may", "might")},
    **{w: ("past", True) for w in [*_IRREGULAR, "ago", "previously", "yesterday", "has", "have", "hasn't",
                                   "haven't", "didn't", "wasn't", "weren't"]},
    **{w: ("past", False) for w in _REPORTING},
    **{w: ("future", True) for w in ("will", "won't", "shall", "gonna", "soon")},
    **{w: ("future", False) for w in ("would", "wouldn't", "scheduled", "planned", "slated", "expects", "expect",
                                      "plans", "intends", "upcoming")},
}  # fmt: skip
#: two-word phrases that point to the future: first word -> (second words, strong)
_FUTURE_PAIRS: dict[str, tuple[frozenset[str], bool]] = {
    **{w: (frozenset({"to"}), True) for w in ("going", "about", "is", "are")},
    **{w: (frozenset({"to", "for"}), True) for w in ("scheduled", "due", "set", "slated", "supposed", "poised")},
    **{w: (frozenset({"to", "for"}), False) for w in ("expected", "likely", "planned")},
    **{w: (frozenset({"to"}), False) for w in ("was", "were", "has", "have", "plan", "plans", "planning",
                                               "intend", "intends", "hope", "hopes", "aim", "aims", "want", "wants",
                                               "promised", "vowed", "agreed", "pledged", "expects", "expect")},
    "looking": (frozenset({"forward"}), False),
    "can't": (frozenset({"wait"}), False),
}  # fmt: skip
_DETERMINERS = frozenset({
    "the", "a", "an", "this", "that", "these", "those", "its", "his", "her", "their", "our", "my", "your",
})  # fmt: skip
#: words after "to" that are not verbs (so "to the", "to his" are no infinitive)
_NOT_VERB = frozenset({
    "the", "a", "an", "his", "her", "its", "their", "our", "my", "your", "this", "that", "these", "those",
    "which", "whom", "what", "who", "some", "all", "any", "each", "every", "more", "most", "less", "no", "date",
    "death", "about", "around",
})  # fmt: skip
#: words whose next word is read with them (future phrases, infinitives, participles, adjectives)
_HEADS = frozenset(_FUTURE_PAIRS) | _BE | _DETERMINERS | {"to"}
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
    """A direction (``past``, ``future`` or ``nearest``), whether a cue in the text gave it, and whether that cue
    is strong (a tense the expression's own verb carries: ``went``, ``will``) rather than a lean (a reporting
    verb such as ``said``, ``would``, ``expects to``, an infinitive).
    """

    direction: str
    cued: bool
    strong: bool = False


class Cues(NamedTuple):
    """The cues of one text: ``(start, end, direction, strong)`` in text order, and the clause boundaries."""

    items: list[tuple[int, int, str, bool]]
    bounds: list[int]


def cues(text: str) -> Cues:
    """Every tense cue in ``text`` (words are matched lowercased; see the module docstring)."""
    lower = text.lower()
    items: list[tuple[int, int, str, bool]] = []
    prev, prev_start, prev_end = "", -1, -1
    for m in _TOKEN.finditer(lower):
        word = m.group()
        start, end = m.span()
        adjacent = prev in _HEADS and lower[prev_end:start].isspace()  # only heads matter for the next word
        pair = _FUTURE_PAIRS.get(prev) if adjacent else None
        if pair is not None and word in pair[0]:
            if items and items[-1][0] == prev_start:
                items.pop()  # the phrase replaces its first word's own reading
            items.append((prev_start, end, "future", pair[1]))
            prev = ""
            continue
        if adjacent and prev == "to" and word not in _NOT_VERB and text[start].islower():
            items.append((prev_start, end, "future", False))  # an infinitive: "to testify on Feb. 10"
        elif (got := _WORDS.get(word)) is not None:
            participle = got[0] == "past" and adjacent and prev in _BE and word not in _BE
            if not participle and (word != "may" or text[start] != "M"):  # "May" is a month
                items.append((start, end, *got))
        elif word.endswith("ed"):
            verb = len(word) >= 5 and word not in _NOT_PAST and not (start and text[start].isupper())
            if verb and not (adjacent and (prev in _BE or prev in _DETERMINERS)):
                # "will be paid": the auxiliary carries the tense; "the proposed merger": an adjective
                items.append((start, end, "past", True))
        elif word.endswith("'ll"):
            items.append((start, end, "future", True))
        prev, prev_start, prev_end = word, start, end
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
    best: tuple[int, str, bool] | None = None
    fallback: tuple[int, str, bool] | None = None
    for s, e, direction, strong in found.items:
        if span[0] <= s < span[1] or span[0] < e <= span[1]:
            continue  # a word of the expression itself ("last", "next", "earlier")
        dist = span[0] - e if e <= span[0] else s - span[1]
        if lo <= s and e <= hi and (best is None or dist < best[0]):
            best = (dist, direction, strong)
        if dist <= FALLBACK_CHARS and (fallback is None or dist < fallback[0]):
            fallback = (dist, direction, strong)
    got = best or fallback
    return Lean(got[1], True, got[2]) if got else Lean(prefer, False)
