"""End to end through compose_cfg and memlab.run: project_history, project_history_file, gitnotes_real."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.core.paths import default_data_dir
from memlab.data.project_history.generator import generate
from memlab.run import run
from memlab.strategies.judge.base import JudgeBase
from tests.support.compose import compose_cfg

NOTES = default_data_dir() / "git-notes-memory-notes" / "notes.jsonl"
HISTORY_METRICS = (
    "relation_f1_duplicate",
    "relation_f1_supersede",
    "relation_f1_merge",
    "relation_f1_coexist",
    "supersession_f1",
    "current_truth_at_1",
    "stale_rate_top5",
    "stale_rate_injected",
    "current_coverage_injected",
    "as_of_acc",
    "when_acc",
    "injected_tokens",
    "dup_collapsed_exact",
    "compression_ratio",
)
FAST = ["embedder=tfidf", "clusterer=none"]


def _run(overrides, tmp_path):
    outcome = run(compose_cfg(overrides), tmp_path)
    result = json.loads((Path(tmp_path) / "result.json").read_text())
    return outcome, result.get("metrics", result)


def test_project_history_end_to_end(tmp_path):
    _, metrics = _run(["dataset=project_history", "dataset.size=150", *FAST], tmp_path)
    for name in HISTORY_METRICS:
        assert (name in metrics and metrics[name] >= 0.0) or name == "injected_tokens"
    assert metrics["n_memories"] == 150


def test_project_history_file_end_to_end(tmp_path):
    path = generate(7, 120, "hard").write(tmp_path / "ph.json")
    _, metrics = _run(
        ["dataset=project_history_file", f"dataset.path={path}", *FAST, "selector=current_facts"], tmp_path / "run"
    )
    assert metrics["n_memories"] == 120
    assert metrics["current_coverage_injected"] > 0.0


def test_project_history_file_missing_is_one_line(tmp_path):
    from memlab.core.errors import MemlabError

    with pytest.raises(MemlabError, match="history file not found"):
        run(compose_cfg(["dataset=project_history_file", f"dataset.path={tmp_path}/nope.json", *FAST]), tmp_path)


def test_builtin_history_keeps_foundation_metrics(tmp_path):
    _, metrics = _run(["dataset=builtin_history", *FAST], tmp_path)
    for name in ("supersession_f1", "current_truth_at_1", "injected_tokens", "tier_frac_hot", "latency_total_s"):
        assert name in metrics


def test_perfect_judgement_scores_perfectly():
    """An oracle judge built from the gold reaches supersession_f1 = 1 and no stale injected facts."""
    from dataclasses import replace

    from memlab.benchmarks.base import DatasetCard
    from memlab.benchmarks.project_history.evaluate import evaluate_history
    from memlab.benchmarks.project_history.history_metrics import gold_labels
    from memlab.core.types import Relation, Verdict
    from memlab.wiring.build import build_components

    history = generate(9, 200, "easy")
    gold = gold_labels([(r.older, r.newer, r.relation) for r in history.relations])

    class Oracle(JudgeBase):
        name, version = "oracle", 1

        def judge(self, older, newer, similarity=None):
            return Verdict(gold.get((older.id, newer.id), Relation.COEXIST), 1.0, "gold")

    components = build_components(
        compose_cfg([*FAST, "selector=current_facts", "pipeline.knn_k=30", "pipeline.min_pair_similarity=0.0"])
    )
    components = replace(components, judge=Oracle())
    card = DatasetCard("t", "1", "0", "x", "x", "supersession_f1")
    metrics = evaluate_history(history, components, card).metrics
    # precision is exact; recall is bounded by the candidate pairs the (lexical) kNN search reaches
    assert metrics["relation_precision_supersede"] == 1.0 and metrics["supersession_precision"] == 1.0
    assert metrics["relation_f1_coexist"] > 0.9 and metrics["relation_f1_duplicate"] > 0.8
    assert metrics["current_coverage_injected"] == 1.0


needs_notes = pytest.mark.skipif(not NOTES.is_file(), reason=f"real notes not present at {NOTES} (set MEMLAB_DATA_DIR)")


@needs_notes
def test_gitnotes_real_subset(tmp_path):
    _, metrics = _run(["dataset=gitnotes_real", "dataset.limit=800", *FAST], tmp_path)
    assert metrics["n_memories"] == 800
    assert metrics["dup_collapsed_exact"] == 1.0
    assert metrics["compression_ratio"] > 1.0


@needs_notes
@pytest.mark.slow
def test_gitnotes_real_full(tmp_path):
    _, metrics = _run(["dataset=gitnotes_real", "embedder=tfidf", "clusterer=knn_graph"], tmp_path)
    assert metrics["n_memories"] == 6299
    assert metrics["dup_redundant_exact"] == 4808
    assert metrics["dup_collapsed_exact"] == 1.0
    assert metrics["latency_consolidate_s"] < 60


def test_gitnotes_missing_file_is_one_line(tmp_path):
    from memlab.core.errors import MemlabError

    with pytest.raises(MemlabError, match="notes file not found"):
        run(compose_cfg(["dataset=gitnotes_real", f"dataset.path={tmp_path}/none.jsonl", *FAST]), tmp_path)


@pytest.mark.parametrize("experiment", ["project_history", "gitnotes_real", "project_history_large"])
def test_experiments_compose_and_build(experiment):
    from memlab.benchmarks.base import Benchmark
    from memlab.wiring.build import build, build_components

    cfg = compose_cfg([f"+experiment={experiment}", "embedder=tfidf"])
    assert cfg["experiment_name"] == experiment
    components = build_components(cfg)
    assert components.settings.exact_dedup is True
    assert isinstance(build(cfg["dataset"], "dataset"), Benchmark)


def test_experiment_runs_on_a_history_file(tmp_path):
    path = generate(3, 30).write(tmp_path / "ph.json")
    cfg = compose_cfg(["+experiment=project_history", "dataset=project_history_file", f"dataset.path={path}"])
    assert set(cfg["dataset"]) == {"_target_", "path"}
    _, metrics = _run(
        ["+experiment=project_history", "dataset=project_history_file", f"dataset.path={path}", *FAST],
        tmp_path / "run",
    )
    assert metrics["n_memories"] == 30


def test_project_history_experiment_judges_the_candidate_pairs_its_shipped_model_was_trained_on():
    from memlab.wiring.build import build_node

    cfg = compose_cfg(["+experiment=project_history"])
    assert (cfg["pipeline"]["knn_k"], cfg["pipeline"]["min_pair_similarity"]) == (20, 0.2)
    judge = build_node(cfg["judge"], "judge")
    assert judge.name == "cascade"  # the learned judge inside it reads the shipped model
    _, card = judge.learned.load()
    assert (card["knn_k"], card["min_pair_similarity"]) == (20, 0.2)
