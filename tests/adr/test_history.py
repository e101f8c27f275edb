from datetime import UTC, datetime, timedelta

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Relation
from memlab.data.adr.corpus import read_repo
from memlab.data.adr.history import memory_id, repo_history
from tests.adr.factory import kafka_repo, link, md, record, write_repo


def test_memories_in_order_with_opaque_ids_and_same_day_minutes(tmp_path):
    h = repo_history(read_repo(kafka_repo(tmp_path)))
    assert h.name == "acme__queue"
    assert [m.summary for m in h.memories] == ["Use RabbitMQ", "Log in JSON", "Use Kafka", "Use NATS"]
    day = datetime(2020, 1, 1, tzinfo=UTC)
    assert [m.timestamp for m in h.memories[:2]] == [day, day + timedelta(minutes=1)]
    assert h.now == datetime(2022, 1, 1, tzinfo=UTC)
    ids = [m.id for m in h.memories]
    assert ids[0] == memory_id("acme/queue", "docs/adr/0001-use-rabbitmq.md") and ids[0].startswith("adr-")
    assert all("rabbit" not in i and "0001" not in i for i in ids)
    assert all(m.namespace == "decisions" for m in h.memories)
    assert h.memories[0].meta == {"repo": "acme/queue", "record_date": "2020-01-01"}
    assert h.memories[0].content == "We will use RabbitMQ for events."
    assert h.memories[2].content == "We will use Kafka for events."


def test_gold_and_queries(tmp_path):
    h = repo_history(read_repo(kafka_repo(tmp_path)))
    one, two, three, four = (m.id for m in h.memories)
    assert [(r.older, r.newer, r.relation) for r in h.relations] == [
        (one, three, Relation.SUPERSEDE),
        (three, four, Relation.SUPERSEDE),
        (two, four, Relation.MERGE),
    ]
    current = {q.question: q for q in h.queries if q.kind == "current"}
    assert set(current) == {"Use RabbitMQ", "Use Kafka"}
    assert current["Use RabbitMQ"].evidence == (four,) and current["Use RabbitMQ"].as_of == h.now
    as_of = [q for q in h.queries if q.kind == "as_of"]
    t1, t3, t4 = (h.memories[k].timestamp for k in (0, 2, 3))
    assert [(q.evidence, q.as_of) for q in as_of] == [((one,), t1 + (t3 - t1) / 2), ((three,), t3 + (t4 - t3) / 2)]
    assert h.meta["skipped_links"] == [] and h.meta["no_links"] is False


def test_keep_mode_handles_and_references(tmp_path):
    h = repo_history(read_repo(kafka_repo(tmp_path)), refs="keep")
    assert h.memories[2].meta["handles"] == ("3", "0003-use-kafka")
    kafka = h.memories[2].content
    assert kafka.startswith("Supersedes [1. Use RabbitMQ](0001-use-rabbitmq.md)") and "ADR-0004" not in kafka
    nats = h.memories[3].content
    assert nats.startswith("Supersedes ADR-0003.\nAmends [ADR-0002](0002-log-in-json.md).")
    strip = repo_history(read_repo(kafka_repo(tmp_path)))
    assert "handles" not in strip.memories[2].meta
    assert "Supersedes" not in strip.memories[3].content and "ADR" not in strip.memories[3].content


def test_bad_links_are_skipped_and_counted(tmp_path):
    a = record(1, "1. A", "2020-01-01", md(1, "A", "Do A."))
    b = record(2, "2. B", "2020-01-01", md(2, "B", "Do B."))
    c = record(None, "C", "2019-01-01", md(3, "C", "Do C."), path="docs/adr/c.md")
    ghost = {"id": "docs/adr/ghost.md"}
    links = [link(a, b), link(b, a), link(a, c), link(a, ghost), link(a, a), link(a, b)]
    h = repo_history(read_repo(write_repo(tmp_path, "o/r", [a, b, c], links)))
    assert len(h.relations) == 1
    reasons = [s["reason"] for s in h.meta["skipped_links"]]
    assert reasons == [
        "new record is not later than the old one",
        "new record is not later than the old one",
        "names a missing record 'docs/adr/ghost.md'",
        "links a record to itself",
        "duplicate link",
    ]


def test_empty_repository_and_no_links_are_reported_not_fatal(tmp_path):
    empty = repo_history(read_repo(write_repo(tmp_path, "o/empty", [], [])))
    assert empty.memories == () and empty.meta["empty"] and empty.meta["no_links"]
    a = record(1, "1. A", "2020-01-01", md(1, "A", "Do A."))
    lone = repo_history(read_repo(write_repo(tmp_path, "o/lone", [a], [])))
    assert len(lone.memories) == 1 and lone.queries == () and lone.meta["no_links"]


def test_as_of_evidence_follows_an_earlier_supersession(tmp_path):
    a = record(1, "1. A", "2020-01-01", md(1, "A", "Do A."))
    b = record(2, "2. B", "2020-01-03", md(2, "B", "Do B."))
    c = record(3, "3. C", "2020-01-31", md(3, "C", "Do C."))
    h = repo_history(read_repo(write_repo(tmp_path, "o/r", [a, b, c], [link(a, b), link(a, c)])))
    ida, idb, idc = (m.id for m in h.memories)
    as_of = {q.id: q.evidence for q in h.queries if q.kind == "as_of"}
    assert as_of[f"as_of-{ida}-{idb}"] == (ida,)
    assert as_of[f"as_of-{ida}-{idc}"] == (idb,)  # by then B had replaced A
    current = [q for q in h.queries if q.kind == "current"]
    assert [q.evidence for q in current] == [tuple(sorted((idb, idc)))]


def test_bad_parameters(tmp_path):
    repo = read_repo(kafka_repo(tmp_path))
    with pytest.raises(MemlabError, match=r"dataset\.refs=strip"):
        repo_history(repo, refs="none")
    with pytest.raises(MemlabError, match="max_chars"):
        repo_history(repo, max_chars=0)
