"""The learned judge: deterministic training, the seed rule, loading by path, one-line errors."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from memlab.errors import MemlabError
from memlab.strategies.judge.learned import LearnedJudge
from memlab.strategies.judge.pair_features import FEATURES
from memlab.training.judge import history_pairs, make_embedder, parse_seeds, train
from memlab.types import Relation
from tests.judges.helpers import mem


def test_training_is_deterministic() -> None:
    m1, c1 = train([1000, 1001], dataset="builtin", embedder="tfidf")
    m2, c2 = train([1000, 1001], dataset="builtin", embedder="tfidf")
    assert c1 == c2
    assert pickle.dumps(m1) == pickle.dumps(m2)
    assert c1["train_seeds"] == [1000, 1001]
    assert c1["features"] == list(FEATURES)
    assert sum(c1["class_counts"].values()) == c1["n_pairs"]
    assert set(c1["cv"]) >= {"macro_f1", "accuracy"}


def test_training_refuses_evaluation_seeds() -> None:
    with pytest.raises(MemlabError, match="seeds must be >= 1000"):
        train([999, 1000], dataset="builtin", embedder="tfidf")


def test_labels_come_from_gold_and_absent_pairs_coexist() -> None:
    from memlab.benchmarks.project_history.builtin import generate

    history = generate(1000)
    rows, labels = history_pairs(history, make_embedder("tfidf"))
    assert len(rows) == len(labels)
    assert all(len(r) == len(FEATURES) for r in rows)
    n_gold_sup = sum(r.relation is Relation.SUPERSEDE for r in history.relations)
    assert labels.count("SUPERSEDE") >= n_gold_sup
    assert labels.count("COEXIST") > 0


def test_parse_seeds() -> None:
    assert parse_seeds("1000-1003") == [1000, 1001, 1002, 1003]
    assert parse_seeds("5,1-2") == [1, 2, 5]
    with pytest.raises(MemlabError):
        parse_seeds("a-b")


def test_loads_by_path_and_judges(tiny_model: Path) -> None:
    judge = LearnedJudge(model_path=str(tiny_model), eval_seed=0)
    verdict = judge.judge(mem("Use Flask for the HTTP API"), mem("Replaced Flask with FastAPI for the API", day=9), 0.7)
    assert verdict.relation is Relation.SUPERSEDE
    assert judge.artifact_path == str(tiny_model)
    card = json.loads(tiny_model.with_suffix(".json").read_text())
    assert card["train_seeds"] == [1000, 1001]


def test_refuses_overlapping_evaluation_seed(tiny_model: Path) -> None:
    judge = LearnedJudge(model_path=str(tiny_model), eval_seed=1001)
    with pytest.raises(MemlabError, match=r"trained on evaluation seed\(s\) \[1001\]"):
        judge.judge(mem("a"), mem("b", day=1))


def test_warns_loudly_when_asked(tiny_model: Path) -> None:
    judge = LearnedJudge(model_path=str(tiny_model), eval_seed=[1000, 5], on_seed_overlap="warn")
    with pytest.warns(UserWarning, match="CONTAMINATED"):
        judge.load()


def test_missing_model_file_is_one_line(tmp_path: Path) -> None:
    judge = LearnedJudge(model_path=str(tmp_path / "nope.joblib"))
    with pytest.raises(MemlabError) as info:
        judge.judge(mem("a"), mem("b", day=1))
    message = str(info.value)
    assert "\n" not in message
    assert "nope.joblib" in message


def test_unreadable_model_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.joblib"
    bad.write_text("not a model")
    with pytest.raises(MemlabError, match="cannot read learned judge model"):
        LearnedJudge(model_path=str(bad)).load()


def test_cli_run_refuses_overlap(tiny_model: Path, tmp_path: Path) -> None:
    from memlab.run import run
    from tests.support.compose import compose_cfg

    cfg = compose_cfg(["judge=learned", f"judge.model_path={tiny_model}", "embedder=tfidf", "seed=1000"])
    with pytest.raises(MemlabError, match="evaluation seed"):
        run(cfg, tmp_path)


def test_relation_f1_exact() -> None:
    from memlab.training.judge_eval import relation_f1

    gold = ["SUPERSEDE", "SUPERSEDE", "COEXIST", "DUPLICATE"]
    pred = ["SUPERSEDE", "COEXIST", "COEXIST", "MERGE"]
    scores = relation_f1(gold, pred)
    assert scores["relation_f1_supersede"] == pytest.approx(2 / 3)
    assert scores["relation_f1_coexist"] == pytest.approx(2 / 3)
    assert scores["relation_f1_duplicate"] == 0.0
    assert scores["relation_f1_merge"] == 0.0
    assert relation_f1([], [])["n_pairs"] == 0.0


def test_default_model_is_trained_on_first_use_and_reused(tmp_path: Path) -> None:
    kwargs = {"train_seeds": "1000-1001", "train_dataset": "builtin", "embedder": "tfidf", "cache_dir": str(tmp_path)}
    judge = LearnedJudge(eval_seed=0, **kwargs)
    judge.judge(mem("Use Flask for the HTTP API"), mem("Replaced Flask with FastAPI", day=9), 0.7)
    path = Path(judge.artifact_path or "")
    assert path.is_file() and tmp_path in path.parents
    stamp = path.stat().st_mtime_ns
    again = LearnedJudge(eval_seed=0, **kwargs)
    again.load()
    assert again.artifact_path == str(path)
    assert path.stat().st_mtime_ns == stamp


def test_training_pairs_with_k_namespace_are_a_superset_and_named_in_the_cache_path(tmp_path: Path) -> None:
    from memlab.benchmarks.project_history.builtin import generate
    from memlab.training.judge import candidate_pairs

    history, emb = generate(1000), make_embedder("tfidf")
    base = {(o.id, n.id) for o, n, *_ in candidate_pairs(history, emb, k=1, min_similarity=0.0)}
    more = {(o.id, n.id) for o, n, *_ in candidate_pairs(history, emb, k=1, min_similarity=0.0, k_namespace=3)}
    assert base < more
    plain = LearnedJudge(cache_dir=str(tmp_path), train_knn_k=20, train_min_similarity=0.2)
    assert plain._default_path().parent.name.endswith(f"-k20-s0.2-v{LearnedJudge.version}")
    within = LearnedJudge(cache_dir=str(tmp_path), train_knn_k=20, train_min_similarity=0.2, train_knn_k_namespace=10)
    assert within._default_path().parent.name.endswith(f"-k20-s0.2-n10-v{LearnedJudge.version}")
