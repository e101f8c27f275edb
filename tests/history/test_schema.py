"""The memlab.project_history/1 file format: round trip, and one-line errors naming field and record."""

from __future__ import annotations

import copy
import json

import pytest

from memlab.core.errors import MemlabError
from memlab.data.project_history.generator import generate
from memlab.data.project_history.schema import from_dict, read

GOOD = {
    "name": "tiny",
    "format": "memlab.project_history/1",
    "memories": [
        {"id": "m1", "namespace": "decisions", "timestamp": "2025-01-10T14:30:00+00:00", "summary": "Use Flask"},
        {"id": "m2", "namespace": "decisions", "timestamp": "2025-02-10T14:30:00+00:00", "summary": "Use FastAPI"},
    ],
    "gold": {
        "relations": [{"older": "m1", "newer": "m2", "relation": "SUPERSEDE"}],
        "temporal": [{"memory": "m2", "text": "yesterday", "start": "2025-02-09", "end": "2025-02-10"}],
        "queries": [
            {
                "id": "q1",
                "kind": "current",
                "question": "Which web framework?",
                "as_of": "2025-03-01T00:00:00+00:00",
                "answer": "FastAPI",
                "evidence": ["m2"],
            }
        ],
    },
}


def test_round_trip(tmp_path):
    history = generate(0, 150)
    path = history.write(tmp_path / "h.json")
    again = read(path)
    assert again.sha256() == history.sha256()
    assert again.queries == history.queries and again.relations == history.relations
    assert from_dict(GOOD).relations[0].newer == "m2"


def _bad(mutate):
    data = copy.deepcopy(GOOD)
    mutate(data)
    return data


CASES = [
    (lambda d: d.update(format="v0"), "field 'format'"),
    (lambda d: d.pop("name"), "missing field 'name'"),
    (lambda d: d.update(memories={}), "field 'memories' must be list"),
    (lambda d: d["memories"][0].pop("id"), r"memories\[0\]: missing field 'id'"),
    (lambda d: d["memories"][1].update(id="m1"), "memory 'm1': duplicate id"),
    (lambda d: d["memories"][1].update(timestamp="last week"), "memory 'm2' field 'timestamp'"),
    (lambda d: d["memories"][0].update(tags="web"), "memory 'm1': field 'tags'"),
    (lambda d: d["memories"][0].update(summary=3), "memory 'm1': field 'summary' must be str"),
    (lambda d: d.update(gold=[]), "field 'gold' must be an object"),
    (lambda d: d["gold"].update(relations={"a": 1}), "field 'gold.relations' must be a list"),
    (lambda d: d["gold"]["relations"][0].update(relation="REPLACES"), r"gold.relations\[0\]: relation 'REPLACES'"),
    (lambda d: d["gold"]["relations"][0].update(newer="m9"), r"gold.relations\[0\]: unknown memory id 'm9'"),
    (lambda d: d["gold"]["temporal"][0].update(end="2025-02-01"), r"gold.temporal\[0\]: 'start' must be before"),
    (lambda d: d["gold"]["temporal"][0].update(start=5), r"gold.temporal\[0\]: field 'start' must be str"),
    (lambda d: d["gold"]["temporal"][0].update(start="soon"), r"gold.temporal\[0\] field 'start'"),
    (lambda d: d["gold"]["queries"][0].update(kind="why"), r"gold.queries\[0\]: kind 'why'"),
    (lambda d: d["gold"]["queries"][0].update(evidence=["zz"]), r"gold.queries\[0\]: unknown memory id 'zz'"),
    (lambda d: d["gold"]["queries"][0].pop("answer"), r"gold.queries\[0\]: missing field 'answer'"),
    (lambda d: d["gold"]["queries"][0].update(answer_source="guess"), r"gold.queries\[0\]: answer_source 'guess'"),
    (lambda d: d["gold"]["queries"][0].update(topic=7), r"gold.queries\[0\]: field 'topic'"),
]


@pytest.mark.parametrize(("mutate", "message"), CASES)
def test_each_validation_error(mutate, message):
    with pytest.raises(MemlabError, match=message) as info:
        from_dict(_bad(mutate), "h.json")
    text = str(info.value)
    assert "\n" not in text and text.startswith("h.json")


def test_file_errors(tmp_path):
    with pytest.raises(MemlabError, match="history file not found"):
        read(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(MemlabError, match="not valid JSON"):
        read(broken)
    top = tmp_path / "list.json"
    top.write_text(json.dumps([1, 2]), encoding="utf-8")
    with pytest.raises(MemlabError, match="top level must be an object"):
        read(top)


def test_cli_writes_a_readable_file(tmp_path, capsys):
    from memlab.benchmarks.project_history.__main__ import main

    out = tmp_path / "gen" / "ph.json"
    assert main(["--seed", "2", "--size", "120", "--difficulty", "hard", "--out", str(out)]) == 0
    assert "120 memories" in capsys.readouterr().out
    assert read(out).meta["seed"] == 2
    assert main(["--seed", "2", "--size", "120", "--difficulty", "nope", "--out", str(out)]) == 2
    assert "difficulty" in capsys.readouterr().err
