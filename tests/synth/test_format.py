"""The generated file has LoCoMo's structure, and the generator is deterministic per seed and knobs."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlab.benchmarks.locomo_synth.__main__ import main
from memlab.core.errors import MemlabError
from memlab.data.locomo_synth.config import SynthConfig
from memlab.data.locomo_synth.generator import generate
from memlab.data.locomo_synth.io import cached, dumps, gold_path_for, write

from .helpers import check_file, parse_stamp, turns_by_id


def test_default_file_is_valid_locomo_format(default_data):
    data, gold = default_data
    check_file(data)
    cats = {qa["category"] for conv in data for qa in conv["qa"]}
    assert cats == {1, 2, 4, 5}
    assert len(gold["items"]) == sum(qa["category"] == 2 for conv in data for qa in conv["qa"])


def test_same_seed_same_bytes_other_seed_differs(tmp_path):
    a, _ = write(SynthConfig(seed=3, n_conversations=2), tmp_path / "a.json")
    b, _ = write(SynthConfig(seed=3, n_conversations=2), tmp_path / "b.json")
    c, _ = write(SynthConfig(seed=4, n_conversations=2), tmp_path / "c.json")
    assert a.read_bytes() == b.read_bytes()
    assert gold_path_for(a).read_bytes() == gold_path_for(b).read_bytes()
    assert a.read_bytes() != c.read_bytes()


def test_knobs_are_respected():
    cfg = SynthConfig(seed=1, n_conversations=3, n_sessions=4, turns_per_session=9, events_per_session=1)
    data, gold = generate(cfg)
    assert len(data) == 3
    for conv in data:
        c = conv["conversation"]
        assert [k for k in c if k.startswith("session_") and not k.endswith("date_time")] == [
            f"session_{s}" for s in range(1, 5)
        ]
        assert all(len(c[f"session_{s}"]) == 9 for s in range(1, 5))
    per_session = {}
    for item in gold["items"]:
        key = (item["sample_id"], item["session"])
        per_session[key] = per_session.get(key, 0) + 1
    assert max(per_session.values()) == 1


def test_expression_mix_and_distractor_knobs():
    only = generate(SynthConfig(seed=2, n_conversations=2, expression_mix={"yesterday": 1.0, "last_year": 0.0}))[1]
    assert {i["kind"] for i in only["items"]} == {"yesterday"}
    none = generate(SynthConfig(seed=2, n_conversations=2, distractor_rate=0.0))[1]
    assert all(not i["distractors"] for i in none["items"])
    full = generate(SynthConfig(seed=2, n_conversations=2, distractor_rate=1.0))[1]
    assert sum(bool(i["distractors"]) for i in full["items"]) > len(full["items"]) // 2
    empty_data, empty = generate(SynthConfig(seed=2, n_conversations=1, events_per_session=0))
    assert not empty["items"] and all(qa["category"] != 2 for qa in empty_data[0]["qa"])


def test_distractors_mention_a_similar_event_at_another_date():
    data, gold = generate(SynthConfig(seed=5, n_conversations=3, distractor_rate=1.0))
    convs = {c["sample_id"]: c for c in data}
    checked = 0
    for item in gold["items"]:
        turns = turns_by_id(convs[item["sample_id"]]["conversation"])
        for dia in item["distractors"]:
            assert dia in turns and dia != item["mention"]
            checked += 1
    assert checked > 10


def test_cache_reuses_files_for_same_knobs(tmp_path):
    cfg = SynthConfig(seed=0, n_conversations=1, n_sessions=2)
    path, gold_path = cached(cfg, tmp_path)
    stamp = path.stat().st_mtime_ns
    again, _ = cached(SynthConfig(seed=0, n_conversations=1, n_sessions=2), tmp_path)
    assert again == path and path.stat().st_mtime_ns == stamp
    other, _ = cached(SynthConfig(seed=0, n_conversations=1, n_sessions=3), tmp_path)
    assert other != path and gold_path.is_file()


@pytest.mark.parametrize(
    ("knobs", "fragment"),
    [
        ({"expression_mix": {"tomorow": 1.0}}, "unknown expression kinds"),
        ({"expression_mix": {"yesterday": 0.0}}, "at least one > 0"),
        ({"turns_per_session": 3}, "turns_per_session"),
        ({"sessions": 3}, "unknown knobs"),
        ({"distractor_rate": 2.0}, "distractor_rate"),
    ],
)
def test_bad_knobs_are_one_line_errors(knobs, fragment):
    with pytest.raises(MemlabError, match=fragment) as info:
        SynthConfig.from_mapping(knobs)
    assert "\n" not in str(info.value)


def test_cli_writes_file_and_reports_bad_input(tmp_path, capsys):
    out = tmp_path / "synth.json"
    assert main(["--seed", "0", "--conversations", "1", "--sessions", "3", "--out", str(out)]) == 0
    check_file(json.loads(out.read_text()))
    assert gold_path_for(out).is_file()
    assert main(["--out", str(out), "--mix", "soon=1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("locomo_synth: error: ") and "\n" not in err


def test_dumps_is_canonical():
    assert dumps({"b": 1, "a": "é"}) == '{\n  "b": 1,\n  "a": "é"\n}\n'.encode()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    n_sessions=st.integers(1, 6),
    turns=st.integers(4, 14),
    events=st.integers(0, 3),
    rate=st.floats(0.0, 1.0),
)
def test_any_seed_and_size_gives_valid_files(seed, n_sessions, turns, events, rate):
    cfg = SynthConfig(
        seed=seed,
        n_conversations=2,
        n_sessions=n_sessions,
        turns_per_session=turns,
        events_per_session=events,
        distractor_rate=rate,
    )
    data, gold = generate(cfg)
    check_file(data)
    convs = {c["sample_id"]: c for c in data}
    for item in gold["items"]:
        conv = convs[item["sample_id"]]
        qa = conv["qa"][item["qa_index"]]
        assert qa["question"] == item["question"] and item["mention"] == qa["evidence"][-1]
        stamp = conv["conversation"][f"session_{item['session']}_date_time"]
        assert parse_stamp(stamp).date().isoformat() == item["anchor"]


def test_split_rate_moves_the_time_phrase_to_a_follow_up_answer():
    data, gold = generate(SynthConfig(seed=6, n_conversations=2, split_rate=1.0))
    convs = {c["sample_id"]: c for c in data}
    for item in gold["items"]:
        conv = convs[item["sample_id"]]
        statement, answer = conv["qa"][item["qa_index"]]["evidence"]
        turns = turns_by_id(conv["conversation"])
        s, t = (int(x) for x in statement[1:].split(":"))
        assert answer == f"D{s}:{t + 2}" == item["mention"]
        assert turns[statement]["speaker"] == turns[answer]["speaker"] != turns[f"D{s}:{t + 1}"]["speaker"]
        assert item["phrase"].lower() not in turns[statement]["text"].lower()
    plain_data, plain = generate(SynthConfig(seed=6, n_conversations=2, split_rate=0.0))
    plain_convs = {c["sample_id"]: c for c in plain_data}
    for item in plain["items"]:
        assert plain_convs[item["sample_id"]]["qa"][item["qa_index"]]["evidence"] == [item["mention"]]


def test_default_seed0_bytes_are_pinned():
    """Changing generator output must bump GENERATOR_VERSION (cached files are keyed by it) and this pin."""
    import hashlib

    from memlab.data.locomo_synth.config import GENERATOR_VERSION

    data, _ = generate(SynthConfig(seed=0))
    digest = hashlib.sha256(dumps(data)).hexdigest()
    assert (GENERATOR_VERSION, digest) == (1, "e91b7dd5be2b6c5f02052ace880c838aceeefea81eb4ba04a534af56e6b13c05")
