"""The slot judge's reading of change statements: the value spans of each change, trimmed, plus notations.

:func:`memlab.text.slot_parse.changes` reads a change's old and new values as the rest of the clause after
the cue. That reading is part of the learned judge's features and stays as it is; the slot judge reads
change statements with this module instead, which differs in three general ways:

* Value spans end where a modifier of the whole clause begins: a parenthesis, a prepositional phrase
  that places the change (``in the billing backend``, ``for the mobile app``) and a time adverbial
  (``this week``, ``yesterday``). "We retired SolidJS in the billing backend" replaces ``SolidJS``, not
  ``billing``.
* A passive or postposed drop names its old value before the verb ("Jest removed; ...", "the old
  importer was retired", "the Vitest experiment reverted"), a passive restoration its new one ("Flask
  restored as the web framework").
* A change stated inside a clause that plans, hedges, asks or only weighs it ("we looked at moving to
  Bugsnag", "we might switch to Kafka next quarter") is not read as made.
* Value-change notations without a change verb: an arrow (``Kafka -> NATS``), ``swap X for Y`` and ``X out,
  Y in``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlab.text.slot_parse import _CHANGE_KEYS, _CLAUSE_END, CHANGE_PATTERNS, CUE_WORDS, Change, content_tokens
from memlab.text.tokens import word_list

_START = r"(?:^|(?<=[.;:!?\n(]))\s*"

#: Value-change notations and passive drops (cue name, pattern with groups ``old`` and/or ``new``).
EXTRA_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pat, re.IGNORECASE))
    for name, pat in (
        ("arrow", r"(?P<old>[^.;:,\n()]+?)\s*(?:->|\u2192)\s*(?P<new>[^.;,\n()]+?)" + _CLAUSE_END),
        ("replaced", r"\bswap(?:s|ped|ping)?\s+(?P<old>[^.;,:\n]+?)\s+(?:for|with)\s+(?P<new>.+?)" + _CLAUSE_END),
        ("replaced", _START + r"(?:\w+ed\s+)?(?P<old>[^.;,:\n]+?)\s+out\s*[,;]\s*(?P<new>[^.;,:\n]+?)\s+in\b"),
        (
            "dropped",
            _START + r"(?P<old>[^.;,:\n()]+?)\s+(?:(?:was|were|is|are|got|has been|have been)\s+)?"
            r"(?:removed|dropped|retired|deprecated|abandoned|ditched|replaced|phased out|reverted|rolled back|"
            r"undone)"
            r"(?=\s*(?:[.;,:()!?\n]|$))",
        ),
        (
            "back to",
            _START + r"(?P<new>[^.;,:\n()]+?)\s+(?:(?:was|were|is|are|has been|have been)\s+)?"
            r"(?:restored|reinstated)\b",
        ),
    )
)

#: For each of :data:`EXTRA_PATTERNS`, strings one of which an ASCII text must contain (lower-cased) for the
#: pattern to match, as slot_parse's keys: a pattern none of whose strings occur is not run (same result).
_EXTRA_KEYS: tuple[tuple[str, ...], ...] = (
    ("->",),
    ("swap",),
    ("out",),
    word_list("""removed dropped retired deprecated abandoned ditched replaced phased reverted rolled undone"""),
    ("restored", "reinstated"),
)
assert len(_EXTRA_KEYS) == len(EXTRA_PATTERNS)
_ALL_PATTERNS = tuple(zip((*CHANGE_PATTERNS, *EXTRA_PATTERNS), (*_CHANGE_KEYS, *_EXTRA_KEYS), strict=True))

#: A clause that plans, hedges, asks or weighs a change rather than stating one made (modality and
#: deliberation verbs; :mod:`memlab.text.modality` has the note-level counterpart).
_HYPOTHETICAL = re.compile(
    r"\b(?:will|shall|gonna|going\s+to|might|maybe|perhaps|could|would|plan(?:s|ned|ning)?\s+(?:to|for|on)|"
    r"propos(?:e|es|ed|al)|consider(?:s|ed|ing)?|thinking\s+(?:about|of)|thought\s+about|talked\s+about|"
    r"discuss(?:ed|ing)?|look(?:ed|ing)\s+(?:at|into)|explor(?:e|ed|ing)|weigh(?:ed|ing)?|evaluat(?:e|ed|ing)|"
    r"want\s+to\s+try|next\s+(?:week|sprint|month|quarter|year|release|iteration))\b|\?",
    re.IGNORECASE,
)
#: A note that says a value continues or retells it (``still``, ``stays``, ``remains``, a reminder).
_CONTINUES = re.compile(
    r"\b(?:still|stays?|staying|stayed|remains?|remained|unchanged|no\s+change|as\s+before|reminder|"
    r"for\s+the\s+record|recap|keep(?:s|ing)?\s+(?:using|on|with)|stick(?:s|ing)?\s+with)\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:not|never|don't|doesn't|won't|isn't|aren't|without|avoid)\b|n't\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[^.;!?\n]+")
#: A clause or a comma-separated part of one (the reach of a negation: "ask Tomás, not Priya").
_PART = re.compile(r"[^.;,!?\n]+")


def hypothetical_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Character spans of the clauses of ``text`` that plan, hedge, ask or weigh rather than state."""
    out = []
    for m in _CLAUSE.finditer(text):
        end = m.end()
        asks = end < len(text) and text[end] == "?"
        if asks or _HYPOTHETICAL.search(m.group(0)):
            out.append((m.start(), end))
    return tuple(out)


def continues(text: str) -> bool:
    """The note says a value continues, or retells it (``still``, ``stays``, ``remains``, a reminder)."""
    return bool(_CONTINUES.search(text))


def negated_tokens(text: str) -> frozenset[str]:
    """Content tokens of the parts of ``text`` (clauses, split at commas too) that hold a negation."""
    out: set[str] = set()
    for m in _PART.finditer(text):
        if _NEGATION.search(m.group(0)):
            out.update(content_tokens(m.group(0)))
    return frozenset(out)


#: Where a value span ends: a parenthesis, a placing prepositional phrase, a time adverbial.
_SPAN_END = re.compile(
    r"\s*\(|\s+(?:in|for|at|within|across|on|inside)\s+(?:the|our|its|their|all|every|each)\b|"
    r"\s+(?:this|last|next|that)\s+(?:week|month|sprint|quarter|year|time|morning|afternoon|evening|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\s+(?:yesterday|today|tomorrow|tonight)\b",
    re.IGNORECASE,
)
#: Words before an arrow's old value that name the change, not the value (``Auth changed X -> Y``).
_ARROW_LEAD = re.compile(r"^.*\b(?:changed|changes|change|went|goes|moved|switched|is|was|from)\s+", re.IGNORECASE)


def trim_span(span: str) -> str:
    """``span`` up to the first clause modifier (parenthesis, placing prepositional phrase, time adverbial)."""
    m = _SPAN_END.search(span)
    return span[: m.start()] if m else span


def _values(span: str, ignore: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in content_tokens(trim_span(span)) if t not in CUE_WORDS) - ignore


@lru_cache(maxsize=1 << 16)
def read_changes(text: str, ignore: frozenset[str] = frozenset()) -> tuple[Change, ...]:
    """Change statements of ``text`` with trimmed value spans (``ignore``: tokens left out, e.g. subjects).

    A statement whose cue named a value but whose span is empty after trimming (``removed (billing)``)
    is left out, and so is one that starts in a clause that plans, hedges, asks or weighs the change.
    """
    out: list[Change] = []
    unreal = hypothetical_spans(text)
    low = text.lower() if text.isascii() else None  # non-ASCII: every pattern runs (Unicode case folding)
    for (name, pat), keys in _ALL_PATTERNS:
        if low is not None and not any(k in low for k in keys):
            continue
        for m in pat.finditer(text):
            if any(a <= m.start() < b for a, b in unreal):
                continue
            groups = m.groupdict()
            old_span = groups.get("old") or ""
            if name == "arrow":
                old_span = _ARROW_LEAD.sub("", old_span)
            old = _values(old_span, ignore)
            new = _values(groups.get("new") or "", ignore)
            named = [g for g in ("old", "new") if groups.get(g)]
            if named and not old and not new:
                continue
            out.append(Change(name, old, new))
    return tuple(out)
