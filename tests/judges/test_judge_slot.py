"""Exact verdicts of the slot judge on hand-written pairs: every cue, every relation, scopes, subjects."""

from __future__ import annotations

import pytest

from memlab.core.types import Relation
from memlab.strategies.judge.slot import SlotJudge
from memlab.text.slot_parse import changes, scopes, subjects
from tests.judges.helpers import mem

JUDGE = SlotJudge(change_namespaces=["decisions"])

CHANGE_CASES = [
    ("Use Flask for the HTTP API", "Switched the API from Flask to FastAPI"),
    ("Production data lives in MySQL", "Migrated production from MySQL to PostgreSQL"),
    ("Write tests with unittest", "Tests now run under pytest instead of unittest"),
    ("Run CI on Travis CI", "CI no longer runs on Travis CI; it runs on GitHub Actions"),
    ("Use Flask for the HTTP API", "Replaced Flask with FastAPI for the API"),
    ("Version the API with URL prefixes like /v1", "Deprecated URL prefixes like /v1; use an Accept-Version header"),
    ("Deploy the API to Heroku", "Deployment moved from Heroku to Fly.io"),
    ("Authenticate clients with session cookies", "Dropped session cookies; clients now use JWT bearer tokens"),
    ("Alice owns the billing component", "Bob took over billing from Alice"),
    ("Use Black as the code formatter", "Stopped using Black; Ruff format is the formatter now"),
]


@pytest.mark.parametrize(("old", "new"), CHANGE_CASES)
def test_change_cues_supersede(old: str, new: str) -> None:
    verdict = JUDGE.judge(mem(old, day=0), mem(new, day=10), similarity=0.7)
    assert verdict.relation is Relation.SUPERSEDE, verdict.reason
    assert verdict.confidence >= 0.8


def test_revert_supersedes() -> None:
    older = mem("Switched the API from Flask to FastAPI", day=0)
    assert JUDGE.judge(older, mem("Reverted the API back to Flask", day=9), 0.7).relation is Relation.SUPERSEDE
    assert JUDGE.judge(older, mem("The API returns to Flask", day=9), 0.7).relation is Relation.SUPERSEDE


def test_change_of_another_value_coexists() -> None:
    older = mem("Deploy the API to Heroku", day=0)
    newer = mem("Moved CI from Travis CI to GitHub Actions", day=3)
    assert JUDGE.judge(older, newer, 0.5).relation is Relation.COEXIST


def test_restatement_is_duplicate() -> None:
    older = mem("Use FastAPI for the HTTP API", "Decided on FastAPI because of async support.", day=0)
    newer = mem("The API is built on FastAPI", "Restating: we use FastAPI.", day=4)
    verdict = JUDGE.judge(older, newer, 0.8)
    assert verdict.relation is Relation.DUPLICATE, verdict.reason


def test_identical_text_is_duplicate_with_confidence_one() -> None:
    verdict = JUDGE.judge(mem("Use Redis as the cache", day=0), mem("use redis  as the CACHE", day=1))
    assert verdict.relation is Relation.DUPLICATE
    assert verdict.confidence == 1.0


def test_restated_change_is_duplicate() -> None:
    older = mem("Switched the API from Flask to FastAPI", day=0)
    newer = mem("Moved the API from Flask to FastAPI", "Recording it again.", day=1)
    assert JUDGE.judge(older, newer, 0.9).relation is Relation.DUPLICATE


def test_added_detail_is_merge() -> None:
    older = mem("Use PostgreSQL as the database", day=0)
    newer = mem(
        "PostgreSQL setup details",
        "Connection pooling goes through PgBouncer and read replicas serve nightly reports.",
        day=5,
    )
    verdict = JUDGE.judge(older, newer, 0.7)
    assert verdict.relation is Relation.MERGE, verdict.reason


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Production data lives in PostgreSQL", "Use SQLite in tests"),
        ("Use PostgreSQL in production", "Use SQLite for the test suite"),
        ("Deploy the API to AWS ECS", "Deploy to a single Docker host for staging"),
        ("Use PostgreSQL as the database", "Run SQLite locally"),
        ("Use GitHub Actions for CI", "Release builds run on Jenkins for the docs site"),
    ],
)
def test_scoped_variants_coexist(old: str, new: str) -> None:
    verdict = JUDGE.judge(mem(old, day=0), mem(new, day=3), similarity=0.8)
    assert verdict.relation is Relation.COEXIST, verdict.reason


def test_scoped_change_within_the_same_scope_supersedes() -> None:
    older = mem("Use SQLite in tests", day=0)
    newer = mem("Switched from SQLite to DuckDB in tests", day=5)
    assert JUDGE.judge(older, newer, 0.7).relation is Relation.SUPERSEDE


def test_different_subjects_coexist() -> None:
    older = mem("The billing service uses Flask", day=0)
    newer = mem("Switched the search service from Flask to Django", day=5)
    verdict = JUDGE.judge(older, newer, 0.8)
    assert verdict.relation is Relation.COEXIST
    assert "subjects" in verdict.reason


def test_blocker_and_its_resolution() -> None:
    blocker = mem("Blocked by the staging database outage", "Deploys halted.", namespace="blockers", day=0)
    fixed = mem("Resolved: the staging database outage", "It is fixed; deploys resumed.", namespace="blockers", day=2)
    other = mem("Resolved: the expired TLS certificate", "It is fixed.", namespace="blockers", day=3)
    assert JUDGE.judge(blocker, fixed, 0.7).relation is Relation.SUPERSEDE
    assert JUDGE.judge(blocker, other, 0.5).relation is Relation.COEXIST
    assert JUDGE.judge(fixed, other, 0.6).relation is Relation.COEXIST


def test_notes_outside_change_namespaces_do_not_supersede() -> None:
    older = mem("Use Flask for the HTTP API", day=0)
    newer = mem("Switched the API from Flask to FastAPI", namespace="reviews", day=3)
    assert JUDGE.judge(older, newer, 0.8).relation is not Relation.SUPERSEDE
    assert SlotJudge().judge(older, newer, 0.8).relation is Relation.SUPERSEDE


def test_negation_without_cue_supersedes() -> None:
    older = mem("Use Memcached as the cache", day=0)
    newer = mem("We do not use Memcached as the cache", day=4)
    assert JUDGE.judge(older, newer, 0.8).relation is Relation.SUPERSEDE


def test_unrelated_low_similarity_coexists() -> None:
    verdict = JUDGE.judge(mem("Use Flask", day=0), mem("Switched from Flask to Django", day=1), similarity=0.05)
    assert verdict.relation is Relation.COEXIST


def test_parsers() -> None:
    (change,) = [c for c in changes("Moved CI from Travis CI to GitHub Actions") if c.cue == "from-to"]
    assert change.old == {"travis", "ci"}
    assert change.new == {"github", "actions"}
    assert scopes("Use SQLite in tests") == {"tests"}
    assert scopes("Use PostgreSQL in production") == frozenset()
    assert scopes("Run it locally") == {"local"}
    assert subjects("Switched the legacy billing service to Django") == {"legacy billing service"}
    assert subjects("the project uses uv") == {"project"}


@pytest.mark.parametrize(
    "text",
    [
        "CircleCI becomes the billing service's continuous integration service",
        "The billing service relies on CircleCI for its continuous integration service.",
        "New direction on the continuous integration service of the billing service: GitLab CI.",
        "Continuous integration service for the billing service going forward: GitLab CI",
    ],
)
def test_an_owned_head_noun_phrase_is_an_attribute_not_a_subject(text: str) -> None:
    assert subjects(text) == {"billing service"}


def test_head_noun_phrases_of_their_own_stay_subjects() -> None:
    text = "Our billing service uses Kafka; the auth service uses Redis"
    assert subjects(text) == {"billing service", "auth service"}
