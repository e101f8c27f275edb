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
* Value-change notations without a change verb: an arrow (``Kafka -> NATS``), ``swap X for Y`` and ``X out,
  Y in``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlab.text.slot_parse import CHANGE_PATTERNS, CUE_WORDS, Change, content_tokens

_CLAUSE_END = r"(?=\.(?:\s|$)|[;,:!?()\n]|\s+(?:because|since|as|so|after|which|for|due)\b|$)"
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
    is left out.
    """
    out: list[Change] = []
    for name, pat in (*CHANGE_PATTERNS, *EXTRA_PATTERNS):
        for m in pat.finditer(text):
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
