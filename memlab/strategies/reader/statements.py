"""What a context unit states: its statements and the value each one asserts (pure functions, no state).

A unit's text (a memory's summary and content, a cluster summary's text and key facts, a narrative, a running
document) is split into statements at line breaks, semicolons and sentence ends. A statement's *value* is what it
says holds now, read with :mod:`memlab.text`:

* a change statement (``from X to Y``, ``replaced X with Y``, ``X in favour of Y``, ``back to Y``; read by
  :func:`memlab.text.change_reading.read_changes`) asserts its new value; when several changes name one, those
  whose new value holds a salient word (a name, an acronym, a version) win, so ``formatting tool is now Ruff format``
  reads ``Ruff format``;
* a change statement that names only what stopped (``no longer X``) asserts no value;
* any other statement asserts its salient words (:func:`memlab.text.slot_parse.salient_tokens`), or, with none,
  its content words; words of the question (the attribute asked about) are not the value.

The value is returned as the statement's own words in their order.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlab.text.change_reading import read_changes
from memlab.text.slot_parse import CUE_WORDS, content_tokens, salient_tokens
from memlab.text.tokens import word_list

_SPLIT = re.compile(r"\n+|;\s+|(?<=[.!?])\s+")
#: Words of questions that never name the attribute asked about.
QUESTION_WORDS = frozenset(
    word_list("""what which who whom whose when where how since today currently current right now day date project's""")
)


def statements(text: str) -> list[str]:
    """The statements of ``text`` in order (empty ones dropped)."""
    return [s.strip() for s in _SPLIT.split(text or "") if s and s.strip()]


def question_tokens(question: str) -> frozenset[str]:
    """The content words of a question, without question words and change cues."""
    return frozenset(t for t in content_tokens(question) if t not in QUESTION_WORDS and t not in CUE_WORDS)


def stem(token: str) -> str:
    """A plural's or a verb's ``-s`` dropped (``tests`` -> ``test``, ``runs`` -> ``run``)."""
    return token[:-1] if len(token) > 3 and token.endswith("s") and not token.endswith("ss") else token


@lru_cache(maxsize=1 << 14)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(t) for t in content_tokens(text))


def overlap(text: str, tokens: frozenset[str]) -> int:
    """How many of ``tokens`` occur among the content words of ``text`` (compared by :func:`stem`)."""
    return len({stem(t) for t in tokens} & _stems(text))


def _words_in(statement: str, keep: frozenset[str]) -> str:
    out: list[str] = []
    seen: set[str] = set()
    for raw in statement.split():
        tokens = [t for t in content_tokens(raw) if t in keep and t not in seen]
        if tokens:
            seen.update(tokens)
            out.append(raw.strip(".,;:!?()[]\"'"))
    return " ".join(out)


@lru_cache(maxsize=1 << 14)
def value_tokens(statement: str, asked: frozenset[str] = frozenset()) -> frozenset[str]:
    """The lower-cased words of the value ``statement`` asserts (rules in the module docstring)."""
    changes = read_changes(statement)
    if changes:
        salient = salient_tokens(statement)
        named = [c.new - asked for c in changes if c.new - asked]
        strong = [n for n in named if n & salient]
        chosen = strong or named
        return frozenset().union(*chosen) if chosen else frozenset()
    salient = salient_tokens(statement) - asked - CUE_WORDS
    if salient:
        return salient
    return frozenset(t for t in content_tokens(statement) if t not in CUE_WORDS) - asked


def value_of(statement: str, asked: frozenset[str] = frozenset()) -> str:
    """The value ``statement`` asserts, in its own words (``""``: none)."""
    return _words_in(statement, value_tokens(statement, asked))
