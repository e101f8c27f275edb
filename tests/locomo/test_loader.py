"""Loader: session times, quirk counts, malformed records, errata."""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime

import pytest

from memlab.benchmarks.locomo.errata import load_errata
from memlab.benchmarks.locomo.ingest import ingest
from memlab.benchmarks.locomo.loader import CATEGORIES, load, parse_session_time
from memlab.core.errors import MemlabError
from memlab.core.sha import file_sha256
from tests.locomo.tiny import tiny, write


def test_session_time_shapes() -> None:
    assert parse_session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_session_time("12:04 am on 1 January, 2024") == datetime(2024, 1, 1, 0, 4, tzinfo=UTC)
    assert parse_session_time("12:30 pm on 3 June 2022") == datetime(2022, 6, 3, 12, 30, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_session_time("yesterday")


def test_category_map_is_pinned() -> None:
    assert CATEGORIES == {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


def test_quirks_are_counted_not_crashed_on(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    data = load(path)
    assert data.sha256 == file_sha256(path)
    assert data.quirks == {
        "integer_answers": 1,
        "evidence_multi_id": 1,  # "D2:2; D1:3"
        "evidence_repaired": 2,  # D02:01 -> D2:1, D:2:1 -> D2:1
        "evidence_unresolved": 1,  # "D"
        "questions_without_evidence": 1,
        "questions_without_resolvable_evidence": 0,
        "orphan_session_dates": 1,  # session_3_date_time without session_3
        "adversarial_answer_field": 1,
    }
    q = {x.qid: x for x in data.questions}
    assert q["locomo_0_qa3"].answer == "2022" and q["locomo_0_qa3"].evidence == ("D2:2", "D1:3")
    assert q["locomo_0_qa5"].evidence == ("D2:1",)
    assert q["locomo_0_qa6"].adversarial and q["locomo_0_qa6"].answer == "a sunrise"
    assert data.conversations[0].last_time == datetime(2023, 6, 9, 10, 0, tzinfo=UTC)


def test_unresolvable_evidence_only(tmp_path) -> None:
    data = tiny()
    data[0]["qa"] = [{"question": "q?", "answer": "a", "evidence": ["D30:05"], "category": 4}]
    loaded = load(write(tmp_path / "t.json", data))
    assert loaded.quirks["questions_without_resolvable_evidence"] == 1
    assert loaded.questions[0].evidence == ()


def test_ingest_keeps_speaker_caption_and_time_order(tmp_path) -> None:
    data = tiny()
    conv = data[0]["conversation"]
    # sessions out of order in the file: session_2 dated before session_1
    conv["session_2_date_time"] = "10:00 am on 1 May, 2023"
    mems = ingest(load(write(tmp_path / "t.json", data)).conversations[0])
    assert [m.meta["dia_id"] for m in mems] == ["D2:1", "D2:2", "D1:1", "D1:2", "D1:3"]
    garden = mems[-1]
    assert garden.text == "Ann: Look at my garden. [shares a photo: a photo of red tulips]"
    assert garden.meta["speaker"] == "Ann" and garden.timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert all(a.timestamp <= b.timestamp for a, b in itertools.pairwise(mems))


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d[0].pop("qa"), "conversation #0 (conv-a) has no field 'qa'"),
        (lambda d: d[0]["qa"][1].pop("category"), "qa #1 has no field 'category'"),
        (lambda d: d[0]["qa"][0].update(category=9), "qa #0 field 'category' = 9"),
        (lambda d: d[0]["qa"][0].pop("answer"), "qa #0 has neither 'answer'"),
        (lambda d: d[0]["conversation"].update(session_1_date_time="soon"), "field 'session_1_date_time'"),
        (lambda d: d[0]["conversation"].pop("session_2_date_time"), "session_2 but no session_2_date_time"),
        (lambda d: d[0]["conversation"]["session_1"][0].pop("dia_id"), "session_1 turn #0 has no field 'dia_id'"),
        (lambda d: d[0]["qa"][0].update(evidence="D1:2"), "field 'evidence' is not a list"),
    ],
)
def test_malformed_records_name_record_and_field(tmp_path, mutate, needle) -> None:
    data = tiny()
    mutate(data)
    with pytest.raises(MemlabError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        load(write(tmp_path / "t.json", data))


def test_missing_and_invalid_files(tmp_path) -> None:
    with pytest.raises(MemlabError, match="not found"):
        load(tmp_path / "absent.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(MemlabError, match="not valid JSON"):
        load(tmp_path / "bad.json")
    with pytest.raises(MemlabError, match="non-empty JSON list"):
        load(write(tmp_path / "obj.json", {"a": 1}))


def test_errata_file(tmp_path) -> None:
    path = tmp_path / "errata.json"
    path.write_text(json.dumps([{"question_id": "locomo_0_qa1", "error_type": "TEMPORAL_ERROR"}]))
    assert load_errata(path) == {"locomo_0_qa1": "TEMPORAL_ERROR"}
    path.write_text(json.dumps([{"question": "x"}]))
    with pytest.raises(MemlabError, match="errata record #0 has no field 'question_id'"):
        load_errata(path)
