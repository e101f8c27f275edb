"""Slot judge rules on the structure of a value change: a new value sharing words with the old one, words too
common in the store to name an attribute, the reach of a negation."""

from __future__ import annotations

from memlab.core.types import Relation
from memlab.strategies.judge.slot import SlotJudge
from memlab.text.change_reading import negated_tokens
from tests.judges.helpers import mem

JUDGE = SlotJudge(change_namespaces=["decisions"])


def test_a_new_value_that_shares_a_word_with_the_old_one_is_still_new() -> None:
    older = mem("Release target: 3 November", "We aim to ship v1 on 3 November.", day=0)
    newer = mem("Release moved to 17 November", "The rewrite took longer than we hoped.", day=20)
    verdict = JUDGE.judge(older, newer, 0.5)
    assert verdict.relation is Relation.SUPERSEDE, verdict.reason
    same = mem("Release moved to 3 November", "Confirmed with the customer.", day=20)
    assert JUDGE.judge(older, same, 0.5).relation is not Relation.SUPERSEDE


def test_words_most_notes_share_tie_no_two_notes_to_one_attribute() -> None:
    notes = [mem(f"Billing: note {i}", f"Going with tool{i} (billing).", day=i) for i in range(6)]
    older = mem("Billing: SQL Server", "Going with SQL Server (billing).", day=7)
    newer = mem("Billing: query-parameter versions live", "Moved to query-parameter versions (billing).", day=9)
    judge = SlotJudge(change_namespaces=["decisions"], max_attribute_share=0.3)
    assert judge.judge(older, newer, 0.5).relation is Relation.SUPERSEDE  # nothing observed: every word counts
    judge.observe([*notes, older, newer])
    assert "billing" in judge.common_
    assert judge.judge(older, newer, 0.5).relation is Relation.COEXIST


def test_negation_reaches_only_its_comma_separated_part() -> None:
    assert "billing" not in negated_tokens("Ok RabbitMQ is back on billing, nats did not work out")
    assert "nats" in negated_tokens("Ok RabbitMQ is back on billing, nats did not work out")
    older = mem("Going with trunk-based development on billing", day=0)
    newer = mem(
        "RabbitMQ is back on billing", "RabbitMQ is back as the queue on billing, NATS did not work out.", day=5
    )
    assert not JUDGE.judge(older, newer, 0.5).reason.startswith("negates")
