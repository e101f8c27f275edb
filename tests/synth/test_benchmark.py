"""``dataset=locomo_synth`` composes, builds, caches its file, and runs through the LoCoMo benchmark."""

from __future__ import annotations

import json

import pytest

from memlab.benchmarks.base import Benchmark
from memlab.benchmarks.locomo_synth.benchmark import LocomoSynthBenchmark
from memlab.core.errors import MemlabError
from memlab.wiring.build import build
from tests.support.compose import compose_cfg

from .helpers import check_file

SMALL = ["dataset=locomo_synth", "dataset.n_conversations=1", "dataset.n_sessions=3", "embedder=tfidf"]


def test_conf_option_composes_and_builds(tmp_path):
    cfg = compose_cfg([*SMALL, f"dataset.out_dir={tmp_path}", "seed=4"])
    bench = build(cfg["dataset"], "dataset")
    assert isinstance(bench, LocomoSynthBenchmark) and isinstance(bench, Benchmark)
    synth_cfg, data_path, gold_path = bench.prepare()
    assert synth_cfg.seed == 4 and data_path.parent == tmp_path and gold_path.is_file()
    check_file(json.loads(data_path.read_text()))


def test_expression_mix_from_config(tmp_path):
    cfg = compose_cfg([*SMALL, f"dataset.out_dir={tmp_path}", "dataset.expression_mix={last_year: 1}"])
    _, _, gold_path = build(cfg["dataset"], "dataset").prepare()
    assert {i["kind"] for i in json.loads(gold_path.read_text())["items"]} == {"last_year"}


def test_explicit_path_and_bad_knob(tmp_path):
    target = tmp_path / "mine.json"
    _, data_path, _ = LocomoSynthBenchmark(n_conversations=1, n_sessions=2, path=str(target)).prepare()
    assert data_path == target and target.is_file()
    with pytest.raises(MemlabError, match="n_sessions"):
        LocomoSynthBenchmark(n_sessions=0, out_dir=str(tmp_path)).prepare()


def test_runs_through_locomo_benchmark(tmp_path):
    pytest.importorskip("memlab.benchmarks.locomo.benchmark", reason="LocomoBenchmark not merged in this branch")
    from memlab.run import run

    cfg = compose_cfg([*SMALL, f"dataset.out_dir={tmp_path}"])
    outcome = run(cfg, tmp_path / "out")
    assert outcome.result.card.name == "locomo_synth"
    assert outcome.result.info["gold_path"].endswith(".gold.json")
    assert outcome.main_metric == "synth_date_acc" and 0.0 <= outcome.metrics["synth_date_acc"] <= 1.0
    assert outcome.metrics["n_synth_temporal"] == outcome.metrics["n_temporal"] > 0


def test_locomo_parser_reads_every_gold_answer_as_its_exact_interval():
    dates = pytest.importorskip("memlab.benchmarks.locomo.dates")
    from memlab.data.locomo_synth.config import SynthConfig
    from memlab.data.locomo_synth.generator import generate

    for seed in range(4):
        _, gold = generate(SynthConfig(seed=seed))
        for item in gold["items"]:
            got = dates.parse_answer(item["answer"])
            assert got is not None, item["answer"]
            assert (got.start.isoformat(), got.end.isoformat(), got.grain) == (
                item["start"],
                item["end"],
                item["grain"],
            )


def test_gold_scores_exact_on_hand_rows():
    pytest.importorskip("memlab.benchmarks.locomo.dates")
    from memlab.benchmarks.locomo_synth.score import gold_scores

    items = [
        {"sample_id": "s", "qa_index": 0, "kind": "yesterday", "start": "2023-05-07", "end": "2023-05-08",
         "grain": "day", "distractors": []},
        {"sample_id": "s", "qa_index": 2, "kind": "last_month", "start": "2023-04-01", "end": "2023-05-01",
         "grain": "month", "distractors": ["D2:3"]},
        {"sample_id": "s", "qa_index": 3, "kind": "last_month", "start": "2023-04-01", "end": "2023-05-01",
         "grain": "month", "distractors": []},
    ]  # fmt: skip
    rows = [
        {"qid": "locomo_0_qa0", "conversation": "s", "category": 2, "prediction": "7 May 2023"},
        {"qid": "locomo_0_qa1", "conversation": "s", "category": 4, "prediction": "x"},
        {"qid": "locomo_0_qa2", "conversation": "s", "category": 2, "prediction": "12 April 2023"},
        {"qid": "locomo_0_qa3", "conversation": "s", "category": 2, "prediction": "2023"},
    ]
    m = gold_scores(rows, items)
    assert m["n_synth_temporal"] == 3 and m["synth_date_acc"] == pytest.approx(2 / 3)
    assert m["synth_date_acc_yesterday"] == 1.0 and m["synth_date_acc_last_month"] == 0.5
    assert m["synth_date_acc_distracted"] == 1.0 and m["synth_date_acc_undistracted"] == 0.5
    assert rows[3]["synth_gold_correct"] is False and "synth_kind" not in rows[1]


def test_errata_rejected():
    with pytest.raises(MemlabError, match="no errata"):
        LocomoSynthBenchmark(errata="x.json")
