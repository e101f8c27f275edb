"""dataset=temporal_norm on a tiny Duckling-format file written here (exact expected scores)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.benchmarks.temporal_norm.scoring import choose, summarise
from memlab.core.errors import MemlabError
from memlab.core.types import TemporalRef
from memlab.data.temporal_norm.data import corpus_path, parse
from memlab.run import run
from tests.support.compose import compose_cfg

REF = "2013-02-12T04:30:00-02:00"  # a Tuesday


def rec(phrase: str, expected: dict, block: str = "allExamples") -> dict:
    return {"block": block, "reference_time": REF, "phrase": phrase, "expected": expected}


RECORDS = [
    rec("yesterday", {"kind": "datetime", "value": "2013-02-11T00:00:00", "grain": "Day"}),
    rec("last week", {"kind": "datetime", "value": "2013-02-04T00:00:00", "grain": "Week"}),
    rec("in March", {"kind": "datetime", "value": "2013-03-01T00:00:00", "grain": "Month"}),
    rec("qwerty", {"kind": "datetime", "value": "2013-02-12T00:00:00", "grain": "Day"}),
    rec(
        "last 2 days",
        {"kind": "datetimeInterval", "start": "2013-02-10T00:00:00", "end": "2013-02-12T00:00:00", "grain": "Day"},
    ),
    rec("christmas", {"kind": "datetimeHoliday", "value": "2013-12-25T00:00:00", "grain": "Day", "holiday": "X"}),
    rec("7", {"kind": "datetime", "value": "2013-02-12T07:00:00", "grain": "Hour"}, block="latentCorpus"),
    rec("in 2014 BC", {"kind": "datetime", "value": "-2014-01-01T00:00:00", "grain": "Year"}),
]


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "duckling.json"
    path.write_text(json.dumps(RECORDS))
    return path


def _run(path: Path, tmp_path: Path, temporal: str, *extra: str):  # type: ignore[no-untyped-def]
    cfg = compose_cfg(["dataset=temporal_norm", f"dataset.path={path}", f"temporal={temporal}", "embedder=tfidf",
                       *extra])  # fmt: skip
    return run(cfg, tmp_path / f"out-{temporal}")


def test_rules_exact_scores(data_file: Path, tmp_path: Path) -> None:
    out = _run(data_file, tmp_path, "rules")
    m = out.metrics
    # evaluated by default: 5 records (holiday, latent excluded; the BC year is unrepresentable and skipped)
    assert m["n_evaluated"] == 5 and m["n_skipped_unrepresentable"] == 1 and m["n_records"] == 7
    assert m["resolver_acc"] == pytest.approx(4 / 5)
    assert m["resolver_acc_supported"] == pytest.approx(1.0)
    assert m["resolver_coverage"] == pytest.approx(4 / 5)
    assert m["resolver_acc_day"] == pytest.approx(2 / 3)  # yesterday + last 2 days right, qwerty unsupported
    assert m["resolver_acc_week"] == 1.0 and m["resolver_acc_month"] == 1.0 and m["n_day"] == 3
    assert m["resolver_acc_kind_interval"] == 1.0
    # the _all figures include the holiday (Christmas 2013: right) and the latent "7" (unsupported by rules)
    assert m["resolver_acc_all"] == pytest.approx(5 / 7) and m["resolver_coverage_all"] == pytest.approx(5 / 7)
    assert m["resolver_us_per_expr"] > 0
    assert out.main_metric == "resolver_acc"
    rows = [json.loads(line) for line in (out.output_dir / "predictions.jsonl").read_text().splitlines()]
    assert len(rows) == 7
    by_phrase = {r["phrase"]: r for r in rows}
    assert by_phrase["qwerty"]["status"] == "unsupported" and by_phrase["qwerty"]["predicted"] is None
    assert by_phrase["yesterday"]["predicted"]["start"] == "2013-02-11T00:00:00"
    assert by_phrase["christmas"]["evaluated"] is False


def test_pattern_table_exact_scores(data_file: Path, tmp_path: Path) -> None:
    m = _run(data_file, tmp_path, "pattern_table").metrics
    # yesterday right; "last week" = 7 days back at day grain (wrong); the rest unsupported
    assert (m["resolver_acc"], m["resolver_acc_supported"], m["resolver_coverage"]) == pytest.approx((0.2, 0.5, 0.4))


def test_switches_and_split(data_file: Path, tmp_path: Path) -> None:
    m = _run(data_file, tmp_path, "rules", "dataset.include_holidays=true", "dataset.include_latent=true").metrics
    assert m["n_evaluated"] == 7 and m["resolver_acc"] == pytest.approx(5 / 7)
    dev = _run(data_file, tmp_path, "rules", "dataset.split=dev").metrics
    held = _run(data_file, tmp_path, "rules", "dataset.split=heldout").metrics
    assert dev["n_evaluated"] + held["n_evaluated"] == 5
    assert dev["n_evaluated_dev"] == dev["n_evaluated"] and held["n_evaluated_heldout"] == held["n_evaluated"]


def test_none_resolver_supports_nothing(data_file: Path, tmp_path: Path) -> None:
    m = _run(data_file, tmp_path, "none").metrics
    assert (m["resolver_acc"], m["resolver_coverage"]) == (0.0, 0.0)
    assert "resolver_acc_supported" not in m and m["n_supported"] == 0.0  # nothing supported: undefined
    assert "resolver_acc_supported_ci_low" not in m


def test_missing_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(MemlabError, match=r"not found at .*nope\.json.*paths.data_dir"):
        _run(tmp_path / "nope.json", tmp_path, "rules")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(MemlabError, match="not valid JSON"):
        _run(bad, tmp_path, "rules")
    with pytest.raises(MemlabError, match="record 0"):
        parse([{"phrase": "x"}])
    with pytest.raises(MemlabError, match="JSON list"):
        parse({"a": 1})


def test_scoring_pure_functions() -> None:
    assert summarise([]) == {"acc": None, "acc_supported": None, "coverage": None, "n": 0.0, "n_correct": 0.0,
                             "n_supported": 0.0}  # fmt: skip
    s = summarise(["correct", "wrong", "unsupported", "correct"])
    assert (s["acc"], s["acc_supported"], s["coverage"]) == (0.5, 2 / 3, 0.75)
    from datetime import datetime

    t0, t1 = datetime(2020, 1, 1), datetime(2020, 1, 2)
    dur = TemporalRef("for ten whole days", (0, 18), t0, t1, "day", kind="duration")
    short = TemporalRef("May", (20, 23), t0, t1, "month")
    longer = TemporalRef("May 2020", (25, 33), t0, t1, "month")
    assert choose([]) is None
    assert choose([dur, short, longer]) is longer  # points beat durations; the longest point wins
    assert choose([dur]) is dur


@pytest.mark.slow
def test_real_duckling_file_runs(tmp_path: Path) -> None:
    cfg = compose_cfg(["dataset=temporal_norm", "temporal=rules"])
    path = corpus_path("duckling", cfg["dataset"]["data_dir"])
    if not path.is_file():
        pytest.skip(f"duckling data absent at {path}")
    m = run(cfg, tmp_path).metrics
    assert m["n_records"] + m["n_skipped_unrepresentable"] == 1008 and m["resolver_coverage"] > 0.7
