"""dataset=locomo end to end through compose_cfg on tiny LoCoMo-format files."""

from __future__ import annotations

import json

import pytest

from memlab.benchmarks.base import Benchmark
from memlab.benchmarks.locomo.benchmark import LocomoBenchmark
from memlab.core.errors import MemlabError
from memlab.run import run
from memlab.wiring.build import build
from tests.locomo.tiny import tiny, write
from tests.support.compose import compose_cfg

KS = (1, 5, 10, 25)
NAMES = [f"recall_at_{k}_{u}" for u in ("turn", "session") for k in KS]
TEMPORAL = ["temporal_date_acc", "temporal_date_acc_datelike", "temporal_f1", "n_temporal", "n_temporal_datelike"]


def _cfg(path, *extra: str) -> dict:
    return compose_cfg(
        [
            "dataset=locomo",
            f"dataset.path={path}",
            "embedder=tfidf",
            "temporal=rules",
            *([] if any(e.startswith("retriever=") for e in extra) else ["retriever=bm25"]),
            *extra,
        ]
    )


def test_constructible_with_defaults(tmp_path) -> None:
    bench = LocomoBenchmark(path=str(write(tmp_path / "t.json", tiny())), errata=None)
    assert isinstance(bench, Benchmark) and bench.card.name == "locomo"


def test_runs_and_logs_every_metric(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    cfg = _cfg(path)
    assert isinstance(build(cfg["dataset"], "dataset"), Benchmark)
    out = run(cfg, tmp_path / "out")
    m = out.metrics
    for name in NAMES:
        assert name in m
        for cat in (1, 2, 4):
            assert f"{name}_cat{cat}" in m
        assert f"{name}_cat3" not in m  # the only category-3 question has no evidence: undefined, not 1.0
    for name in TEMPORAL:
        assert name in m
    assert m["n_temporal"] == 2 and m["n_temporal_datelike"] == 2
    assert m["temporal_date_acc"] == 1.0 and m["temporal_f1"] == 1.0  # yesterday -> 7 May; last week -> week before
    assert m["recall_at_25_turn"] == 1.0  # five turns: everything is in the top 25
    assert m["temporal_date_acc_ci_low"] == m["temporal_date_acc_ci_high"] == 1.0  # all correct: a point interval
    assert m["recall_at_10_turn_ci_low"] <= m["recall_at_10_turn"] <= m["recall_at_10_turn_ci_high"]
    assert m["n_no_evidence_cat1_4"] == 1.0
    assert m["quirk_integer_answers"] == 1.0 and m["quirk_orphan_session_dates"] == 1.0
    phases = [v for k, v in m.items() if k.startswith("latency_") and k != "latency_total_s"]
    assert "latency_ingest_s" in m and m["latency_total_s"] == pytest.approx(sum(phases))
    assert out.result.card.sha256 and out.result.card.main_metric == "temporal_date_acc_datelike"
    assert out.result.info["categories"]["2"] == "temporal"
    preds = [json.loads(line) for line in (tmp_path / "out" / "predictions.jsonl").read_text().splitlines()]
    assert {p["prediction"] for p in preds if p["category"] == 2} == {"7 May 2023", "The week before 9 June 2023"}
    assert all(p["now"].startswith("2023-06-09") for p in preds)  # the clock: last session


def test_errata_reported_both_ways(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    errata = tmp_path / "errata.json"
    errata.write_text(json.dumps([{"question_id": "locomo_0_qa0", "error_type": "TEMPORAL_ERROR"}]))
    m = run(_cfg(path, f"dataset.errata={errata}"), tmp_path / "out").metrics
    assert m["n_errata_excluded"] == 1.0
    assert m["n_temporal"] == 1.0 and m["n_temporal_incl_flagged"] == 2.0


def test_heldout_and_conversation_filter(tmp_path) -> None:
    data = tiny() + tiny(sample_id="conv-b")
    path = write(tmp_path / "t.json", data)
    m = run(_cfg(path, "dataset.heldout=[conv-b]"), tmp_path / "out").metrics
    assert m["n_temporal"] == 4 and m["n_temporal_heldout"] == 2 and m["n_temporal_tune"] == 2
    m = run(_cfg(path, "dataset.conversations=[conv-b]"), tmp_path / "o2").metrics
    assert m["n_temporal"] == 2
    with pytest.raises(MemlabError, match="matches no conversation"):
        run(_cfg(path, "dataset.conversations=[conv-z]"), tmp_path / "o3")


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
def test_dense_and_hybrid_modes(tmp_path, mode) -> None:
    path = write(tmp_path / "t.json", tiny())
    m = run(_cfg(path, f"retriever={mode}", "retriever.session_weight=0.3"), tmp_path / "o").metrics
    assert 0.0 <= m["recall_at_1_turn"] <= 1.0 and m["recall_at_25_turn"] == 1.0


def test_bad_options_fail_in_one_line(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with pytest.raises(MemlabError, match=r"unknown dataset\.answer key"):
        run(_cfg(path, "+dataset.answer.topn=3"), tmp_path / "o")
    with pytest.raises(MemlabError, match="LoCoMo file not found"):
        run(_cfg(tmp_path / "absent.json"), tmp_path / "o2")
