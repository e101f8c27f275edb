"""Tokenising and query rewriting for the lexical retriever (pure functions)."""

from __future__ import annotations

import re
from functools import lru_cache

from memlab.text.tokens import word_list

STOPWORDS = frozenset(
    word_list(
        """a an the and or but if of to in on at by for with from about as into over after before than then so is are
        was were be been being am do does did done have has had having i me my we our you your he him his she her
        it its they them their this that these those what which who whom whose when where why how would could
        should can will shall may might must just also too very not no yes there here some any s t ll ve re d m o
        y up out all more most other such own same only both each few again once"""
    )
)
#: Words a question asks with, dropped by the query rewrite (the answer never contains them).
QUESTION_WORDS = frozenset(
    word_list("""when what which who whom whose where why how did does do is are was were has have had kind type""")
)
_TOKEN = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=1 << 16)  # a store repeats its words: 10,000 memories are ~480,000 words, a few thousand distinct
def stem(word: str) -> str:
    """A light suffix stripper (plural, -ing, -ed, -ly); enough to match "painted" with "painting"."""
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("ly", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: len(word) - len(suffix)] + keep
    return word


def tokens(text: str) -> list[str]:
    """Lowercased, stop-word-free, stemmed tokens."""
    text = text.lower().replace("'s ", " ").replace("’s ", " ")
    return [stem(w) for w in _TOKEN.findall(text) if w not in STOPWORDS]


def rewrite_query(question: str) -> str:
    """Drop question words and possessive markers: ``When did Caroline's son ...`` -> ``Caroline son ...``."""
    words = re.findall(r"[\w']+", question)
    kept = [w.removesuffix("'s").removesuffix("’s") for w in words if w.lower() not in QUESTION_WORDS]
    return " ".join(kept) if kept else question
