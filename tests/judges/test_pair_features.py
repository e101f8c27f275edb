"""Pair features of the learned judge: the attribute words that tell two changes of one subject apart."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memlab.strategies.judge.pair_features import FEATURES, pair_features
from memlab.text.attributes import attribute_words
from tests.judges.helpers import mem

SUBJECT = frozenset({"billing", "service", "s"})


def test_attribute_words_of_common_phrasings() -> None:
    assert attribute_words("From this week the web framework of the billing service is Falcon.", SUBJECT) == {
        "web",
        "framework",
    }
    assert attribute_words("The billing service uses PostgreSQL as its database.", SUBJECT) == {"database"}
    assert attribute_words("Switched the billing service's deploy target from GKE to ECS", SUBJECT) == {
        "deploy",
        "target",
    }
    assert attribute_words("Cache layer for the billing service going forward: Hazelcast", SUBJECT) == {
        "cache",
        "layer",
    }
    # an acronym inside the phrase is part of the attribute, not a value
    assert attribute_words("From this week the UI framework of the billing service is Svelte.", SUBJECT) == {
        "ui",
        "framework",
    }
    assert attribute_words("Travis CI is the billing service's CI provider.", SUBJECT) == {"ci", "provider"}
    # a sentence may start with the attribute phrase, and "its" may end a clause before a colon
    assert attribute_words("The owner of the billing service changed to Carla Diaz.", SUBJECT) == {"owner"}
    assert attribute_words("More on how the billing service uses Black as its formatting tool: CI fails.", SUBJECT) == {
        "formatting",
        "tool",
    }


def test_values_and_ignored_words_are_left_out() -> None:
    # "Fly.io" is a value (salient token), the subject words are ignored
    assert attribute_words("Effective today the billing service relies on Fly.io for its platform.", SUBJECT) == {
        "platform"
    }
    assert attribute_words("Closed 34 stale issues", SUBJECT) == frozenset()


def test_disjoint_attributes_are_a_feature() -> None:
    older = mem("From this week the web framework of the billing service is Falcon.")
    newer = mem("From this week the deployment platform of the billing service is Fly.io.", day=9)
    same = mem("From this week the web framework of the billing service is Litestar.", day=9)
    row = dict(zip(FEATURES, pair_features(older, newer, 0.8), strict=True))
    assert row["attr_both"] == 1.0 and row["attr_disjoint"] == 1.0 and row["attr_jaccard"] == 0.0
    row = dict(zip(FEATURES, pair_features(older, same, 0.8), strict=True))
    assert row["attr_both"] == 1.0 and row["attr_disjoint"] == 0.0 and row["attr_jaccard"] == 1.0


@given(st.text(max_size=200))
def test_attribute_words_are_lowercase_words_of_the_text(text: str) -> None:
    words = attribute_words(text)
    lowered = text.lower()
    assert all(w == w.lower() and w in lowered for w in words)
