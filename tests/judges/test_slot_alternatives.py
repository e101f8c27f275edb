"""Alternatives tables: values a store's notes name together are read as alternatives of one slot."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.strategies.judge.slot_alternatives import AlternativesTable, cosine
from memlab.text.attributes import value_tokens
from tests.judges.helpers import mem

NOTES = [
    mem("Switched the billing service's message queue from Kafka to NATS."),
    mem("Replaced Kafka with NATS for the billing service.", day=1),
    mem("Deprecated Buildkite in favour of Jenkins for the project.", day=2),
    mem("The billing service keeps Kafka.", day=3),
    mem("NATS becomes the billing service's event bus.", day=4),
    mem("The project runs its nightly builds on Jenkins.", day=5),
    mem("The billing service now runs on Heroku.", day=6),
]


def test_values_named_together_are_alternatives() -> None:
    table = AlternativesTable(NOTES, value_tokens)
    kafka, nats, jenkins = NOTES[3], NOTES[4], NOTES[5]
    alt_max, alt_sim = table.features(kafka, nats)
    assert alt_max > 0.0  # "Kafka" and "NATS" were named together twice
    assert table.features(kafka, jenkins)[0] == 0.0  # never named together
    assert table.features(kafka, NOTES[6])[0] == 0.0  # Heroku is named alone
    assert alt_sim >= 0.0


def test_no_value_on_one_side_is_unknown() -> None:
    table = AlternativesTable(NOTES, value_tokens)
    same = mem("The billing service keeps Kafka, again.", day=9)
    assert table.features(NOTES[3], same) == [-1.0, -1.0]  # nothing only one of them names
    assert table.features(NOTES[3], mem("the tests are flaky", day=9)) == [-1.0, -1.0]


def test_a_note_outside_the_store_is_read_on_the_fly() -> None:
    table = AlternativesTable(NOTES, value_tokens)
    outside = mem("The billing service picked NATS.", day=20)
    assert table.features(NOTES[3], outside)[0] > 0.0


@settings(max_examples=40, deadline=None)
@given(st.permutations(NOTES), st.integers(0, len(NOTES) - 1), st.integers(0, len(NOTES) - 1))
def test_order_free_and_symmetric(order, i, j) -> None:  # type: ignore[no-untyped-def]
    a, b = AlternativesTable(NOTES, value_tokens), AlternativesTable(order, value_tokens)
    fa = a.features(NOTES[i], NOTES[j])
    assert fa == b.features(NOTES[i], NOTES[j])
    assert fa == a.features(NOTES[j], NOTES[i])
    assert fa == [-1.0, -1.0] or (fa[0] >= 0.0 and -1e-9 <= fa[1] <= 1.0 + 1e-9)


def test_cosine_edges() -> None:
    assert cosine({}, {"a": 1.0}) == 0.0
    assert abs(cosine({"a": 1.0, "b": 1.0}, {"a": 2.0, "b": 2.0}) - 1.0) < 1e-12
    assert cosine({"a": 1.0}, {"b": 1.0}) == 0.0
