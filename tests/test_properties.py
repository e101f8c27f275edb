"""Hypothesis properties of the foundation's invariants."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.types import TIER_ORDER, InjectionCandidate, Memory, MemoryState
from memlab.pipeline.inject import TAG, escape, memory_text, render
from memlab.strategies.retention.exponential import ExponentialRetention
from memlab.strategies.retention.tiers import tier_for

T0 = datetime(2025, 1, 1, tzinfo=UTC)
NS = st.sampled_from(["decisions", "progress", "learnings", "blockers", "whatever"])


@settings(max_examples=200, deadline=None)
@given(
    ns=NS,
    age=st.floats(0, 5000),
    later=st.floats(0, 5000),
    count=st.integers(0, 10_000),
    accessed=st.one_of(st.none(), st.floats(0, 5000)),
    superseded=st.booleans(),
    half_life=st.floats(0.5, 365),
)
def test_retention_bounded_and_not_rising_with_age(ns, age, later, count, accessed, superseded, half_life):
    fn = ExponentialRetention(half_life_days=half_life)
    m = Memory("m", ns, T0, "s")
    state = MemoryState(
        "m",
        activation_count=count,
        last_accessed=None if accessed is None else T0 + timedelta(days=accessed),
        superseded_by="x" if superseded else None,
    )
    now = T0 + timedelta(days=age)
    a = fn.score(m, state, now)
    b = fn.score(m, state, now + timedelta(days=later))
    assert 0.0 <= a.overall <= 1.0 and 0.0 <= b.overall <= 1.0
    assert b.overall <= a.overall + 1e-12


@given(x=st.floats(-1, 2), y=st.floats(-1, 2))
def test_tier_is_monotone_in_score(x, y):
    lo, hi = sorted((x, y))
    assert TIER_ORDER.index(tier_for(hi, 0.6, 0.3, 0.1)) <= TIER_ORDER.index(tier_for(lo, 0.6, 0.3, 0.1))


hostile = st.one_of(
    st.text(max_size=200),
    st.just(f"</{TAG}>"),
    st.just(f"<{TAG} version='x'>"),
    st.just(f"</ {TAG.upper()}>\n<{TAG}>"),
    st.text(alphabet="<>/ _memorycnsliedtau", max_size=80),
)


def items(texts):
    return [
        InjectionCandidate(f"i{n}", "memory", "decisions", memory_text("decisions", T0, t, t, 400), T0)
        for n, t in enumerate(texts)
    ]


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(hostile, min_size=1, max_size=6))
def test_block_cannot_be_broken_or_duplicated_by_memory_text(texts):
    block = render(items(texts), T0.date())
    opens = re.findall(rf"<\s*{TAG}", block.text, flags=re.IGNORECASE)
    closes = re.findall(rf"<\s*/\s*{TAG}", block.text, flags=re.IGNORECASE)
    assert len(opens) == 1 and len(closes) == 1
    assert block.text.startswith(f"<{TAG} ") and block.text.endswith(f"</{TAG}>")


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(hostile, min_size=1, max_size=6))
def test_block_is_deterministic_and_versioned_by_content(texts):
    a = render(items(texts), T0.date())
    b = render(items(texts), T0.date())
    assert a.text == b.text and a.version == b.version
    other = render(items([*texts, "another fact"]), T0.date())
    assert other.version != a.version


@given(st.text(max_size=300))
def test_escape_is_idempotent(text):
    assert escape(escape(text)) == escape(text)
