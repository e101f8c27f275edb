"""LoCoMo under the field's LLM protocol (``dataset.llm_reader=true``): read, judge, score per category.

Categories 1–4 are read and judged, as in the published evaluations (category 5's "adversarial answer" is the
wrong answer a confused reader would give, so it has no gold to grade against). Metrics:
``j_score``, ``answer_f1``, ``bleu1`` over categories 1–4 and per category (``j_score.cat2`` ...), each
with its ``n_``; reader and judge latency and tokens; the memory side's seconds per question
(:func:`memlab.benchmarks.qa_metrics.memory_side`) beside ``context_tokens``. The calls go through
:class:`memlab.llm.client.LLMClient` (:class:`~memlab.benchmarks.qa_reader.QaReader`): cached, counted as
``llm.reader.*`` and ``llm.judge_qa.*``, and a failure stops the run unless ``llm.on_error=fallback``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from memlab.benchmarks.qa_metrics import memory_side, reader_metrics
from memlab.benchmarks.qa_reader import QaReader
from memlab.core.types import Memory

#: The categories the reader answers.
READ_CATEGORIES: frozenset[int] = frozenset({1, 2, 3, 4})


def locomo_reader(
    on: bool, judge: bool, limit: int | None, llm_cfg: Mapping[str, Any]
) -> Callable[[Any, Sequence[Memory]], dict[str, Any]] | None:
    """``read(question, units) -> row fields`` for categories 1–4 (at most ``limit`` questions), or ``None``.

    Raises:
        MemlabError: ``on`` and no model is configured; ``read`` raises
            :class:`~memlab.llm.client.LLMFailure` when a call fails and ``llm.on_error=fail``.
    """
    if not on:
        return None
    qa = QaReader(llm_cfg, judge=judge)
    done = [0]

    def read(question: Any, units: Sequence[Memory]) -> dict[str, Any]:
        if question.category not in READ_CATEGORIES or (limit is not None and done[0] >= limit):
            return {}
        done[0] += 1
        return qa.read(question.question, question.answer, units)

    return read


def locomo_reader_metrics(
    rows: Sequence[Mapping[str, Any]], latency: Mapping[str, float], n_asked: int
) -> dict[str, float]:
    """The protocol's metrics over ``rows`` (empty when the reader was off).

    Args:
        rows: The scored prediction rows.
        latency: The run's ``latency_*_s`` metrics (the policy's recall and selection over every question).
        n_asked: Questions asked of the policy (flagged ones included).
    """
    out = reader_metrics(rows, lambda r: f"cat{r['category']}")
    if out:
        out.update(memory_side(latency, n_asked))
    return out
