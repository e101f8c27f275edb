"""A necessary-condition prefilter for rule regexes, derived from the patterns' parse trees.

For each pattern we compute *requirements*: each a set of lowercase strings and/or "a digit" such that every
match contains one of them. A sequence requires each of its required elements (the most selective one is the
main requirement, which the resolver indexes; the other selective ones are checked after it); alternations
take the union of their branches' main requirements; optional parts and lookarounds require nothing. A rule
whose requirements are absent from the text cannot match, so its regex is not run. Patterns with no
requirement always run. The tests check that resolving with and without the prefilter gives the same result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
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
    also: tuple[tuple[frozenset[str], bool], ...] = ()

    def rest_met(self, present: frozenset[str] | set[str], has_digit: bool) -> bool:
        """Whether the requirements besides the main one (``also``) are met too."""
        return all((digit and has_digit) or not words.isdisjoint(present) for words, digit in self.also)


_LETTERS = re.compile(r"[a-z]+")


def letter_runs(lower: str) -> set[str]:
    """The maximal runs of letters a-z in ``lower`` (its words, for whole-word tests)."""
    return set(_LETTERS.findall(lower))


def any_word(words: frozenset[str], lower: str, runs: set[str]) -> bool:
    """Whether one of ``words`` occurs in ``lower`` as a whole word (letters a-z), or as a substring (others)."""
    whole, others = _split(words)
    return not runs.isdisjoint(whole) or any(w in lower for w in others)


@lru_cache(maxsize=64)
def _split(words: frozenset[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    whole = frozenset(w for w in words if _LETTERS.fullmatch(w))
    return whole, tuple(w for w in words if w not in whole)


def present(lower: str, vocabulary: frozenset[str], runs: set[str] | None = None) -> set[str]:
    """The words of ``vocabulary`` that occur (as substrings) in ``lower``.

    A vocabulary word made of letters a-z can only occur inside a run of such letters, so the runs are looked
    up (each run's vocabulary substrings are remembered across calls: texts share most of their words); the
    other words (``-``, ``/``, ``from now``) are tested directly. ``runs``: :func:`letter_runs` when known.
    """
    letters, others, memo = _parts(vocabulary)
    found = {w for w in others if w in lower}
    for run in letter_runs(lower) if runs is None else runs:
        got = memo.get(run)
        if got is None:
            got = frozenset(w for w in letters if w in run)
            if len(memo) > 50_000:
                memo.clear()
            memo[run] = got
        found |= got
    return found


@lru_cache(maxsize=8)
def _parts(vocabulary: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, frozenset[str]]]:
    """The vocabulary's letter-only words, its other words, and the memo of run -> words inside it."""
    letters = tuple(w for w in vocabulary if _LETTERS.fullmatch(w))
    return letters, tuple(w for w in vocabulary if not _LETTERS.fullmatch(w)), {}


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


#: words so common in running text that requiring one filters almost nothing
_COMMON = frozenset({"the", "on", "in", "of", "at", "to", "by", "for", "a", "an", "and", "or", "from", "is", "it"})


def _score(req: tuple[frozenset[str], bool]) -> float:
    """How selective a requirement is: longer words are rarer; a common word (``the``, ``in``) or a lone letter
    is rarer than nothing but commoner than a digit, as is a two-letter fragment (``st`` of ``1st``); a lone
    punctuation mark is rarer than a digit.
    """
    words, digit = req
    if not words:
        return 1.5 if digit else 0.0
    lengths = [
        0.3 if w in _COMMON else 0.5 if (len(w) == 1 and w.isalpha()) else 2.0 if len(w) == 1 else
        1.0 if len(w) == 2 else float(len(w))
        for w in words
    ]  # fmt: skip
    best = min(lengths)
    return min(best, 1.5) if digit else best


def _seq(items: list) -> _Req:  # type: ignore[type-arg]
    """The most selective requirement of a sequence (None: nothing is required)."""
    cands = _reqs(items)
    return max(cands, key=_score) if cands else None


def _reqs(items: list) -> list[tuple[frozenset[str], bool]]:  # type: ignore[type-arg]
    """Every requirement of a sequence (each one must be met; a group's own requirements count too)."""
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
            cands.extend(_reqs(list(av[-1])))
        elif op is _C.BRANCH:
            parts = [_seq(list(b)) for b in av[1]]
            if all(p is not None for p in parts):
                sub = (frozenset().union(*(p[0] for p in parts if p)), any(p[1] for p in parts if p))
        elif op in (_C.MAX_REPEAT, _C.MIN_REPEAT, _C.POSSESSIVE_REPEAT) and av[0] >= 1:
            cands.extend(_reqs(list(av[2])))
        elif op is _C.IN and _is_digit_class(list(av)):
            sub = (frozenset(), True)
        if sub is not None and (sub[0] or sub[1]):
            cands.append(sub)
    flush()
    return [c for c in cands if (c[0] or c[1]) and "" not in c[0] and all(w.strip() for w in c[0])]


def trigger(pattern: re.Pattern[str]) -> Trigger:
    """The :class:`Trigger` of a compiled pattern (see the module docstring)."""
    if sre_parse is None:
        return Trigger(None)
    try:
        reqs = _reqs(list(sre_parse.parse(pattern.pattern, pattern.flags)))
    except Exception:  # an unexpected parse shape: never filter that rule
        return Trigger(None)
    if not reqs:
        return Trigger(None)
    reqs = sorted({(frozenset(w.lower() for w in r[0]), r[1]) for r in reqs}, key=_score, reverse=True)
    also = tuple(r for r in reqs[1:] if _score(r) >= 1.0)
    return Trigger(reqs[0][0], reqs[0][1], also)


_ANY = None  # "any character may come first"


def _first(items: list) -> tuple[frozenset[str] | None, bool]:  # type: ignore[type-arg]
    """The characters a match of the sequence ``items`` can start with (None: any), and whether it can be empty."""
    acc: set[str] = set()
    for op, av in items:
        if op in (_C.AT, _C.ASSERT, _C.ASSERT_NOT):
            continue  # zero-width
        got, nullable = _first_of(op, av)
        if got is None:
            return _ANY, False
        acc |= got
        if not nullable:
            return frozenset(acc), False
    return frozenset(acc), True


def _class_chars(items: list) -> frozenset[str] | None:  # type: ignore[type-arg]
    out: set[str] = set()
    for op, av in items:
        if op is _C.LITERAL:
            out.add(chr(av))
        elif op is _C.RANGE and av[1] - av[0] < 128:
            out.update(chr(c) for c in range(av[0], av[1] + 1))
        elif op is _C.CATEGORY and av is _C.CATEGORY_DIGIT:
            out.update("0123456789")
        elif op is _C.CATEGORY and av is _C.CATEGORY_SPACE:
            out.update(" \t\n\r\f\v")
        else:
            return None  # negated or broad classes: anything
    return frozenset(out)


def _first_of(op: Any, av: Any) -> tuple[frozenset[str] | None, bool]:
    if op is _C.LITERAL:
        return frozenset(chr(av)), False
    if op is _C.IN:
        return _class_chars(list(av)), False
    if op is _C.SUBPATTERN:
        return _first(list(av[-1]))
    if op is _C.BRANCH:
        acc: set[str] = set()
        nullable = False
        for branch in av[1]:
            got, empty = _first(list(branch))
            if got is None:
                return _ANY, False
            acc |= got
            nullable = nullable or empty
        return frozenset(acc), nullable
    if op in (_C.MAX_REPEAT, _C.MIN_REPEAT, _C.POSSESSIVE_REPEAT):
        got, empty = _first(list(av[2]))
        return got, empty or av[0] == 0
    return _ANY, False


def first_chars(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """The characters every match of ``pattern`` starts with, or None when it could start with anything (or
    be empty). A leading lookahead for them lets the regex engine skip other positions quickly.
    """
    if sre_parse is None:
        return None
    try:
        got, nullable = _first(list(sre_parse.parse(pattern.pattern, pattern.flags)))
    except Exception:  # an unexpected parse shape: no lookahead
        return None
    return None if got is None or nullable or not got else got
