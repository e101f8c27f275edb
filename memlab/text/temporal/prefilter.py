"""A necessary-condition prefilter for rule regexes, derived from the patterns' parse trees.

For each pattern we compute a *requirement*: a set of lowercase strings and/or "a digit" such that every
match contains one of them. Sequences take the most selective required element; alternations take the
union of their branches; optional parts and lookarounds require nothing. A rule whose requirement is absent
from the text cannot match, so its regex is not run. Patterns with no requirement always run. The tests check
that resolving with and without the prefilter gives the same result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

try:  # the stdlib's own regex parser (``re._parser`` since 3.11; ``sre_parse`` before)
    import re._parser as sre_parse
except ImportError:  # pragma: no cover - other Pythons: no prefilter (every rule always runs)
    sre_parse: Any = None  # type: ignore[no-redef]

_C = sre_parse  # constants live on the parser module


@dataclass(frozen=True)
class Trigger:
    """What must be present in the text for a pattern to be able to match (``None`` words: always run)."""

    words: frozenset[str] | None
    digit: bool = False

    def may_match(self, present: frozenset[str] | set[str], has_digit: bool) -> bool:
        """Whether the pattern can match text containing the trigger words ``present`` (see :func:`present`)."""
        if self.words is None or (self.digit and has_digit):
            return True
        return not self.words.isdisjoint(present)


def present(lower: str, vocabulary: frozenset[str]) -> set[str]:
    """The words of ``vocabulary`` that occur (as substrings) in ``lower``."""
    return {w for w in vocabulary if w in lower}


_Req = tuple[frozenset[str], bool] | None


def _is_digit_class(items: list) -> bool:  # type: ignore[type-arg]
    for op, av in items:
        if op is _C.CATEGORY and av is _C.CATEGORY_DIGIT:
            continue
        if op is _C.LITERAL and chr(av).isdigit():
            continue
        if op is _C.RANGE and 48 <= av[0] <= av[1] <= 57:
            continue
        return False
    return True


def _score(req: tuple[frozenset[str], bool]) -> float:
    """How selective a requirement is: longer words are rarer; a lone letter is rarer than nothing but
    commoner than a digit, a lone punctuation mark rarer than a digit.
    """
    words, digit = req
    if not words:
        return 1.5 if digit else 0.0
    lengths = [0.5 if (len(w) == 1 and w.isalpha()) else 2.0 if len(w) == 1 else float(len(w)) for w in words]
    best = min(lengths)
    return min(best, 1.5) if digit else best


def _seq(items: list) -> _Req:  # type: ignore[type-arg]
    cands: list[tuple[frozenset[str], bool]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            cands.append((frozenset(["".join(run).lower()]), False))
            run.clear()

    for op, av in items:
        if op is _C.LITERAL:
            ch = chr(av)
            if ch.isdigit():
                flush()
                cands.append((frozenset(), True))
            else:
                run.append(ch)
            continue
        flush()
        sub: _Req = None
        if op is _C.SUBPATTERN:
            sub = _seq(list(av[-1]))
        elif op is _C.BRANCH:
            parts = [_seq(list(b)) for b in av[1]]
            if all(p is not None for p in parts):
                sub = (frozenset().union(*(p[0] for p in parts if p)), any(p[1] for p in parts if p))
        elif op in (_C.MAX_REPEAT, _C.MIN_REPEAT, _C.POSSESSIVE_REPEAT) and av[0] >= 1:
            sub = _seq(list(av[2]))
        elif op is _C.IN and _is_digit_class(list(av)):
            sub = (frozenset(), True)
        if sub is not None and (sub[0] or sub[1]):
            cands.append(sub)
    flush()
    cands = [c for c in cands if "" not in c[0] and all(w.strip() for w in c[0])]
    return max(cands, key=_score) if cands else None


def trigger(pattern: re.Pattern[str]) -> Trigger:
    """The :class:`Trigger` of a compiled pattern (see the module docstring)."""
    if sre_parse is None:
        return Trigger(None)
    try:
        req = _seq(list(sre_parse.parse(pattern.pattern, pattern.flags)))
    except Exception:  # an unexpected parse shape: never filter that rule
        return Trigger(None)
    if req is None:
        return Trigger(None)
    words = frozenset(w.lower() for w in req[0])
    return Trigger(words, req[1])
