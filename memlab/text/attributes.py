"""Where a note names the attribute whose value it states, and which of its words are values.

Shared by the learned judge's pair features (:mod:`.pair_features`) and the store's slot profiles
(:mod:`.slot_profiles`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memlab.core.types import Memory
from memlab.text.slot_parse import CUE_WORDS, STOPWORDS, content_tokens, parse, salient_tokens

_PHRASE = r"([A-Za-z][A-Za-z /-]{1,40}?)"
#: Where a note names the attribute whose value it states ("the web framework of ...", "as its database").
ATTR_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        rf"\b[Tt]he {_PHRASE} (?:of|issue|question)\b",
        rf"\bits {_PHRASE}(?=[.;,():]|$)",
        rf"'s {_PHRASE}(?= from | back | to |[.;,()]|$)",
        rf"\bas (?:the |an? )?{_PHRASE}(?: for\b|(?=[.;,]|$))",
        rf"^{_PHRASE} for .+? going forward",
        rf"; {_PHRASE} is now\b",
        rf": {_PHRASE} (?:of|is)\b",
    )
)


#: An acronym inside an attribute phrase is part of the attribute ("the UI framework", "its CI provider"), not
#: a value, although the value reading counts acronyms as salient.
_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")


def _phrases(text: str, ignore: frozenset[str]) -> list[list[str]]:
    values = salient_tokens(text)
    out: list[list[str]] = []
    for line in text.split("\n"):
        for pattern in ATTR_PATTERNS:
            for match in pattern.finditer(line):
                phrase = match.group(1)
                keep = {a.lower() for a in _ACRONYM.findall(phrase)}
                words = [t for t in content_tokens(phrase) if (t not in values or t in keep) and t not in ignore]
                if words:
                    out.append(words)
    return out


@lru_cache(maxsize=8192)
def attribute_words(text: str, ignore: frozenset[str] = frozenset()) -> frozenset[str]:
    """Words of the attribute phrases a note names (``web``, ``framework``), without values or ``ignore``.

    Two changes of one subject read alike ("From this week the web framework of the billing service is
    Falcon" / "... the deployment platform of the billing service is Fly.io"); their attribute words tell
    them apart. Synonyms ("CI provider", "build system") make disjoint words weak evidence, not proof.
    """
    return frozenset(w for words in _phrases(text, ignore) for w in words)


def attribute_phrases(memory: Memory) -> frozenset[str]:
    """The attribute phrases a memory names, each as its words joined by spaces (``web framework``)."""
    return frozenset(" ".join(words) for words in _phrases(memory.text, parse(memory).subject_tokens))


def value_tokens(memory: Memory) -> frozenset[str]:
    """The memory's salient tokens that can be values: no digits, no subject, cue or attribute-phrase words."""
    p = parse(memory)
    attr = attribute_words(memory.text, p.subject_tokens)  # cached; the words of attribute_phrases
    return frozenset(t for t in p.salient if not any(c.isdigit() for c in t)) - p.subject_tokens - CUE_WORDS - attr


def context_words(memory: Memory) -> frozenset[str]:
    """Every other word of the memory that may carry its value or reason: lowercase values (``trunk-based``,
    ``prose``) and reasons; no digits, no words of two letters or less, no subject, cue, attribute or stop words.
    """
    p = parse(memory)
    attr = attribute_words(memory.text, p.subject_tokens)  # cached; the words of attribute_phrases
    words = {t for t in content_tokens(memory.text) if len(t) > 2 and not any(c.isdigit() for c in t)}
    return frozenset(words - p.subject_tokens - CUE_WORDS - STOPWORDS - attr)
