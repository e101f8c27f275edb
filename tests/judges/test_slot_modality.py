"""Slot judge rules on tense and modality: weighed or planned changes, continuing values, negation scope, and
blockers that end without a resolution word."""

from __future__ import annotations

from memlab.core.types import Relation
from memlab.strategies.judge.slot import SlotJudge
from memlab.text.change_reading import continues, hypothetical_spans, negated_tokens, read_changes
from tests.judges.helpers import mem

JUDGE = SlotJudge(change_namespaces=["decisions"])


def test_a_weighed_or_planned_change_is_not_read_as_made() -> None:
    assert not read_changes("We looked at moving to Bugsnag; not worth it.")
    assert not read_changes("We might switch to Kafka next quarter.")
    assert read_changes("We looked at the numbers and moved to Kafka.") == ()  # one clause: weighed
    assert read_changes("We looked at the numbers. We moved to Kafka.")
    text = "Should we move to Kafka? We moved the cache to Redis."
    assert hypothetical_spans(text) == ((0, len("Should we move to Kafka")),)


def test_a_weighed_change_does_not_supersede() -> None:
    older = mem("Error tracking: Sentry", "Sentry for the app and the API.", day=0)
    newer = mem("Error tracking: still Sentry", "We looked at moving to Bugsnag; not worth it.", day=30)
    assert JUDGE.judge(older, newer, 0.8).relation is not Relation.SUPERSEDE


def test_a_note_saying_the_value_continues_does_not_supersede_without_naming_the_replaced_value() -> None:
    assert continues("Jobs: Celery stays") and continues("Reminder: flags are in Unleash")
    assert not continues("Switched the worker to Dramatiq")
    older = mem("Background jobs: Celery + Redis", "Ticket emails run as Celery tasks, Redis as the broker.", day=0)
    newer = mem("Jobs: Celery stays", "After the Dramatiq episode we are staying on Celery for the worker.", day=40)
    assert JUDGE.judge(older, newer, 0.7).relation is not Relation.SUPERSEDE
    explicit = mem("Jobs: Dramatiq", "Switched the worker from Celery to Dramatiq. Redis stays as the broker.", day=9)
    assert JUDGE.judge(older, explicit, 0.7).relation is Relation.SUPERSEDE


def test_negation_counts_only_in_the_clause_that_holds_the_value() -> None:
    assert "memcached" in negated_tokens("We do not use Memcached. Redis is the cache.")
    assert "redis" not in negated_tokens("We do not use Memcached. Redis is the cache.")
    older = mem("Database: PostgreSQL", "PostgreSQL on the managed plan.", day=0)
    newer = mem("Database note", "We run PostgreSQL. Please don't rely on old extensions.", day=50)
    assert not JUDGE.judge(older, newer, 0.6).reason.startswith("negates")
    assert JUDGE.judge(older, mem("Database", "We do not run PostgreSQL.", day=50), 0.6).reason.startswith("negates")


def test_an_older_plan_is_not_superseded_by_the_change_it_planned() -> None:
    plan = mem("Migration plan", "Plan for next weekend: move everything from Render to AWS.", namespace="research")
    done = mem("We're on AWS now", "We moved the API and workers from Render to AWS.", day=7)
    assert JUDGE.judge(plan, done, 0.6).relation is Relation.COEXIST


def test_a_later_blockers_note_reporting_no_blockage_resolves_the_blocker() -> None:
    blocker = mem(
        "Blocked: App Store rejected the build",
        "Apple rejected our build: missing restoration text. Release work is blocked until we resubmit.",
        namespace="blockers",
    )
    approved = mem("App Store approved", "Resubmitted with the restoration text; Apple approved the build.", day=2)
    approved = mem(approved.summary, approved.content, namespace="blockers", day=2)
    verdict = JUDGE.judge(blocker, approved, 0.7)
    assert verdict.relation is Relation.SUPERSEDE and verdict.confidence < 0.8
    another = mem("Blocked: the search index", "The search index has been failing since Monday.", "blockers", 3)
    assert JUDGE.judge(blocker, another, 0.5).relation is Relation.COEXIST
    assert JUDGE.judge(approved, another, 0.5).relation is Relation.COEXIST
