"""The memlab.project_history/1 format: round trip, and one-line errors naming the record and field."""

from __future__ import annotations

import json

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Relation
from memlab.data.project_history.builtin import generate
from memlab.data.project_history.schema import from_dict, read


def test_round_trip_is_exact(tmp_path):
    history = generate(0)
    path = history.write(tmp_path / "h.json")
    back = read(path)
    assert back == history
    assert back.sha256() == history.sha256()


def test_builtin_gold_is_consistent():
    h = generate(0)
    ids = {m.id for m in h.memories}
    assert 40 <= len(h.memories) <= 80
    assert all(r.older in ids and r.newer in ids for r in h.relations)
    by_id = {m.id: m for m in h.memories}
    assert all(by_id[r.older].timestamp < by_id[r.newer].timestamp for r in h.relations)
    assert {r.relation for r in h.relations} == {Relation.SUPERSEDE, Relation.DUPLICATE}
    assert generate(0) == h and generate(1) != h


def base():
    return json.loads(generate(0).to_json())


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="other/1"), "field 'format' must be 'memlab.project_history/1'"),
        (lambda d: d["memories"][0].pop("timestamp"), "missing field 'timestamp'"),
        (lambda d: d["memories"][1].update(timestamp="yesterday"), "is not an ISO-8601 date/time"),
        (lambda d: d["memories"][2].update(id=d["memories"][0]["id"]), "duplicate id"),
        (lambda d: d["memories"][0].update(tags="x"), "field 'tags' must be a list of strings"),
        (lambda d: d["gold"]["relations"][0].update(relation="REPLACES"), "relation 'REPLACES' is not one of"),
        (lambda d: d["gold"]["relations"][0].update(older="nope"), "unknown memory id 'nope'"),
        (lambda d: d["gold"]["queries"][0].update(kind="why"), "kind 'why' is not one of"),
        (lambda d: d["gold"]["temporal"][0].update(end=d["gold"]["temporal"][0]["start"]), "'start' must be before"),
    ],
)
def test_invalid_histories_fail_with_one_line(mutate, message):
    data = base()
    mutate(data)
    with pytest.raises(MemlabError) as err:
        from_dict(data, "h.json")
    assert message in str(err.value) and "\n" not in str(err.value) and str(err.value).startswith("h.json")


def test_missing_and_corrupt_files(tmp_path):
    with pytest.raises(MemlabError, match="history file not found"):
        read(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(MemlabError, match="not valid JSON"):
        read(bad)
