"""The learned judge: deterministic training, JSON trees equal to scikit-learn, the seed rule, loading only
through the card (digest, features), one-line errors, and the shipped model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.errors import MemlabError
from memlab.core.sha import file_sha256
from memlab.core.types import Relation
from memlab.models.cards import card_path
from memlab.models.trees import TreeEnsemble, export_hgb
from memlab.strategies.judge.learned import LearnedJudge
from memlab.strategies.judge.pair_features import FEATURES, FEATURES_VERSION
from memlab.training.judge import (
    format_training_seeds,
    history_pairs,
    make_embedder,
    parse_seeds,
    parse_training_seeds,
    train,
)
from tests.judges.helpers import mem


def test_training_is_deterministic(tiny_trained) -> None:
    m1, c1 = tiny_trained
    m2, c2 = train([1000, 1001], dataset="builtin", embedder="tfidf")
    assert c1 == c2
    assert export_hgb(m1) == export_hgb(m2)
    assert c1["train_seeds"] == [1000, 1001]
    assert c1["features"] == list(FEATURES)
    assert sum(c1["class_counts"].values()) == c1["n_pairs"]
    assert set(c1["cv"]) >= {"macro_f1", "accuracy"}


def test_training_refuses_evaluation_seeds() -> None:
    with pytest.raises(MemlabError, match="seeds must be >= 1000"):
        train([999, 1000], dataset="builtin", embedder="tfidf")


def test_labels_come_from_gold_and_absent_pairs_coexist() -> None:
    from memlab.data.project_history.builtin import generate

    history = generate(1000)
    rows, labels = history_pairs(history, make_embedder("tfidf"))
    assert len(rows) == len(labels)
    assert all(len(r) == len(FEATURES) for r in rows)
    n_gold_sup = sum(r.relation is Relation.SUPERSEDE for r in history.relations)
    assert labels.count("SUPERSEDE") >= n_gold_sup
    assert labels.count("COEXIST") > 0


def test_session_profiles_are_those_of_the_store_when_the_newer_session_is_consolidated() -> None:
    from memlab.data.project_history.builtin import generate
    from memlab.strategies.judge.pair_features import pair_features
    from memlab.strategies.judge.slot_profiles import SlotProfiles
    from memlab.training.judge import candidate_pairs, session_ends

    history, emb = generate(1000), make_embedder("tfidf")
    pairs = candidate_pairs(history, emb)
    whole, _ = history_pairs(history, emb, profiles="store")
    rows, labels = history_pairs(history, emb, profiles="session")
    assert labels == [label for *_, label in pairs]
    ends = session_ends(history.memories)
    last = max(ends.values())
    early = [(p, r) for p, r in zip(pairs, rows, strict=True) if ends[p[1].id] < last]
    (o, n, s, _), row = early[len(early) // 2]
    seen = [m for m in history.memories if m.timestamp <= ends[n.id]]
    assert len(seen) < len(history.memories)
    assert row == pair_features(o, n, s, SlotProfiles.from_memories(seen))
    assert any(a != b for a, b in zip(rows, whole, strict=True))  # early pairs see fewer notes
    with pytest.raises(MemlabError, match="unknown profiles 'future'; valid: store, session"):
        history_pairs(history, emb, profiles="future")


def test_parse_seeds() -> None:
    assert parse_seeds("1000-1003") == [1000, 1001, 1002, 1003]
    assert parse_seeds("5,1-2") == [1, 2, 5]
    with pytest.raises(MemlabError):
        parse_seeds("a-b")


def test_loads_by_path_and_judges(tiny_model: Path) -> None:
    judge = LearnedJudge(model_path=str(tiny_model), eval_seed=0)
    older, newer = mem("Use Flask for the HTTP API"), mem("Replaced Flask with FastAPI for the API", day=9)
    verdict = judge.judge(older, newer, 0.7)
    assert verdict.relation is Relation.SUPERSEDE
    proba = judge.probabilities(older, newer, 0.7)  # the verdict's probabilities, by relation
    assert sum(proba.values()) == pytest.approx(1.0) and max(proba, key=proba.get) == "SUPERSEDE"
    assert verdict.reason == f"learned p={proba['SUPERSEDE']:.2f}"
    assert judge.artifact_path == str(tiny_model)
    card = json.loads(card_path(tiny_model).read_text())
    assert card["train_seeds"] == [1000, 1001] and card["sha256"] == file_sha256(tiny_model)


def test_json_trees_predict_exactly_what_scikit_learn_predicts(tiny_trained) -> None:
    model, _ = tiny_trained
    ensemble = TreeEnsemble(json.loads(json.dumps(export_hgb(model))))
    rng = np.random.default_rng(0)
    rows = rng.normal(size=(500, len(FEATURES))) * 2
    rows[rng.random(rows.shape) < 0.05] = np.nan  # missing values take the side the trees learned
    assert list(ensemble.classes_) == [str(c) for c in model.classes_]
    assert np.array_equal(ensemble.predict_proba(rows), model.predict_proba(rows))


def test_a_model_that_does_not_match_its_card_or_the_pinned_digest_is_refused(tiny_model: Path, tmp_path: Path) -> None:
    copy = tmp_path / "m.json"
    copy.write_text(tiny_model.read_text().replace('"leaf":[0', '"leaf":[1', 1))
    card_path(copy).write_text(card_path(tiny_model).read_text())
    with pytest.raises(MemlabError, match="does not match the SHA-256 in its card"):
        LearnedJudge(model_path=str(copy)).load()
    with pytest.raises(MemlabError, match="does not match the SHA-256 in the spec"):
        LearnedJudge(model_path=str(tiny_model), model_sha256="0" * 64).load()
    assert LearnedJudge(model_path=str(tiny_model), model_sha256=file_sha256(tiny_model)).load()


def test_a_model_without_a_card_or_with_other_features_is_refused(tiny_model: Path, tmp_path: Path) -> None:
    lone = tmp_path / "lone.json"
    lone.write_text(tiny_model.read_text())
    with pytest.raises(MemlabError, match="has no readable card"):
        LearnedJudge(model_path=str(lone)).load()
    other = tmp_path / "other.json"
    other.write_text(tiny_model.read_text())
    card = json.loads(card_path(tiny_model).read_text())
    card_path(other).write_text(json.dumps({**card, "features": ["x"], "sha256": file_sha256(other)}))
    with pytest.raises(MemlabError, match="other features"):
        LearnedJudge(model_path=str(other)).load()


def test_a_model_trained_on_another_reading_of_the_features_is_refused(tiny_model: Path, tmp_path: Path) -> None:
    """Same feature names, older readings behind them (a card without a version is version 1): refused."""
    card = json.loads(card_path(tiny_model).read_text())
    assert card["features_version"] == FEATURES_VERSION
    for version in (None, FEATURES_VERSION - 1):
        old = tmp_path / f"v{version}.json"
        old.write_text(tiny_model.read_text())
        stale = {k: v for k, v in card.items() if k != "features_version"}
        if version is not None:
            stale["features_version"] = version
        card_path(old).write_text(json.dumps({**stale, "sha256": file_sha256(old)}))
        with pytest.raises(MemlabError, match=r"features version \d+, this memlab computes version") as info:
            LearnedJudge(model_path=str(old)).load()
        assert "\n" not in str(info.value)


def test_the_shipped_model_loads_from_the_package_without_training() -> None:
    from memlab.strategies.judge.learned import DEFAULT_MODEL

    judge = LearnedJudge(eval_seed=0)
    model, card = judge.load()
    assert judge.artifact_path == str(DEFAULT_MODEL) and DEFAULT_MODEL.is_file()
    assert card["sha256"] == file_sha256(DEFAULT_MODEL) and card["features"] == list(FEATURES)
    assert min(card["train_seeds"]) >= 1000 and "memlab train judge" in card["command"]
    assert set(model.classes_) >= {"COEXIST", "SUPERSEDE", "DUPLICATE"}


def test_refuses_overlapping_evaluation_seed(tiny_model: Path) -> None:
    judge = LearnedJudge(model_path=str(tiny_model), eval_seed=1001)
    with pytest.raises(MemlabError, match=r"trained on evaluation seed\(s\) \[1001\]"):
        judge.judge(mem("a"), mem("b", day=1))


def test_warns_loudly_when_asked(tiny_model: Path) -> None:
    judge = LearnedJudge(model_path=str(tiny_model), eval_seed=[1000, 5], on_seed_overlap="warn")
    with pytest.warns(UserWarning, match="CONTAMINATED"):
        judge.load()


def test_missing_model_file_is_one_line(tmp_path: Path) -> None:
    judge = LearnedJudge(model_path=str(tmp_path / "nope.json"))
    with pytest.raises(MemlabError) as info:
        judge.judge(mem("a"), mem("b", day=1))
    message = str(info.value)
    assert "\n" not in message
    assert "nope.json" in message


def test_unreadable_model_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("not a model")
    card_path(bad).write_text(json.dumps({"format": "memlab.learned_judge/2", "sha256": file_sha256(bad),
                                          "features": list(FEATURES),
                                          "features_version": FEATURES_VERSION}))  # fmt: skip
    with pytest.raises(MemlabError, match="cannot read learned judge model"):
        LearnedJudge(model_path=str(bad)).load()
    pickled = tmp_path / "old.joblib"
    pickled.write_bytes(b"\x80\x04not json")
    with pytest.raises(MemlabError, match="has no readable card"):
        LearnedJudge(model_path=str(pickled)).load()


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


def test_training_pairs_with_k_namespace_are_a_superset() -> None:
    from memlab.data.project_history.builtin import generate
    from memlab.training.judge import candidate_pairs

    history, emb = generate(1000), make_embedder("tfidf")
    base = {(o.id, n.id) for o, n, *_ in candidate_pairs(history, emb, k=1, min_similarity=0.0)}
    more = {(o.id, n.id) for o, n, *_ in candidate_pairs(history, emb, k=1, min_similarity=0.0, k_namespace=3)}
    assert base < more


@settings(max_examples=60, deadline=None)
@given(
    groups=st.lists(
        st.tuples(
            st.integers(1000, 1400),
            st.integers(0, 5),
            st.sampled_from(["classic", "terse", "terse+narrative", "chat"]),
            st.sampled_from([0.0, 0.2, 0.35]),
        ),
        max_size=5,
    )
)
def test_training_seed_specs_round_trip(groups) -> None:
    """``--seeds`` with ``@STYLE@SHARE`` parts: what the card's command prints parses back to the same training set."""
    seeds, styles, hard = [], {}, {}
    for start, length, style, share in groups:
        for seed in range(start, start + length):
            seeds.append(seed)
            styles[seed], hard[seed] = style, share
    seeds = sorted(set(seeds))
    spec = format_training_seeds(seeds, styles, hard)
    assert parse_training_seeds(spec) == (seeds, {s: styles[s] for s in seeds}, {s: hard[s] for s in seeds})


def test_training_seed_spec_errors_are_one_line() -> None:
    assert parse_training_seeds("1000-1001,1200@chat@0.2") == (
        [1000, 1001, 1200],
        {1000: "classic", 1001: "classic", 1200: "chat"},
        {1000: 0.0, 1001: 0.0, 1200: 0.2},
    )
    for bad, what in (("1200@chat@x", "hard-negative share"), ("1200@a@0.1@2", "RANGE"), ("12x", "bad seed list")):
        with pytest.raises(MemlabError, match=what):
            parse_training_seeds(bad)


def test_families_reach_the_generator_and_the_card() -> None:
    """A styled seed trains on that family's phrasing (with its hard negatives), and the card says which."""
    from memlab.training.judge import make_history

    classic, terse = make_history("generator", 1000, 100), make_history("generator", 1000, 100, "terse", 0.2)
    assert [m.text for m in classic.memories] != [m.text for m in terse.memories]
    _, card = train(
        [1000, 1001],
        dataset="generator",
        size=100,
        embedder="tfidf",
        styles={1001: "terse"},
        hard_negatives={1001: 0.2},
    )
    assert card["train_styles"] == {"classic": "1000", "terse@0.2": "1001"}
    assert "--seeds 1000,1001@terse@0.2 " in card["command"]
