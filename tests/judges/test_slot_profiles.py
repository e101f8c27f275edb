"""Slot profiles: synonyms of one slot found from how a store's own notes use them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.strategies.judge.pair_features import FEATURES, pair_features
from memlab.strategies.judge.slot_profiles import PROFILE_FEATURES, SlotProfiles
from memlab.text.attributes import attribute_phrases, value_tokens
from tests.judges.helpers import mem

NOTES = [
    mem("From this week the message broker of the billing service is Redis Streams."),
    mem("The billing service relies on Redis Streams for its event bus.", day=1),
    mem("The billing service relies on RabbitMQ for its event bus.", day=2),
    mem("From this week the message broker of the billing service is Kafka.", day=3),
    mem("The billing service relies on Kafka for its event bus.", day=4),
    mem("From this week the deploy target of the billing service is Fly.io.", day=5),
    mem("The billing service relies on Heroku for its deploy target.", day=6),
    mem("From this week the deploy target of the billing service is Heroku.", day=7),
]


def test_what_a_note_names() -> None:
    assert attribute_phrases(NOTES[0]) == {"message broker"}
    assert value_tokens(NOTES[0]) == {"redis", "streams"}
    assert attribute_phrases(NOTES[2]) == {"event bus"}


def test_synonyms_share_a_profile_other_slots_do_not() -> None:
    profiles = SlotProfiles.from_memories(NOTES)
    broker_then_bus = profiles.features(NOTES[3], NOTES[2])[:4]  # message broker: Kafka / event bus: RabbitMQ
    broker_then_target = profiles.features(NOTES[3], NOTES[5])[:4]  # message broker: Kafka / deploy target: Fly.io
    attr, value, old_value_new_attr, _ = broker_then_bus
    assert attr > 0.3  # "message broker" and "event bus" share Redis Streams and Kafka
    assert value > 0.0
    assert old_value_new_attr > 0.0  # Kafka is stated as an event bus elsewhere in the store
    assert broker_then_target[0] == 0.0 and broker_then_target[1] == 0.0 and broker_then_target[2] == 0.0


def test_unknown_without_attribute_or_value() -> None:
    profiles = SlotProfiles.from_memories(NOTES)
    plain = mem("Closed some stale issues today.", day=9)
    salient, words = profiles.features(NOTES[0], plain)[:4], profiles.features(NOTES[0], plain)[4:]
    assert salient == [-1.0, -1.0, -1.0, -1.0]  # no attribute phrase, no salient token
    assert words[0] == -1.0 and words[2] == -1.0 and words[1] >= 0.0  # it has words, but names no attribute


def test_lowercase_values_are_read_by_the_words_table() -> None:
    notes = [
        mem("The project uses trunk-based development as its branching strategy."),
        mem("The project relies on trunk-based development for its branch policy.", day=1),
        mem("The project uses GitHub flow as its branching strategy.", day=2),
        mem("The project relies on plain prose for its docstring style.", day=3),
    ]
    profiles = SlotProfiles.from_memories(notes)
    assert profiles.features(notes[0], notes[1])[0] == 0.0  # no salient value links the two phrases
    assert profiles.features(notes[0], notes[1])[4] > 0.0  # the words table does
    assert profiles.features(notes[0], notes[3])[4] == 0.0


def test_pair_features_without_profiles_mark_them_unknown() -> None:
    row = dict(zip(FEATURES, pair_features(NOTES[3], NOTES[2], 0.7), strict=True))
    assert [row[name] for name in PROFILE_FEATURES] == [-1.0] * len(PROFILE_FEATURES)
    profiles = SlotProfiles.from_memories(NOTES)
    row = dict(zip(FEATURES, pair_features(NOTES[3], NOTES[2], 0.7, profiles), strict=True))
    assert row["profile_attr_sim"] > 0.3


@settings(max_examples=40, deadline=None)
@given(st.permutations(NOTES), st.integers(0, len(NOTES) - 1), st.integers(0, len(NOTES) - 1))
def test_profiles_do_not_depend_on_note_order_and_similarities_are_symmetric(order, i, j) -> None:  # type: ignore[no-untyped-def]
    a, b = SlotProfiles.from_memories(NOTES), SlotProfiles.from_memories(order)
    fa, fb = a.features(NOTES[i], NOTES[j]), b.features(NOTES[i], NOTES[j])
    assert fa == fb or all(abs(x - y) < 1e-9 for x, y in zip(fa, fb, strict=True))
    back = a.features(NOTES[j], NOTES[i])
    assert abs(fa[0] - back[0]) < 1e-9 and abs(fa[1] - back[1]) < 1e-9  # attribute and value similarity
    assert abs(fa[2] - back[3]) < 1e-9  # the cross features swap
    assert abs(fa[4] - back[4]) < 1e-9 and abs(fa[5] - back[5]) < 1e-9 and abs(fa[6] - back[7]) < 1e-9
    for x in (*fa[:2], *fa[4:6]):
        assert x == -1.0 or -1e-9 <= x <= 1.0 + 1e-9


_FEATURES_OF_A_HISTORY = """
import json
from memlab.data.project_history.generator import generate
from memlab.strategies.judge.slot_profiles import SlotProfiles
h = generate(1020, 120)
p = SlotProfiles.from_memories(h.memories)
ms = h.memories
print(json.dumps([p.features(ms[i], ms[j]) for i in range(0, len(ms), 3) for j in range(i + 1, min(len(ms), i + 9))]))
"""


def test_features_are_the_same_in_every_process() -> None:
    """Set order changes with PYTHONHASHSEED; the features (and so a model trained on them) must not."""
    import json
    import os
    import subprocess
    import sys

    outputs = []
    for hash_seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", _FEATURES_OF_A_HISTORY], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1] == outputs[2]
    assert any(x not in (-1.0, 0.0, 1.0) for row in outputs[0] for x in row)  # real similarities were compared


def test_two_hops_link_synonyms_that_share_no_value() -> None:
    notes = [
        mem("From this week the deploy target of the billing service is Fly.io."),
        mem("From this week the runtime environment of the billing service is Fly.io.", day=1),
        mem("From this week the runtime environment of the billing service is Heroku.", day=2),
        mem("From this week the hosting platform of the billing service is Heroku.", day=3),
        mem("From this week the message broker of the billing service is Kafka.", day=4),
        mem("From this week the event bus of the billing service is Kafka.", day=5),
    ]
    profiles = SlotProfiles.from_memories(notes)
    names = list(PROFILE_FEATURES)
    target_then_platform = dict(zip(names, profiles.features(notes[0], notes[3]), strict=True))
    target_then_broker = dict(zip(names, profiles.features(notes[0], notes[4]), strict=True))
    assert target_then_platform["profile_attr_sim"] == 0.0  # no value names both phrases
    assert target_then_platform["profile_attr_sim2"] > 0.1  # both reach "runtime environment"
    assert target_then_broker["profile_attr_sim2"] == 0.0
    assert profiles.features(notes[4], notes[5])[names.index("profile_attr_sim2")] > 0.1
