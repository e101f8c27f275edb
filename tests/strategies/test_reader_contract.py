"""The reader contract over every ``conf/reader`` option (the LLM option against a stub that answers garbage)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlab.core.types import Answer, Memory
from tests.test_contracts import built, params

NOW = datetime(2025, 3, 14, tzinfo=UTC)


def unit(i: int, text: str, days: int = 0, summary: bool = False) -> Memory:
    meta = {"kind": "summary", "sources": ("a", "b")} if summary else {}
    return Memory(f"u{i}", "decisions", NOW - timedelta(days=days), text, "", meta=meta)


@pytest.mark.parametrize(("group", "option"), params("reader"))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    question=st.text(max_size=40),
    texts=st.lists(st.text(max_size=60), max_size=4),
)
def test_answer_reads_only_the_context(group, option, question, texts):
    reader = built(group, option)
    context = [unit(i, t, days=i, summary=i % 2 == 1) for i, t in enumerate(texts)]
    answer = reader.answer(question, context, NOW)
    assert isinstance(answer, Answer)
    assert set(answer.unit_ids) <= {u.id for u in context}
    assert 0.0 <= answer.confidence <= 1.0
    if not answer.text:
        assert answer.confidence == 0.0
    assert reader.answer(question, context, NOW) == answer  # deterministic


@pytest.mark.parametrize(("group", "option"), params("reader"))
def test_empty_context_is_no_answer(group, option):
    assert built(group, option).answer("Which database do we use?", [], NOW) == Answer("", (), 0.0)
