"""Records listed as data (front-matter keys, sections named by the relation) are kept in ``refs=keep`` mode."""

from __future__ import annotations

from memlab.core.types import Relation
from memlab.data.adr import listed
from memlab.data.adr.corpus import read_repo
from memlab.data.adr.history import repo_history
from memlab.data.adr.strip import clean_record
from memlab.strategies.judge.reference import ReferenceJudge
from tests.adr.factory import record, write_repo

PULSAR = """---
status: accepted
supersedes: [4, 0005-use-nats.md]
superseded_by: [9]
overridden-by:
  - 8
---
# 7. Use Pulsar

## Supercedes

- [ADR-3](0003-use-kafka.md)
- ADR-9

## Context

Kafka was slow.

## Decision

We will use Pulsar.
"""
STEMS = frozenset({"0003-use-kafka", "0004-use-rabbit", "0005-use-nats", "0007-use-pulsar", "0009-use-x"})


def _earlier(key: str) -> bool:
    return int(key if key.isdigit() else key[:4]) < 7


def test_front_matter_and_relation_sections_become_sentences():
    assert listed.front_matter(["---", "supersedes: [4, 'x.md']", "replaces:", "  - 2", "title: a", "- 5"]) == [
        "Supersedes: ADR-4",
        "Supersedes: x.md",
        "Replaces: ADR-2",
    ]
    assert listed.section("Supercedes", ["- ADR-3", "", "- Use Kafka"]) == [
        "Supersedes: ADR-3",
        "Supersedes: Use Kafka",
    ]
    assert listed.section("Superseded by", ["- ADR-9"]) == [] and listed.section("Context", ["- ADR-1"]) == []


def test_keep_mode_keeps_earlier_listed_records_only_strip_mode_none():
    kept = clean_record(
        PULSAR, "7. Use Pulsar", "docs/adr/0007-use-pulsar.md", 7, refs="keep", stems=STEMS, keep=_earlier
    )
    lead = kept.content.split("\n\n")[0].split("\n")
    assert lead == ["Supersedes: ADR-4", "Supersedes: 0005-use-nats.md", "Supersedes: [ADR-3](0003-use-kafka.md)"]
    assert "9" not in kept.content and "8" not in kept.content and kept.content.endswith("We will use Pulsar.")
    stripped = clean_record(PULSAR, "7. Use Pulsar", "docs/adr/0007-use-pulsar.md", 7, refs="strip", stems=STEMS)
    assert stripped.content == "We will use Pulsar."


def test_the_reference_reader_finds_a_front_matter_predecessor(tmp_path):
    old = record(4, "4. Use RabbitMQ", "2020-01-01", "# 4. Use RabbitMQ\n\n## Decision\n\nWe use RabbitMQ.\n")
    new_text = "---\nsupercedes:\n  - 4\n---\n# 5. Use NATS\n\n## Decision\n\nWe use NATS.\n"
    new = record(5, "5. Use NATS", "2021-01-01", new_text)
    repo = read_repo(write_repo(tmp_path, "acme/q", [old, new], []))
    older, newer = repo_history(repo, refs="keep").memories
    judge = ReferenceJudge()
    judge.observe([older, newer])
    assert judge.judge(older, newer).relation is Relation.SUPERSEDE
    plain_older, plain_newer = repo_history(repo, refs="strip").memories
    assert judge.read(plain_older, plain_newer) is None
