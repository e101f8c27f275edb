"""The slot judge's reading of change statements: trimmed value spans, passive drops, notations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.core.types import Relation
from memlab.strategies.judge.slot import SlotJudge
from memlab.text.change_reading import read_changes, trim_span
from tests.judges.helpers import mem

JUDGE = SlotJudge(change_namespaces=["decisions"])


def _olds(text: str) -> set[str]:
    return {t for c in read_changes(text) for t in c.old}


def _news(text: str) -> set[str]:
    return {t for c in read_changes(text) for t in c.new}


def test_value_spans_end_at_clause_modifiers() -> None:
    assert trim_span("SolidJS in the billing backend") == "SolidJS"
    assert trim_span("Prettier (billing)") == "Prettier"
    assert trim_span("stacked pull requests this week") == "stacked pull requests"
    assert _olds("We finally retired SolidJS in the billing backend.") == {"solidjs"}


def test_passive_drop_and_restoration() -> None:
    assert _olds("Jest removed; the test harness is Vitest now.") == {"jest"}
    assert _olds("The Vitest experiment was reverted.") == {"vitest", "experiment"}
    assert "flask" in _news("Flask restored as the web framework.")


def test_a_cue_whose_span_is_only_a_modifier_is_no_change() -> None:
    assert all(c.old or c.new for c in read_changes("Deploys removed (billing)"))
    assert "billing" not in _olds("GitHub flow removed (billing); branching is release branches now.")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Pick MariaDB as the datastore", "Datastore: MariaDB -> MySQL"),
        ("Use Prettier as the formatter", "Swap Prettier for Black"),
        ("Use Prettier as the formatter", "Swapped Prettier out, Black in."),
        ("Set up Jest as the test runner", "Jest removed; the test runner is Vitest now."),
    ],
)
def test_value_change_notations_supersede(old: str, new: str) -> None:
    verdict = JUDGE.judge(mem(old, day=0), mem(new, day=5), similarity=0.6)
    assert verdict.relation is Relation.SUPERSEDE, verdict.reason


def test_a_modifier_shared_by_unrelated_notes_is_not_the_replaced_value() -> None:
    older = mem("Going with SQL Server in the billing backend.", day=0)
    newer = mem("We retired SolidJS in the billing backend; Angular took its place.", day=5)
    assert JUDGE.judge(older, newer, 0.4).relation is not Relation.SUPERSEDE


def test_a_revert_does_not_supersede_the_note_that_already_states_its_value() -> None:
    first = mem("Use Django for the web framework", day=0)
    change = mem("Switched the web framework from Django to Litestar", day=5)
    revert = mem("Back to Django after issues with Litestar", day=9)
    assert JUDGE.judge(change, revert, 0.7).relation is Relation.SUPERSEDE
    assert JUDGE.judge(first, revert, 0.7).relation is not Relation.SUPERSEDE


def test_keyword_gate_changes_nothing(monkeypatch) -> None:
    """Patterns skipped because none of their strings occur would not have matched: the same statements."""
    import json
    from pathlib import Path

    from memlab.data.project_history.generator import generate
    from memlab.text import change_reading

    texts = [
        m.text
        for style in ("classic", "terse", "narrative", "ticket", "chat")
        for m in generate(seed=3, size=120, style=style).memories
    ]
    ferry = json.loads((Path(__file__).parents[2] / "datasets" / "ferrybook_history.json").read_text())
    texts += [str(n.get("content", "")) for n in ferry.get("memories", ferry.get("notes", []))]
    texts += ["Queue: Kafka -> NATS", "swapped Jest for Vitest", "Celery out, RQ in", "Redis removed", "X restored"]
    gated = [change_reading.read_changes.__wrapped__(t, frozenset()) for t in texts]
    ungated = tuple((p, ("",)) for p, _ in change_reading._ALL_PATTERNS)
    monkeypatch.setattr(change_reading, "_ALL_PATTERNS", ungated)
    assert [change_reading.read_changes.__wrapped__(t, frozenset()) for t in texts] == gated
    assert sum(len(g) for g in gated) > 20


def _pairs(text: str) -> set[tuple[frozenset[str], frozenset[str]]]:
    from memlab.text.slot_parse import changes

    return {(c.old, c.new) for c in changes(text)}


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("CircleCI has been replaced by Buildkite as the CI service.", {"circleci"}, {"buildkite"}),
        ("Redis is replaced by Memcached; reason: cost.", {"redis"}, {"memcached"}),
        ("In billing, Moment.js was superseded by date-fns.", {"moment.js"}, {"date-fns"}),
        ("The event bus was Amazon SQS; it is now Kafka.", {"amazon", "sqs"}, {"kafka"}),
        ("Our CI used to be Jenkins, now GitHub Actions.", {"jenkins"}, {"github", "actions"}),
        ("The move to API keys was reversed.", {"api", "keys"}, set()),
        ("Keycloak is once more the identity provider.", set(), {"keycloak"}),
        ("The v1 release slips to 17 November.", set(), {"17", "november"}),
        ("The launch was postponed until March 3 because of the audit.", set(), {"march", "3"}),
    ],
)
def test_change_constructions_read_old_and_new_the_right_way_round(text: str, old: set, new: set) -> None:
    """Both readings (the features' and the slot judge's) name the replaced value as old, the new one as new."""
    assert (frozenset(old), frozenset(new)) in _pairs(text)
    assert any(c.old == frozenset(old) and c.new >= frozenset(new) for c in read_changes(text))


@pytest.mark.parametrize(
    "text",
    [
        "Memcached replaced Redis in the cache layer.",  # the active voice, as before
        "Postgres was chosen for transactions; it is now the standard.",  # a participle is no old value
        "The bug was in the parser; it is now fixed.",  # nor a place
        "We pushed the fix to main.",
    ],
)
def test_no_backwards_or_spurious_old_values(text: str) -> None:
    for old, _new in _pairs(text):
        assert not old & {"memcached", "chosen", "transactions", "parser", "fix", "main"}, (text, old)


def test_passive_replacement_supersedes_the_note_on_the_replaced_value() -> None:
    older = mem("Use CircleCI as the build service.", day=0)
    newer = mem("CircleCI has been replaced by Buildkite as the build service.", day=5)
    assert JUDGE.judge(older, newer, 0.6).relation is Relation.SUPERSEDE


_ASCII_TOKEN = r"[A-Za-z0-9][A-Za-z0-9+#./_-]*[A-Za-z0-9+#]|[A-Za-z0-9]"


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=80))
def test_tokens_of_ascii_text_are_the_ascii_tokens(text: str) -> None:
    """Letters of any script are token characters; on ASCII text the tokens are exactly the ASCII ones."""
    import re

    from memlab.text.slot_parse import _TOKEN

    assert _TOKEN.findall(text) == re.findall(_ASCII_TOKEN, text)


def test_accented_names_are_one_token() -> None:
    from memlab.text.slot_parse import content_tokens

    assert content_tokens("Tomás owns payments; ask Zoë.") == ["tomás", "owns", "payments", "ask", "zoë"]
