"""The record judge: features on tiny synthetic records (exact values), no dependence on later records, loading
only through the card (SHA-256), the contract, and training on a tiny synthetic folder."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation
from memlab.models.cards import card_path
from memlab.models.logistic import LogisticModel, save
from memlab.strategies.judge.record import RecordJudge
from memlab.strategies.judge.record_features import FEATURES, RecordStore, words

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def rec(i: int, title: str, content: str, days: int) -> Memory:
    return Memory(f"r{i}", "decisions", T0 + timedelta(days=days), title, content)


#: A fixed 3-d embedding per word: the embedder is exact and fast.
AXES = {"kafka": 0, "queue": 0, "postgres": 1, "database": 1, "react": 2, "frontend": 2}


def embed(texts):
    out = np.zeros((len(texts), 3))
    for k, text in enumerate(texts):
        for w in text.lower().split():
            if w in AXES:
                out[k, AXES[w]] += 1.0
        norm = np.linalg.norm(out[k])
        out[k] = out[k] / norm if norm else out[k]
    return out


RECORDS = [
    rec(0, "use kafka", "kafka queue for events", 0),
    rec(1, "use postgres", "postgres database", 10),
    rec(2, "react frontend", "react frontend", 20),
    rec(3, "replace kafka", "we no longer use kafka queue", 30),
]


def feats(store: RecordStore, older: Memory, newer: Memory) -> dict[str, float]:
    return dict(zip(FEATURES, store.features(older, newer), strict=True))


def test_features_exact_values() -> None:
    store = RecordStore(RECORDS, embed)
    f = feats(store, RECORDS[0], RECORDS[3])
    assert f["cos_title"] == pytest.approx(1.0)
    assert f["cos_text"] == pytest.approx(1.0)
    assert f["log_rank_text"] == 0.0 and f["top_text"] == 1.0 and f["margin_text"] == pytest.approx(0.0)
    assert f["mutual_rank_text"] == 0.0  # no record between is closer to the older
    assert f["title_jaccard"] == pytest.approx(1 / 2)  # {kafka} of {kafka, replace}
    assert f["log_between"] == pytest.approx(math.log1p(2))
    assert f["log_gap_days"] == pytest.approx(math.log1p(30))
    assert f["replacement_cues"] == pytest.approx(math.log1p(1))  # "no longer"
    assert f["negation_cues"] == pytest.approx(math.log1p(1))  # "no"
    # idf over the records up to the newer: "kafka" in 2 of 4, "queue" in 2 of 4 -> log(5 / 2.5)
    assert f["idf_max_shared"] == pytest.approx(math.log(5 / 2.5))
    g = feats(store, RECORDS[1], RECORDS[3])
    assert g["cos_text"] == pytest.approx(0.0) and g["log_rank_text"] == pytest.approx(math.log(2))
    assert g["title_jaccard"] == 0.0 and g["top_text"] == 0.0


def test_features_never_read_a_later_record() -> None:
    early = RecordStore(RECORDS[:2], embed)
    later = RecordStore([*RECORDS, rec(4, "kafka again", "kafka queue", 40), rec(5, "kafka", "kafka", 50)], embed)
    assert early.features(RECORDS[0], RECORDS[1]) == later.features(RECORDS[0], RECORDS[1])
    mid = RecordStore(RECORDS, embed)
    assert mid.features(RECORDS[0], RECORDS[3]) == later.features(RECORDS[0], RECORDS[3])


def test_words_drop_stop_words_and_short_tokens() -> None:
    assert words("We will use the Kafka queue, v2") == {"kafka", "queue"}


def model_file(tmp_path: Path, threshold: float = 0.5) -> Path:
    model = LogisticModel(("cos_text",), (0.0,), (1.0,), (10.0,), -5.0)  # p = sigmoid(10 cos - 5)
    card = {"features": ["cos_text"], "features_version": 1, "threshold": threshold, "train_repos": ["a", "b"]}
    path, _ = save(model, card, tmp_path / "m.json")
    return path


def test_judge_supersedes_above_threshold_and_ignores_later_records(tmp_path: Path) -> None:
    judge = RecordJudge(model_path=str(model_file(tmp_path)), embedder=type("E", (), {"encode": staticmethod(embed)}))
    judge.observe(RECORDS)
    v = judge.judge(RECORDS[0], RECORDS[3], 0.1)
    assert v.relation is Relation.SUPERSEDE
    p = 1 / (1 + math.exp(-5))
    assert v.confidence == pytest.approx(0.5 + 0.5 * (p - 0.5) / 0.5)
    assert judge.judge(RECORDS[1], RECORDS[3]).relation is Relation.COEXIST
    assert judge.judge_many([(RECORDS[0], RECORDS[3], None), (RECORDS[1], RECORDS[3], None)]) == [
        judge.judge(RECORDS[0], RECORDS[3]),
        judge.judge(RECORDS[1], RECORDS[3]),
    ]
    unseen = RecordJudge(model_path=str(model_file(tmp_path)), embedder=type("E", (), {"encode": staticmethod(embed)}))
    assert unseen.judge(RECORDS[0], RECORDS[3]).relation is Relation.SUPERSEDE  # no observe: reads the two


def test_sha256_mismatch_is_a_one_line_error(tmp_path: Path) -> None:
    path = model_file(tmp_path)
    with pytest.raises(MemlabError, match="SHA-256") as err:
        RecordJudge(model_path=str(path), model_sha256="0" * 64).load()
    assert "\n" not in str(err.value)
    path.write_text(path.read_text().replace("-5.0", "-4.0"))
    with pytest.raises(MemlabError, match="SHA-256 in its card"):
        RecordJudge(model_path=str(path)).load()


def test_bad_model_files_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(MemlabError, match="not found"):
        RecordJudge(model_path=str(tmp_path / "missing.json")).load()
    path = model_file(tmp_path)
    card = json.loads(card_path(path).read_text())
    card_path(path).write_text(json.dumps({**card, "features_version": 99}))
    with pytest.raises(MemlabError, match="features version 99"):
        RecordJudge(model_path=str(path)).load()
    with pytest.raises(MemlabError, match=r"threshold must be in \(0, 1\)"):
        RecordJudge(model_path=str(model_file(tmp_path)), threshold=1.5).load()


def test_failure_on_a_pair_is_coexist(tmp_path: Path) -> None:
    def broken(texts):
        raise RuntimeError("no vectors")

    judge = RecordJudge(model_path=str(model_file(tmp_path)), embedder=type("E", (), {"encode": staticmethod(broken)}))
    verdict = judge.judge(RECORDS[0], RECORDS[3])
    assert verdict.relation is Relation.COEXIST and verdict.confidence == 0.0


def test_shipped_model_loads_with_its_pin() -> None:
    from memlab.wiring.build import build
    from tests.support.compose import compose_cfg

    judge = build(compose_cfg(["judge=record"])["judge"], "judge")
    model, card = judge.load()
    assert card["features"] == list(model.features)
    assert not set(card["train_repos"]) & {"alphagov__govuk-aws", "cardano-scaling__hydra"}  # dev only
    assert 0.0 < card["threshold"] < 1.0


def test_training_on_tiny_synthetic_repos_is_deterministic() -> None:
    from memlab.data.project_history.schema import GoldRelation, ProjectHistory
    from memlab.training import record_judge as rj

    def history(name: str, shift: int) -> ProjectHistory:
        mems = [rec(i + shift, m.summary, m.content, i * 5) for i, m in enumerate(RECORDS)]
        gold = (GoldRelation(mems[0].id, mems[3].id, Relation.SUPERSEDE),)
        return ProjectHistory(name, tuple(mems), gold, (), (), {})

    data = [rj.repo_pairs(history(f"r{k}", 10 * k), embed, k=3, k_summary=3, min_similarity=-1.0) for k in range(3)]
    assert all(d.n_gold_reached == 1 for d in data)
    m1, c1 = rj.train(data, ("cos_text", "title_jaccard"))
    m2, c2 = rj.train(data, ("cos_text", "title_jaccard"))
    assert m1 == m2 and c1 == c2
    assert c1["train_repos"] == ["r0", "r1", "r2"] and c1["positives"] == 3
    p = rj.probabilities(m1, data[0])
    assert p[data[0].pairs.index(("r0", "r3"))] == max(p)


def test_summary_knn_adds_the_pairs_titles_find() -> None:
    from types import SimpleNamespace

    from memlab.pipeline.candidates import candidate_pairs
    from memlab.wiring.components import PipelineSettings

    records = [rec(0, "kafka", "postgres postgres", 0), rec(1, "react", "postgres", 1), rec(2, "kafka", "react", 2)]
    matrix = embed([m.content for m in records])  # the texts: record 0's nearest is 1
    encoder = SimpleNamespace(encode=embed)

    def pairs(k_summary: int) -> set[tuple[int, int]]:
        settings = PipelineSettings(knn_k=1, min_pair_similarity=0.5, knn_k_summary=k_summary)
        found, _ = candidate_pairs(None, SimpleNamespace(settings=settings, embedder=encoder), records, matrix)
        return {(i, j) for i, j, _ in found}

    assert pairs(0) == {(0, 1)}
    assert pairs(1) == {(0, 1), (0, 2)}  # the titles' neighbours; the hint stays the texts' cosine (0 here)
