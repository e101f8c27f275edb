"""The base classes give the protocols' optional methods their defaults, equal to the required method's answers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlab.core.types import Memory, MemoryState
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.similarity import SimilarityJudge
from memlab.strategies.retention.base import RetentionBase
from memlab.strategies.retention.exponential import ExponentialRetention
from memlab.strategies.retriever.base import RetrieverBase
from memlab.strategies.retriever.none import NoRetriever
from memlab.strategies.summarizer.none import NoSummarizer

NOW = datetime(2025, 3, 14, tzinfo=UTC)


def mem(i: int, text: str) -> Memory:
    return Memory(f"m{i}", "decisions", NOW - timedelta(days=10 - i), text, text)


MEMORIES = [mem(0, "Use Flask for the API"), mem(1, "Use FastAPI for the API"), mem(2, "Deploy on Fridays")]


def test_a_judge_without_a_batch_form_judges_each_pair_in_order():
    judge = SimilarityJudge()
    pairs = [(MEMORIES[0], MEMORIES[1], 0.95), (MEMORIES[0], MEMORIES[2], 0.1), (MEMORIES[1], MEMORIES[2], None)]
    assert judge.judge_many(pairs) == [judge.judge(o, n, s) for o, n, s in pairs]
    assert judge.observe(MEMORIES) is None and judge.set_eval_seed(3) is None and judge.artifact_path is None


def test_a_retention_function_without_a_batch_form_scores_each_memory_alone():
    fn = ExponentialRetention()
    states = [MemoryState(m.id) for m in MEMORIES]
    alone = [fn.score(m, s, NOW) for m, s in zip(MEMORIES, states, strict=True)]
    assert fn.score_all(MEMORIES, states, NOW) == alone
    assert fn.score_all(MEMORIES, states, NOW, references={"m2": ["m0"]}) == alone


def test_a_retriever_without_a_batch_form_ranks_each_query_whole():
    retriever = NoRetriever()
    rankings = retriever.rank_many(["api", "deploy"], MEMORIES, NOW, None, limit=1)
    assert rankings == [retriever.rank(q, MEMORIES, NOW) for q in ("api", "deploy")]
    assert len(rankings[0]) == len(MEMORIES)  # the limit allows a shorter list; the default gives the whole one


def test_every_summarizer_takes_the_superseded_keyword():
    assert NoSummarizer().summarize(MEMORIES, superseded={"m0": "m1"}) is None


@pytest.mark.parametrize("base", [JudgeBase, RetentionBase, RetrieverBase])
def test_a_strategy_without_its_required_method_cannot_be_built(base):
    incomplete = type("Incomplete", (base,), {"name": "incomplete", "version": 1})
    with pytest.raises(TypeError, match="abstract"):
        incomplete()
