"""Selector options: MMR, knapsack, recency and retention top-k on hand-computed instances, plus properties."""

from __future__ import annotations

import functools
import itertools
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.types import InjectionCandidate, SelectionContext, Tier
from memlab.strategies.selector.knapsack import KnapsackSelector
from memlab.strategies.selector.mmr import MmrSelector, text_tokens
from memlab.strategies.selector.recency import RecencySelector
from memlab.strategies.selector.retention_topk import RetentionTopkSelector
from memlab.text.tokens import item_tokens, jaccard
from memlab.wiring.build import build
from tests.support.compose import compose_cfg

NOW = datetime(2025, 6, 1, tzinfo=UTC)
CTX = SelectionContext(now=NOW)


def cand(cid: str, text: str, rel: float = 0.0, rec: float = 0.0, days_ago: int = 0, tier=Tier.WARM, conf=1.0):
    return InjectionCandidate(
        cid,
        "memory",
        "decisions",
        text,
        NOW - timedelta(days=days_ago),
        relevance=rel,
        recency=rec,
        tier=tier,
        confidence=conf,
    )


def test_mmr_three_items_by_hand():
    a = cand("a", "- [decisions, 2025-06-01] alpha beta gamma", rel=1.0)  # rel = 0.5·1.0 = 0.5
    b = cand("b", "- [decisions, 2025-06-01] alpha beta gamma delta", rel=0.9)  # 0.45; Jaccard(a, b) = 3/4
    c = cand("c", "- [decisions, 2025-06-01] omega sigma", rel=0.5)  # 0.25; no overlap
    assert jaccard(text_tokens(a.text), text_tokens(b.text)) == pytest.approx(0.75)
    # step 1: 0.5·rel → a 0.25, b 0.225, c 0.125 → a
    # step 2: b 0.225 − 0.5·0.75 = −0.15, c 0.125 − 0 = 0.125 → c; step 3: b
    assert [x.id for x in MmrSelector(lambda_=0.5).select([b, c, a], CTX, 1000)] == ["a", "c", "b"]
    assert [x.id for x in MmrSelector(lambda_=1.0).select([c, b, a], CTX, 1000)] == ["a", "b", "c"]
    assert [x.id for x in MmrSelector(max_items=2).select([c, b, a], CTX, 1000)] == ["a", "c"]


def test_mmr_skips_what_no_longer_fits():
    a = cand("a", "alpha " * 10, rel=1.0)  # 61 chars → 16 tokens
    b = cand("b", "beta " * 20, rel=0.9)  # 101 chars → 26 tokens
    c = cand("c", "gamma", rel=0.1)  # 2 tokens
    assert [x.id for x in MmrSelector().select([a, b, c], CTX, 20)] == ["a", "c"]


def test_knapsack_beats_greedy_on_a_tiny_instance():
    big = cand("a", "x" * 23, rel=1.0)  # 6 tokens, value 0.5
    b = cand("b", "y" * 19, rel=0.6)  # 5 tokens, value 0.3
    c = cand("c", "z" * 19, rel=0.6)  # 5 tokens, value 0.3
    assert [item_tokens(x.text) for x in (big, b, c)] == [6, 5, 5]
    # greedy by value takes a (6 of 10 tokens) and nothing else fits: 0.5; the optimum is b + c = 0.6
    assert [x.id for x in KnapsackSelector().select([big, b, c], CTX, 10)] == ["b", "c"]
    assert [x.id for x in KnapsackSelector().select([big, b, c], CTX, 16)] == ["a", "b", "c"]
    assert [x.id for x in KnapsackSelector(max_items=1).select([big, b, c], CTX, 10)] == ["b"]
    assert KnapsackSelector().select([cand("z", "zero value")], CTX, 100) == []


@settings(max_examples=60, deadline=None)
@given(
    items=st.lists(st.tuples(st.integers(0, 60), st.floats(0, 1)), min_size=0, max_size=8),
    budget=st.integers(0, 60),
)
def test_knapsack_matches_brute_force(items, budget):
    pool = [cand(f"c{i}", "w" * n, rel=r) for i, (n, r) in enumerate(items)]
    selector = KnapsackSelector()
    chosen = selector.select(pool, CTX, budget)
    best = 0.0
    for k in range(len(pool) + 1):
        for subset in itertools.combinations(pool, k):
            if sum(item_tokens(x.text) for x in subset) <= budget:
                best = max(best, sum(selector.value(x) for x in subset))
    assert sum(selector.value(x) for x in chosen) == pytest.approx(best)


def test_recency_newest_first_with_id_ties_and_skip():
    items = [cand("b", "one", days_ago=1), cand("a", "two", days_ago=1), cand("c", "x" * 200, days_ago=0)]
    assert [x.id for x in RecencySelector().select(items, CTX, 1000)] == ["c", "a", "b"]
    assert [x.id for x in RecencySelector().select(items, CTX, 10)] == ["a", "b"]  # c does not fit: skipped
    assert [x.id for x in RecencySelector(on_overflow="stop").select(items, CTX, 10)] == []
    assert RecencySelector().select([cand("d", "low", conf=0.5)], CTX, 100) == []  # under min_confidence 0.7


def test_retention_topk_tier_first_then_recency():
    items = [
        cand("cold", "c", rec=0.99, tier=Tier.COLD),
        cand("warm", "w", rec=0.2, tier=Tier.WARM),
        cand("hot", "h", rec=0.1, tier=Tier.HOT),
        cand("hot2", "h2", rec=0.5, tier=Tier.HOT),
    ]
    assert [x.id for x in RetentionTopkSelector().select(items, CTX, 100)] == ["hot2", "hot", "warm", "cold"]
    assert [x.id for x in RetentionTopkSelector(k=2).select(items, CTX, 100)] == ["hot2", "hot"]


@functools.cache
def _built(option: str):
    return build(compose_cfg([f"selector={option}"])["selector"], "selector")


WORDS = ["deploy", "flask", "fastapi", "postgres", "redis", "cache", "auth", "token", "ci", "docker"]
word_cands = st.lists(
    st.builds(
        lambda i, words, rel, rec, days, tier: cand(
            f"c{i:02d}", "- [decisions, 2025-06-01] " + " ".join(words), rel=rel, rec=rec, days_ago=days, tier=tier
        ),
        st.integers(0, 15),
        st.lists(st.sampled_from(WORDS), max_size=12),
        st.floats(0, 1),
        st.floats(0, 1),
        st.integers(0, 30),
        st.sampled_from(list(Tier)),
    ),
    max_size=20,
)


@pytest.mark.parametrize("option", ["mmr", "knapsack", "recency", "retention_topk"])
@settings(max_examples=40, deadline=None)
@given(cands=word_cands, budget=st.integers(0, 400), seed=st.integers(0, 100))
def test_selectors_budget_unique_order_independent_on_word_texts(option, cands, budget, seed):
    selector = _built(option)
    chosen = selector.select(cands, CTX, budget)
    assert sum(item_tokens(c.text) for c in chosen) <= budget
    assert len({c.id for c in chosen}) == len(chosen)
    shuffled = list(cands)
    np.random.default_rng(seed).shuffle(shuffled)
    assert selector.select(shuffled, CTX, budget) == chosen


def test_recency_with_summaries_first_is_the_running_document_then_the_newest_messages():
    from datetime import UTC, datetime, timedelta

    from memlab.core.types import InjectionCandidate, SelectionContext
    from memlab.strategies.selector.recency import RecencySelector

    t0 = datetime(2025, 1, 1, tzinfo=UTC)

    def cand(cid, kind, day):
        return InjectionCandidate(cid, kind, "dialogue", f"- [{cid}] text", t0 + timedelta(days=day))

    pool = [cand("s2", "summary", 5), cand("s1", "summary", 2), *(cand(f"m{d}", "memory", d) for d in range(8))]
    chosen = RecencySelector(max_items=3, min_confidence=0.0, summaries_first=True).select(
        pool, SelectionContext(now=t0 + timedelta(days=9)), 2000
    )
    assert [c.id for c in chosen] == ["s1", "s2", "m7", "m6", "m5"]
    plain = RecencySelector(max_items=3, min_confidence=0.0).select(pool, SelectionContext(now=t0), 2000)
    assert [c.id for c in plain] == ["m7", "m6", "m5"]
