"""The rules prefilter only skips regexes that cannot match: results are identical with and without it."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.data.temporal_norm.data import corpus_path
from memlab.strategies.temporal.rules import _LOWER_RULES, _RULES, resolve_chunk
from memlab.text.temporal.prefilter import trigger
from tests.support.compose import compose_cfg

A = datetime(2013, 2, 12, 4, 30, tzinfo=UTC)


def test_trigger_extraction() -> None:
    t = trigger(re.compile(r"\b(?:the\s+)?(day|week)s?\s+ago\b", re.I))
    assert not t.digit and t.words in (frozenset({"ago"}), frozenset({"day", "week"}))  # both are required
    assert trigger(re.compile(r"\btomorrows?\b")).words == frozenset({"tomorrow"})
    assert trigger(re.compile(r"(\d{1,2})\s*(\d\d)")).digit
    assert trigger(re.compile(r"\w+ed")).words == frozenset({"ed"})
    assert trigger(re.compile(r"\w+")).words is None  # no literal requirement: always run
    assert trigger(re.compile(r"(?:a|b)?x?")).words is None


def _duckling_phrases() -> list[str]:
    path = corpus_path("duckling", compose_cfg(["dataset=temporal_norm"])["dataset"]["data_dir"])
    return [r["phrase"] for r in json.loads(path.read_text())] if path.is_file() else []


def test_same_results_on_duckling_phrases() -> None:
    for phrase in _duckling_phrases()[::3]:
        for direction in ("past", "future"):
            assert resolve_chunk(phrase, A, direction, True) == resolve_chunk(phrase, A, direction, False), phrase


_words = st.sampled_from(
    [
        "yesterday",
        "tomorrow",
        "last",
        "next",
        "this",
        "week",
        "weekend",
        "month",
        "year",
        "ago",
        "before",
        "after",
        "day",
        "in",
        "on",
        "at",
        "the",
        "of",
        "Monday",
        "Sat",
        "sun",
        "May",
        "march",
        "2023",
        "7",
        "5th",
        "3pm",
        "15:30",
        "4:00",
        "noon",
        "summer",
        "90s",
        "1990s",
        "for",
        "two",
        "a",
        "few",
        "end",
        "early",
        "by",
        "first",
        "Q3",
        "12/31",
        "2024-02-29",
        "tonight",
        "morning",
        "3-4pm",
        "GMT",
        "half",
        "an",
        "hour",
        "-",
        "to",
        "from",
        "said",
        "1990",
        "$1990",
        "1,990",
        "third-quarter",
        "fiscal",
        "FY89",
        "nineteen ninety-six",
        "the late 1980s",
        "Christmas",
        "Easter week",
        "Thanksgiving Day",
        "mid-",
        "or later",
        "at 4",
        "(GMT +8)",
        "6:40 p.m.",
        "10:35 a.m. (0735 GMT)",
        "9h30",
        "in 3 days",
        "Aug. 7",
        "the week of",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_words, max_size=24).map(" ".join), st.sampled_from(["past", "future", "nearest"]))
def test_same_results_on_random_phrases(text: str, direction: str) -> None:
    assert resolve_chunk(text, A, direction, True) == resolve_chunk(text, A, direction, False)


def _sentences() -> list[str]:
    cfg = compose_cfg(["dataset=temporal_norm"])
    path = corpus_path("tbaq", cfg["dataset"]["data_dir"])
    texts = [r["sentence"] for r in json.loads(path.read_text())] if path.is_file() else []
    return texts[::7] + _duckling_phrases()[::5]


def test_the_leading_lookahead_changes_no_match() -> None:
    """Each pattern runs with a lookahead for its possible first characters; the matches stay the same."""
    plain = [re.compile(r[0].pattern, r[0].flags & ~re.IGNORECASE) for r in _RULES]
    texts = _sentences() or ["Witnesses said Friday, at 10:35 a.m. (0735 GMT), that third-quarter profit rose."]
    for text in texts:
        lower = text.lower()
        for (fast, _), slow in zip(_LOWER_RULES, plain, strict=True):
            assert [m.span() for m in fast.finditer(lower)] == [m.span() for m in slow.finditer(lower)], slow.pattern


def test_same_results_on_news_sentences() -> None:
    for text in _sentences()[::2]:
        assert resolve_chunk(text, A, "past", True) == resolve_chunk(text, A, "past", False), text
