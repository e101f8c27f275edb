"""Retention options: formulas against hand-computed values, and the never-rises-with-age property."""

from __future__ import annotations

import functools
import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, MemoryState, Tier
from memlab.strategies.retention.actr import ActrRetention
from memlab.strategies.retention.fifo_cap import FifoCapRetention
from memlab.strategies.retention.overtaken import OvertakenRetention
from memlab.strategies.retention.power_law import PowerLawRetention
from memlab.strategies.retention.salience_prune import SaliencePruneRetention
from memlab.strategies.retention.sliding_window import SlidingWindowRetention
from memlab.wiring.build import available_options, build
from tests.support.compose import compose_cfg

NOW = datetime(2025, 6, 1, tzinfo=UTC)


def mem(i: int, days_ago: float, ns: str = "progress", text: str = "", meta: dict | None = None) -> Memory:
    return Memory(f"m{i:03d}", ns, NOW - timedelta(days=days_ago), text or f"memory {i}", meta=meta or {})


def test_power_law_at_ten_days():
    fn = PowerLawRetention()
    m = mem(1, 10, ns="decisions")
    s = fn.score(m, MemoryState(m.id), NOW)
    assert s.recency == pytest.approx(11**-0.5)  # (1 + 10)^-0.5 = 0.301511
    assert s.overall == pytest.approx(0.4 * 0.30151134 + 0.4 * 1.0, abs=1e-7)  # 0.520605
    assert s.tier is Tier.WARM
    assert PowerLawRetention(decay=1.0).score(m, MemoryState(m.id), NOW).recency == pytest.approx(1 / 11)


def test_power_law_keeps_a_longer_tail_than_exponential():
    from memlab.strategies.retention.exponential import ExponentialRetention

    m = mem(1, 365)
    assert PowerLawRetention().recency(m, MemoryState(m.id), NOW) > ExponentialRetention().recency(
        m, MemoryState(m.id), NOW
    )


def test_actr_two_uses():
    fn = ActrRetention()
    m = mem(1, 9)  # created 9 days ago, recalled 4 days ago
    state = MemoryState(m.id, activation_count=1, access_times=(NOW - timedelta(days=4),))
    b = math.log(9**-0.5 + 4**-0.5)  # ln(1/3 + 1/2) = -0.182322
    assert fn.base_level(fn.uses(m, state), NOW) == pytest.approx(b)
    expected = 1 / (1 + math.exp(-(b + 0.5 * math.log(30)) / 0.4))  # 0.978026
    s = fn.score(m, state, NOW)
    assert s.overall == pytest.approx(expected) and s.overall == pytest.approx(0.978026, abs=1e-6)
    assert s.tier is Tier.HOT
    assert s.recency == pytest.approx(1 / (1 + math.exp(-(math.log(9**-0.5) + 0.5 * math.log(30)) / 0.4)))


def test_actr_one_use_thirty_days_ago_is_one_half_and_recalls_raise_it():
    fn = ActrRetention()
    m = mem(1, 30)
    assert fn.score(m, MemoryState(m.id), NOW).overall == pytest.approx(0.5)
    recalled = MemoryState(m.id, last_accessed=NOW - timedelta(days=1))
    assert fn.score(m, recalled, NOW).overall > 0.5
    assert fn.score(m, MemoryState(m.id, superseded_by="x"), NOW).overall == pytest.approx(0.5)  # no penalty


def test_actr_future_use_counts_as_min_age():
    fn = ActrRetention()
    m = mem(1, -2)  # recorded after now (never passed by the pipeline): counts as one hour old
    assert fn.base_level(fn.uses(m, MemoryState(m.id)), NOW) == pytest.approx(math.log((1 / 24) ** -0.5))


def test_salience_prune_single_memory_uses_default_entropy():
    fn = SaliencePruneRetention()
    m = mem(1, 60)
    s = fn.score(m, MemoryState(m.id), NOW)
    # decay = 0.3·0 + 0.3·0 + 0.2·0.5 + 0.2·0.5^(60/30) = 0.15: not below 0.1, kept, COLD
    assert s.overall == pytest.approx(0.15) and s.tier is Tier.COLD


def _dupes(ns: str = "progress", days_ago: float = 60, meta: dict | None = None):
    a = mem(1, days_ago, ns=ns, text="run the nightly build", meta=meta)
    b = mem(2, days_ago, ns=ns, text="run the nightly build", meta=meta)
    return [a, b], [MemoryState(a.id), MemoryState(b.id)]


def test_salience_prune_archives_redundant_idle_unsalient_memories():
    fn = SaliencePruneRetention()
    memories, states = _dupes()
    scores = fn.score_all(memories, states, NOW)
    # identical texts: entropy 1 − 1 = 0; decay = 0.2·0.25 = 0.05 < 0.1, salience 0, idle 60 days: pruned
    assert [s.tier for s in scores] == [Tier.ARCHIVED, Tier.ARCHIVED]
    assert scores[0].overall == pytest.approx(0.05)


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"ns": "decisions"}, "salience 1 > 0.5: always kept"),
        ({"meta": {"salience": 0.9}}, "meta salience overrides the namespace"),
        ({"days_ago": 20}, "idle less than 30 days"),
    ],
)
def test_salience_prune_keeps(kwargs, why):
    fn = SaliencePruneRetention()
    memories, states = _dupes(**kwargs)
    scores = fn.score_all(memories, states, NOW)
    assert all(s.tier is not Tier.ARCHIVED and s.overall >= 0.1 for s in scores), why


def test_salience_prune_recent_access_blocks_pruning():
    fn = SaliencePruneRetention()
    memories, states = _dupes()
    states[0] = MemoryState(memories[0].id, access_times=(NOW - timedelta(days=3),))
    scores = fn.score_all(memories, states, NOW)
    assert scores[0].tier is Tier.COLD and scores[0].overall == pytest.approx(0.1)
    assert scores[1].tier is Tier.ARCHIVED


def test_salience_prune_references_from_kept_memories_propagate():
    fn = SaliencePruneRetention()
    memories, states = _dupes()
    fresh = mem(3, 0, text="run the nightly build")  # same text, recent: kept (not idle)
    memories.append(fresh)
    states.append(MemoryState(fresh.id))
    plain = fn.score_all(memories, states, NOW)
    assert [s.tier for s in plain][:2] == [Tier.ARCHIVED, Tier.ARCHIVED]
    refs = {"m003": ["m001"], "m001": ["m002"]}  # kept -> m001 -> m002: both kept (fixpoint)
    linked = fn.score_all(memories, states, NOW, references=refs)
    assert [s.tier for s in linked][:2] == [Tier.COLD, Tier.COLD]
    only_pruned = fn.score_all(memories, states, NOW, references={"m001": ["m002"]})  # referrer is pruned itself
    assert [s.tier for s in only_pruned][:2] == [Tier.ARCHIVED, Tier.ARCHIVED]


def test_salience_prune_rejects_cold_above_decay_threshold():
    fn = SaliencePruneRetention(thresholds={"hot": 0.6, "warm": 0.3, "cold": 0.2})
    with pytest.raises(MemlabError, match=r"thresholds\.cold"):
        fn.score(mem(1, 1), MemoryState("m001"), NOW)


def test_sliding_window_trigger_and_keep():
    fn = SlidingWindowRetention(trigger=100, keep=20)
    memories = [mem(i, 200 - i) for i in range(101)]  # m100 is the newest
    states = [MemoryState(m.id) for m in memories]
    assert all(s.tier is Tier.HOT for s in fn.score_all(memories[:100], states[:100], NOW))
    scores = fn.score_all(memories, states, NOW)
    hot = {m.id for m, s in zip(memories, scores, strict=True) if s.tier is Tier.HOT}
    assert hot == {f"m{i:03d}" for i in range(81, 101)}
    assert sum(s.tier is Tier.ARCHIVED and s.overall == 0.0 for s in scores) == 81
    assert fn.score(memories[0], states[0], NOW).tier is Tier.HOT


def test_window_ties_are_broken_by_id_whatever_the_order():
    same_time = [mem(i, 1) for i in (4, 2, 3, 1, 0)]
    states = [MemoryState(m.id) for m in same_time]
    scores = FifoCapRetention(capacity=2).score_all(same_time, states, NOW)
    assert {m.id for m, s in zip(same_time, scores, strict=True) if s.tier is Tier.HOT} == {"m004", "m003"}


def test_fifo_cap_and_bad_parameters():
    memories = [mem(i, 10 - i) for i in range(5)]
    states = [MemoryState(m.id) for m in memories]
    scores = FifoCapRetention(capacity=3).score_all(memories, states, NOW)
    assert [s.tier for s in scores] == [Tier.ARCHIVED, Tier.ARCHIVED, Tier.HOT, Tier.HOT, Tier.HOT]
    with pytest.raises(MemlabError, match="capacity"):
        FifoCapRetention(capacity=-1).score_all(memories, states, NOW)
    with pytest.raises(MemlabError, match="keep <= trigger"):
        SlidingWindowRetention(trigger=5, keep=10).score_all(memories, states, NOW)


def test_overtaken_counts_only_memories_recorded_strictly_later():
    # m0 alone, then m1 and m2 together, then m3: later shares 3/4, 1/4, 1/4, 0
    memories = [mem(0, 9), mem(1, 5), mem(2, 5), mem(3, 1)]
    states = [MemoryState(m.id) for m in memories]
    scores = OvertakenRetention(max_later_share=0.25).score_all(memories, states, NOW)
    assert [s.overall for s in scores] == [0.25, 0.75, 0.75, 1.0]
    assert [s.tier for s in scores] == [Tier.COLD, Tier.HOT, Tier.HOT, Tier.HOT]
    assert [s.tier for s in OvertakenRetention(0.2).score_all(memories, states, NOW)] == [Tier.COLD] * 3 + [Tier.HOT]
    assert all(s.tier is Tier.HOT for s in OvertakenRetention(1.0).score_all(memories, states, NOW))
    later_clock = OvertakenRetention(0.25).score_all(memories, states, NOW + timedelta(days=400))
    assert later_clock == scores  # reads no clock
    assert OvertakenRetention(0.0).score(memories[0], states[0], NOW).tier is Tier.HOT
    with pytest.raises(MemlabError, match="max_later_share"):
        OvertakenRetention(1.5).score_all(memories, states, NOW)


@functools.cache
def _built(option: str):
    return build(compose_cfg([f"retention={option}"])["retention"], "retention")


@pytest.mark.parametrize("option", available_options("retention"))
@settings(max_examples=40, deadline=None)
@given(
    age=st.floats(0, 5000),
    accesses=st.lists(st.floats(0, 5000), max_size=5),
    count=st.integers(0, 100),
    superseded=st.booleans(),
    ns=st.sampled_from(["decisions", "progress", "dialogue"]),
    later=st.floats(0, 5000),
)
def test_retention_never_rises_with_age(option, age, accesses, count, superseded, ns, later):
    fn = _built(option)
    m = mem(1, age, ns=ns)
    times = tuple(sorted(NOW - timedelta(days=a) for a in accesses))
    state = MemoryState(
        m.id,
        activation_count=count,
        last_accessed=times[-1] if times else None,
        superseded_by="x" if superseded else None,
        access_times=times,
    )
    first = fn.score(m, state, NOW)
    second = fn.score(m, state, NOW + timedelta(days=later))
    assert 0.0 <= second.overall <= first.overall + 1e-12 <= 1.0 + 1e-12
