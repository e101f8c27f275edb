"""Contract tests over every temporal option: compose, build, protocol, valid half-open intervals, no raise."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlab.core.types import TemporalRef
from memlab.strategies.temporal.base import TemporalBase
from memlab.strategies.temporal.rules import RulesResolver
from memlab.wiring.build import build
from tests.support.compose import compose_cfg

OPTIONS = ["none", "pattern_table", "rules", "dateparser", "dspy"]
OFFLINE = ["none", "pattern_table", "rules", "dateparser"]  # dspy needs a model: tests/temporal/test_dspy.py
ANCHOR = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
TEXTS = [
    "I went to the support group yesterday.",
    "Last Saturday we painted; the week before we hiked. Next month: Paris, in June maybe, 7 May 2023 at 3pm.",
    "We met on 5/7/2023, two weekends ago, for two weeks, recently, in the 90s, last summer, on the 5th.",
    "",
    "   ",
    "no time here at all",
    "\x00\x01 garbage ))(( 99/99/9999 31/31 25:99 Feb 30 2023 the 0th 10000 years ago",
]


def _resolver(option: str) -> TemporalBase:
    cfg = compose_cfg([f"temporal={option}", "embedder=tfidf"])
    return build(cfg["temporal"], "temporal")


def check_refs(refs: list[TemporalRef], text: str, anchor: datetime) -> None:
    """The protocol's promises for one resolve() result."""
    assert isinstance(refs, list)
    last_end = -1
    for r in sorted(refs, key=lambda r: r.span):
        assert isinstance(r, TemporalRef)
        assert r.start < r.end, r
        s, e = r.span
        assert 0 <= s < e <= len(text), r
        assert text[s:e] == r.text
        assert s >= last_end, f"overlapping spans in {refs}"
        last_end = e
        assert 0.0 <= r.confidence <= 1.0
        assert r.kind in ("point", "duration", "open")
        assert r.grain in ("second", "minute", "hour", "day", "week", "month", "season", "quarter", "year", "decade")
        assert (r.start.tzinfo is None) == (anchor.tzinfo is None)


@pytest.mark.parametrize("option", OPTIONS)
def test_composes_builds_and_satisfies_protocol(option: str) -> None:
    resolver = _resolver(option)
    assert isinstance(resolver, TemporalBase)
    assert isinstance(type(resolver).name, str) and type(resolver).name == option
    assert isinstance(type(resolver).version, int)


@pytest.mark.parametrize("option", OFFLINE)
@pytest.mark.parametrize("text", TEXTS)
def test_valid_intervals_on_samples(option: str, text: str) -> None:
    resolver = _resolver(option)
    for anchor in (ANCHOR, ANCHOR.replace(tzinfo=None), ANCHOR.astimezone(timezone(timedelta(hours=-2)))):
        check_refs(resolver.resolve(text, anchor), text, anchor)


@pytest.mark.parametrize("option", OFFLINE)
def test_huge_and_odd_input_never_raises(option: str) -> None:
    resolver = _resolver(option)
    huge = "Yesterday at 3pm we met. " * 400 + "x" * 20_000
    refs = resolver.resolve(huge if option != "dateparser" else huge[:3000], ANCHOR)
    check_refs(refs, huge if option != "dateparser" else huge[:3000], ANCHOR)
    if option in ("rules", "dateparser"):  # ours also tolerate non-str input (outside the typed contract)
        for odd in (None, 42, b"yesterday"):
            assert resolver.resolve(odd, ANCHOR) == []  # type: ignore[arg-type]
    for anchor in (datetime(1, 1, 1, 0, 5), datetime(9999, 12, 31, 23, 59)):
        edge = (
            "yesterday, next year, a week ago, 10 years ago, tomorrow, next decade, said Friday, in June, Aug. 7, "
            "third-quarter, the latest quarter, first half, Christmas, Easter week, 1990, the late 1980s, fiscal 1999"
        )
        check_refs(resolver.resolve(edge, anchor), edge, anchor)


def test_rules_finds_the_expressions_of_a_sentence() -> None:
    refs = _resolver("rules").resolve(TEXTS[1], ANCHOR)
    assert [r.text for r in refs] == [
        "Last Saturday",
        "the week before",
        "Next month",
        "in June",
        "7 May 2023 at 3pm",
    ]


_anchors = st.builds(
    lambda d, minutes: d.replace(tzinfo=timezone(timedelta(minutes=minutes))) if minutes is not None else d,
    st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2100, 12, 31)),
    st.one_of(st.none(), st.integers(min_value=-12 * 60, max_value=14 * 60)),
)
_words = st.sampled_from(
    [
        "yesterday",
        "today",
        "tomorrow",
        "last",
        "next",
        "this",
        "week",
        "month",
        "year",
        "weekend",
        "ago",
        "the",
        "before",
        "after",
        "day",
        "in",
        "on",
        "at",
        "Monday",
        "Friday",
        "May",
        "June",
        "2023",
        "7",
        "5th",
        "3pm",
        "15:30",
        "noon",
        "summer",
        "90s",
        "for",
        "two",
        "weeks",
        "recently",
        "a",
        "few",
        "days",
        "of",
        "end",
        "early",
        "12/31",
        "2024-02-29",
        "Feb",
        "29",
        "tonight",
        "morning",
        ",",
        ".",
        "-",
        "to",
        "from",
        "between",
        "and",
        "said",
        "will",
        "went",
        "to",
        "'s",
        "1990",
        "1,990",
        "$1990",
        "1980s",
        "third-quarter",
        "quarter",
        "Q3",
        "fiscal",
        "half",
        "first",
        "nine",
        "months",
        "nineteen",
        "ninety-six",
        "Thanksgiving",
        "Christmas",
        "Easter",
        "Day",
        "late",
        "mid-",
        "or later",
        "Aug.",
        "Sept. 30",
        "6:40 p.m.",
        "(GMT +8)",
        "UTC-05:30",
        "EST",
    ]
)
_texts = st.one_of(st.text(max_size=80), st.lists(_words, max_size=16).map(" ".join))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_texts, anchor=_anchors, prefer=st.sampled_from(["future", "past", "nearest"]))
def test_rules_property_never_raises_and_intervals_valid(text: str, anchor: datetime, prefer: str) -> None:
    resolver = _RULES if prefer == "future" else RulesResolver(prefer=prefer)
    check_refs(resolver.resolve(text, anchor), text, anchor)


@settings(max_examples=100, deadline=None)
@given(text=_texts, anchor=_anchors)
def test_pattern_table_property(text: str, anchor: datetime) -> None:
    check_refs(_TABLE.resolve(text, anchor), text, anchor)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(text=_texts, anchor=_anchors)
def test_dateparser_property(text: str, anchor: datetime) -> None:
    check_refs(_DATEPARSER.resolve(text, anchor), text, anchor)


_RULES = _resolver("rules")
_TABLE = _resolver("pattern_table")
_DATEPARSER = _resolver("dateparser")
