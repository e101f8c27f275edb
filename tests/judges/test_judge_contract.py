"""Contract tests over every judge option: compose, build, protocol, never raise on odd memories."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase
from memlab.wiring.build import available_options, build
from tests.judges.helpers import four_way_reply, mem
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI

OFFLINE = ["none", "similarity", "slot", "edit"]
ODD_TEXTS = [
    "",
    " ",
    "\x00\x01",
    "é" * 3,
    "🙂 switched from 🙂 to 😀",
    "from to",
    "x" * 20_000 + " Flask",
    "no longer",
    "(" * 50,
]


def test_every_judge_option_is_covered() -> None:
    assert set(available_options("judge")) >= {"none", "similarity", "slot", "learned", "cascade", "dspy"}


@pytest.mark.parametrize("option", [*OFFLINE, "learned", "cascade", "dspy"])
def test_option_composes_builds_and_satisfies_protocol(option: str, tiny_model: Path) -> None:
    overrides = [f"judge={option}", "embedder=tfidf"]
    if option in ("learned", "cascade"):
        node = "judge" if option == "learned" else "judge.learned"
        overrides += [f"{node}.model_path={tiny_model}", f"{node}.model_sha256=null"]
    cfg = compose_cfg(overrides)
    judge = build(cfg["judge"], "judge")
    assert isinstance(judge, JudgeBase)
    assert judge.name == option
    assert isinstance(judge.version, int)


@cache
def _offline(option: str):
    return build(compose_cfg([f"judge={option}", "embedder=tfidf"])["judge"], "judge")


def _check(verdict: Verdict) -> None:
    assert isinstance(verdict, Verdict)
    assert verdict.relation in set(Relation)
    assert 0.0 <= verdict.confidence <= 1.0
    assert isinstance(verdict.reason, str)


def _memory(summary: str, content: str, namespace: str, day: int) -> Memory:
    return Memory(f"id{day}", namespace, datetime(2025, 1, 1 + day, tzinfo=UTC), summary, content)


text = st.text(max_size=300)
namespaces = st.sampled_from(["decisions", "blockers", "progress", "", "weird ns"])
sims = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True))


@pytest.mark.parametrize("option", OFFLINE)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=text, b=text, c=text, d=text, ns=namespaces, sim=sims)
def test_offline_judges_never_raise(option: str, a: str, b: str, c: str, d: str, ns: str, sim: float | None) -> None:
    judge = _offline(option)
    _check(judge.judge(_memory(a, b, ns, 0), _memory(c, d, "decisions", 1), similarity=sim))


@pytest.mark.parametrize("option", OFFLINE)
@pytest.mark.parametrize("odd", ODD_TEXTS)
def test_offline_judges_on_odd_texts(option: str, odd: str) -> None:
    judge = _offline(option)
    _check(judge.judge(mem("Use Flask"), mem(odd, odd, day=1), similarity=0.9))
    _check(judge.judge(mem(odd, odd), mem(odd, "", day=1), similarity=None))


@pytest.mark.parametrize("option", ["learned", "cascade"])
def test_model_judges_never_raise_on_odd_texts(option: str, tiny_model: Path) -> None:
    node = "judge" if option == "learned" else "judge.learned"
    overrides = [f"judge={option}", f"{node}.model_path={tiny_model}", f"{node}.model_sha256=null"]
    judge = build(compose_cfg(overrides)["judge"], "judge")
    for odd in ODD_TEXTS:
        _check(judge.judge(mem("Use Flask"), mem(odd, odd, day=1), similarity=0.9))
        _check(judge.judge(mem(odd, odd), mem(odd, "", day=1), similarity=float("nan")))


def test_dspy_never_raises_on_odd_texts() -> None:
    with StubOpenAI(replies=[four_way_reply("MERGE")]) as stub:
        overrides = ["judge=dspy", "llm=local", "llm.model=openai/stub-model", f"llm.api_base={stub.base_url}"]
        cfg = compose_cfg([*overrides, "llm.api_key=stub", "llm.cache=false", "llm.num_retries=0"])
        judge = build(cfg["judge"], "judge")
        for odd in ODD_TEXTS:
            verdict = judge.judge(mem("Use Flask"), mem(odd, odd, day=1), similarity=0.9)
            _check(verdict)
            assert verdict.relation is Relation.MERGE
