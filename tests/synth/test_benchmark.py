"""``dataset=locomo_synth`` composes, builds, caches its file, and runs through the LoCoMo benchmark."""

from __future__ import annotations

import json

import pytest

from memlab.benchmarks.base import Benchmark
from memlab.benchmarks.locomo_synth.benchmark import LocomoSynthBenchmark
from memlab.build import build
from memlab.errors import MemlabError
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
    assert outcome.metrics
