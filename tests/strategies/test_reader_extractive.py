"""The extractive reader: which unit answers, and the value or day read from it (tiny hand-written contexts)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlab.core.types import Answer, Memory
from memlab.strategies.reader.extractive import ExtractiveReader
from memlab.strategies.reader.statements import statements, value_of

NOW = datetime(2025, 4, 1, tzinfo=UTC)


def unit(uid: str, summary: str, content: str = "", day: int = 1, kind: str | None = None) -> Memory:
    meta = {"kind": kind, "sources": ("x", "y")} if kind else {}
    return Memory(uid, "decisions", datetime(2025, 3, day, tzinfo=UTC), summary, content, meta=meta)


@pytest.mark.parametrize(
    ("statement", "value"),
    [
        ("Replaced Flask with FastAPI for the API", "FastAPI"),
        ("Auth changed from JWT bearer tokens to OAuth2 via Auth0", "OAuth2 Auth0"),
        ("The project no longer uses autopep8", ""),
        ("Formatting tool is now Ruff format", "Ruff format"),
        ("Deprecated Hazelcast for the project in favour of Redis", "Redis"),
        ("it runs on GitHub Actions", "GitHub Actions"),
    ],
)
def test_value_of_a_statement(statement, value):
    assert value_of(statement) == value


def test_statements_split_lines_semicolons_and_sentences():
    assert statements("A is B; C is D.\nE. F") == ["A is B", "C is D.", "E.", "F"]


def test_most_related_then_newest_unit_answers():
    context = [
        unit("old", "Production data lives in MySQL", day=1),
        unit("new", "Our production store is PostgreSQL", day=9),
        unit("move", "Production database moved from MySQL to PostgreSQL", day=5),
        unit("noise", "Production deploys target Heroku", day=20),
    ]
    answer = ExtractiveReader().answer("Which database does production use?", context, NOW)
    assert answer == Answer("PostgreSQL", ("move",), 1.0)  # the only unit naming both words
    two = context[:2]
    assert ExtractiveReader().answer("Which database does production use?", two, NOW).text == "PostgreSQL"


def test_a_summary_is_read_like_a_memory_later_statement_wins():
    doc = unit("s1", "Use Kafka for events; switched events from Kafka to NATS", day=3, kind="summary")
    answer = ExtractiveReader().answer("Which broker carries events?", [doc], NOW)
    assert answer.text == "NATS" and answer.unit_ids == ("s1",)


def test_nothing_related_is_no_answer():
    context = [unit("a", "Feature flags for risky changes")]
    assert ExtractiveReader().answer("Which database does production use?", context, NOW) == Answer("", (), 0.0)


def test_when_reads_the_day_of_the_unit_that_made_the_change():
    context = [
        unit("plan", "We might move the cache to Redis next sprint", day=2),
        unit("recap", "For the record, the cache moved to Redis in March", day=20),
        unit("did", "Switched the cache from Memcached to Redis", day=6),
    ]
    answer = ExtractiveReader().answer("When did the project switch its cache to Redis?", context, NOW)
    assert answer.text == "2025-03-06" and answer.unit_ids == ("did",)


@pytest.mark.parametrize(
    "question",
    [
        "When did the project switch its cache to Redis?",
        "Since when has the project used Redis as its cache?",
        "On which day did the project switch its cache to Redis?",
        "On what date did the cache move to Redis?",
        "Which day did the cache move to Redis?",
        "From which date has the cache been Redis?",
    ],
)
def test_every_form_of_a_day_question_is_answered_with_a_day(question):
    context = [unit("did", "Switched the cache from Memcached to Redis", day=6)]
    assert ExtractiveReader().answer(question, context, NOW).text == "2025-03-06"


def test_a_question_for_a_value_is_not_a_day_question():
    context = [unit("did", "Switched the cache from Memcached to Redis", day=6)]
    assert ExtractiveReader().answer("Which cache does the project use?", context, NOW).text == "Redis"


def test_max_units_reads_only_the_first_units():
    context = [unit("a", "Feature flags for risky changes"), unit("b", "Our production store is PostgreSQL")]
    assert ExtractiveReader(max_units=1).answer("Which store does production use?", context, NOW).text == ""
    assert ExtractiveReader().answer("Which store does production use?", context, NOW - timedelta(0)).text == (
        "PostgreSQL"
    )
