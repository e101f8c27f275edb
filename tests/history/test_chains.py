"""Chains and time travel: one current member, as-of returns exactly the valid member, reverts end at A."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.types import Memory, Relation, Verdict
from memlab.pipeline.history import history_of
from memlab.pipeline.recall import eligible, recall
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.verdicts import apply_verdict, withdraw_verdict

T0 = datetime(2025, 1, 1, tzinfo=UTC)
SUPERSEDE = Verdict(Relation.SUPERSEDE, 0.9, "test")


def build_chain(values: list[int], gaps: list[int], extra_edges: bool) -> tuple[MemoryStore, list[Memory]]:
    """A store whose memories state ``values`` in order, each superseding the previous."""
    memories = []
    t = T0
    for i, (value, gap) in enumerate(zip(values, gaps, strict=True)):
        t = t + timedelta(hours=gap)
        memories.append(Memory(f"m{i:03d}", "decisions", t, f"Use value V{value}", f"value V{value}"))
    store = MemoryStore(memories)
    for older, newer in itertools.pairwise(memories):
        apply_verdict(store, older, newer, SUPERSEDE, "run")
    if extra_edges:  # a judge may also emit older→later pairs; validity must still end at the first successor
        for i in range(len(memories) - 2):
            apply_verdict(store, memories[i], memories[i + 2], SUPERSEDE, "run")
    return store, memories


chains = st.integers(min_value=1, max_value=8).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(
            lambda v: all(a != b for a, b in itertools.pairwise(v))
        ),
        st.lists(st.integers(1, 200), min_size=n, max_size=n),
        st.booleans(),
    )
)


@settings(max_examples=60, deadline=None)
@given(chains)
def test_one_current_member_and_history_order(case):
    values, gaps, extra = case
    store, memories = build_chain(values, gaps, extra)
    now = memories[-1].timestamp + timedelta(days=1)
    for memory in memories:
        chain = store.chain(memory.id)
        current = [i for i in chain if store.valid_at(i, now)]
        assert current == [memories[-1].id]
        assert store.current_of(memory.id) == memories[-1].id
        assert [m.id for m in history_of(store, memory.id)] == [m.id for m in memories]


@settings(max_examples=60, deadline=None)
@given(chains, st.floats(0.0, 1.0))
def test_as_of_returns_exactly_the_valid_member(case, frac):
    values, gaps, extra = case
    store, memories = build_chain(values, gaps, extra)
    span = (memories[-1].timestamp - memories[0].timestamp) + timedelta(hours=1)
    when = memories[0].timestamp + span * frac
    expected = [m for m in memories if m.timestamp <= when][-1]
    assert [m for m in history_of(store, memories[0].id) if store.valid_at(m.id, when)] == [expected]
    assert [m.id for m in eligible(store, "standard", when, as_of=when)] == [expected.id]
    before = memories[0].timestamp - timedelta(seconds=1)
    assert not any(store.valid_at(m.id, before) for m in history_of(store, memories[-1].id))


def test_revert_ends_at_the_reverted_value():
    store, memories = build_chain([0, 1, 0], [1, 24, 48], extra_edges=True)
    now = memories[-1].timestamp + timedelta(days=1)
    current = store.current_of(memories[0].id)
    assert store.memories[current].summary == "Use value V0"
    assert current == memories[2].id
    assert [m.summary for m in history_of(store, memories[1].id)] == ["Use value V0", "Use value V1", "Use value V0"]
    # the first A is not current even though its value is again true: it was superseded
    assert not store.valid_at(memories[0].id, now)


def test_current_only_by_default_superseded_in_exhaustive():
    store, memories = build_chain([0, 1, 2], [1, 2, 3], extra_edges=False)
    now = memories[-1].timestamp + timedelta(hours=1)
    assert [m.id for m in eligible(store, "standard", now)] == [memories[-1].id]
    assert [m.id for m in eligible(store, "exhaustive", now)] == [m.id for m in memories]


def test_recall_history_through_components():
    from memlab.wiring.build import build_components
    from tests.support.compose import compose_cfg

    components = build_components(compose_cfg(["embedder=tfidf"]))
    store, memories = build_chain([0, 1, 0, 2], [1, 5, 9, 13], extra_edges=False)
    hits = recall(store, components, "Which value V1 is used?", memories[-1].timestamp, mode="exhaustive", limit=1)
    assert [m.id for m in history_of(store, hits[0].memory.id)] == [m.id for m in memories]


def test_propagation_supersedes_every_copy_of_a_replaced_fact():
    from memlab.pipeline.propagate import propagate_supersession

    t = [T0 + timedelta(hours=h) for h in range(4)]
    a = Memory("a", "decisions", t[0], "Use V0", "")
    b = Memory("b", "patterns", t[1], "Reminder: V0", "")
    c = Memory("c", "decisions", t[2], "Switched from V0 to V1", "")
    d = Memory("d", "patterns", t[3], "Reminder: V1", "")
    store = MemoryStore([a, b, c, d])
    apply_verdict(store, a, b, Verdict(Relation.DUPLICATE), "r")
    apply_verdict(store, b, c, SUPERSEDE, "r")  # the judge only saw the restatement next to the change
    apply_verdict(store, c, d, Verdict(Relation.DUPLICATE), "r")
    assert store.valid_at("a", t[3])
    assert propagate_supersession(store, "r") == 1
    assert not store.valid_at("a", t[3]) and store.state("a").superseded_by == "c"
    assert store.valid_at("d", t[3]) and store.valid_at("c", t[3])  # later members are untouched
    assert propagate_supersession(store, "r") == 0


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=12, unique=True),
    st.data(),
)
def test_withdrawing_verdicts_leaves_the_states_of_the_verdicts_that_stand(pairs, data):
    memories = [Memory(f"m{i}", "decisions", T0 + timedelta(hours=i), f"fact {i}") for i in range(6)]
    pairs = [(a, b) for a, b in pairs if a < b]
    gone = data.draw(st.sets(st.sampled_from(pairs))) if pairs else set()
    store, expected = MemoryStore(memories), MemoryStore(memories)
    for a, b in pairs:
        apply_verdict(store, memories[a], memories[b], SUPERSEDE, "run")
        if (a, b) not in gone:
            apply_verdict(expected, memories[a], memories[b], SUPERSEDE, "run")
    for a, b in gone:
        assert withdraw_verdict(store, memories[a], memories[b]) == 1
    assert store.states == expected.states and set(store.edges) == set(expected.edges)


def test_withdrawing_a_duplicate_clears_the_mark_unless_another_original_stands():
    memories = [Memory(f"m{i}", "decisions", T0 + timedelta(hours=i), "Use Kafka") for i in range(3)]
    store = MemoryStore(memories)
    duplicate = Verdict(Relation.DUPLICATE, 0.9, "test")
    apply_verdict(store, memories[0], memories[2], duplicate, "run")
    apply_verdict(store, memories[1], memories[2], duplicate, "run")
    assert withdraw_verdict(store, memories[0], memories[2]) == 1 and store.state("m2").duplicate_of == "m1"
    assert withdraw_verdict(store, memories[1], memories[2]) == 1 and store.state("m2").duplicate_of is None
    assert withdraw_verdict(store, memories[1], memories[2]) == 0  # nothing left to withdraw
