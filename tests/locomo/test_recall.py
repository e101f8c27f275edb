"""Evidence recall@k (paper definition), session pooling, retrievers on tiny data."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.benchmarks.locomo.aggregate import recall_metrics
from memlab.benchmarks.locomo.ingest import ingest
from memlab.benchmarks.locomo.loader import load
from memlab.benchmarks.locomo.recall import recall_at_k, recall_row, session_of, session_ranking
from memlab.core.errors import MemlabError
from memlab.embed.tfidf import TfidfEmbedder
from memlab.strategies.retriever.bm25 import Bm25Retriever
from memlab.strategies.retriever.dense import DenseRetriever
from memlab.strategies.retriever.engine import RetrieverConfig, rrf
from memlab.strategies.retriever.hybrid import HybridRetriever
from tests.locomo.tiny import tiny, write

RANKED = ["D2:1", "D1:3", "D2:2", "D1:1", "D1:2"]


def test_recall_at_k_exact() -> None:
    assert recall_at_k(RANKED, ["D1:3", "D1:2"], 1) == 0.0
    assert recall_at_k(RANKED, ["D1:3", "D1:2"], 2) == 0.5
    assert recall_at_k(RANKED, ["D1:3", "D1:2"], 5) == 1.0
    assert recall_at_k(RANKED, [], 1) is None  # no evidence: undefined (the paper counts 1)
    assert recall_at_k([], ["D1:1"], 10) == 0.0


def test_session_pooling() -> None:
    assert session_of("D12:3") == "S12"
    assert session_ranking(RANKED) == ["S2", "S1"]
    row = recall_row(RANKED, ["D1:2"], ks=(1, 5))
    assert row == {
        "recall_at_1_turn": 0.0,
        "recall_at_1_session": 0.0,
        "recall_at_5_turn": 1.0,
        "recall_at_5_session": 1.0,
    }


def test_aggregate_over_categories_1_to_4() -> None:
    rows = [
        {"category": 1, "evidence": ["a"], "recall": {"recall_at_1_turn": 0.0}},
        {"category": 4, "evidence": ["b"], "recall": {"recall_at_1_turn": 1.0}},
        {"category": 4, "evidence": [], "recall": {"recall_at_1_turn": 1.0}},
        {"category": 5, "evidence": ["c"], "recall": {"recall_at_1_turn": 0.0}},
    ]
    for r in rows:
        r["recall"] = {k: r["recall"]["recall_at_1_turn"] for k in _names()}
    m = recall_metrics(rows)
    assert m["recall_at_1_turn"] == pytest.approx(2 / 3)
    assert m["recall_at_1_turn_cat1"] == 0.0 and m["recall_at_1_turn_cat4"] == 1.0 and m["recall_at_1_turn_cat5"] == 0.0
    assert "recall_at_1_turn_cat2" not in m
    assert m["n_no_evidence_cat1_4"] == 1.0 and m["n_questions_cat1_4"] == 3.0


def _names() -> list[str]:
    from memlab.benchmarks.locomo.aggregate import RECALL_NAMES

    return list(RECALL_NAMES)


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=20))
def test_rrf_is_rank_based_and_monotone(scores) -> None:
    import numpy as np

    s = np.array(scores, dtype=float)
    fused = rrf([(s, 1.0)], len(s), 60)
    shifted = rrf([(s * 3 + 7, 1.0)], len(s), 60)
    assert np.allclose(fused, shifted)
    assert all(fused[i] >= fused[j] for i in range(len(s)) for j in range(len(s)) if s[i] > s[j])


@pytest.mark.parametrize("cls", [Bm25Retriever, DenseRetriever, HybridRetriever])
def test_retrievers_find_the_matching_turn(tmp_path, cls) -> None:
    conv = load(write(tmp_path / "t.json", tiny())).conversations[0]
    mems = sorted(ingest(conv), key=lambda m: (m.timestamp, m.id))
    kw = {"neighbour_weight": 0.1, "session_weight": 0.1, "speaker_weight": 0.1, "context": "plain"}
    if cls is not DenseRetriever:
        kw["drop_names"] = True
    r = cls(**kw)
    dia = {m.id: m.meta["dia_id"] for m in mems}
    top = [dia[i] for i, _ in r.rank("Which pottery class did Bob go to?", mems, conv.last_time, TfidfEmbedder())]
    assert top[0] == "D1:2"
    assert sorted(top) == sorted(dia.values())
    caption = [dia[i] for i, _ in r.rank("Who has red tulips?", mems, conv.last_time, TfidfEmbedder())]
    assert caption[0] == "D1:3"  # the image caption is indexed


def test_rank_many_equals_rank(tmp_path) -> None:
    conv = load(write(tmp_path / "t.json", tiny())).conversations[0]
    mems = sorted(ingest(conv), key=lambda m: (m.timestamp, m.id))
    r = HybridRetriever(neighbour_weight=0.2)
    questions = ["Which pottery class did Bob go to?", "Who has red tulips?", "nothing matches zzz"]
    many = r.rank_many(questions, mems, conv.last_time, TfidfEmbedder())
    assert many == [r.rank(q, mems, conv.last_time, TfidfEmbedder()) for q in questions]


def test_retriever_config_errors() -> None:
    with pytest.raises(MemlabError, match=r"unknown retriever mode 'sparse'"):
        RetrieverConfig(mode="sparse")
    with pytest.raises(MemlabError, match=r"unknown retriever\.context 'plainer'"):
        RetrieverConfig(context="plainer")
