"""The cascade judge: learned verdicts while they agree with the slot judge's surest ones, slot verdicts else."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.adapter.spec import file_sha256
from memlab.build import build
from memlab.errors import MemlabError
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.cascade import FALLBACK_MODEL, CascadeJudge
from memlab.types import Relation, Verdict
from tests.judges.helpers import four_way_reply, mem
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI


class Fixed(JudgeBase):
    """A judge that answers one verdict and records what it saw."""

    name, version = "fixed", 1

    def __init__(self, relation: Relation, confidence: float) -> None:
        self.verdict = Verdict(relation, confidence, "fixed")
        self.observed: list = []

    def observe(self, memories) -> None:
        self.observed.append(list(memories))

    def judge(self, older, newer, similarity=None) -> Verdict:
        return self.verdict


def _cascade(learned: Fixed, slot: Fixed, **kwargs) -> CascadeJudge:
    cascade = CascadeJudge(**kwargs)
    cascade.learned_, cascade.slot_ = learned, slot
    return cascade


A, B = mem("Use Flask for the API"), mem("Replaced Flask with FastAPI for the API", day=1)


def test_a_learned_judge_that_contradicts_the_surest_rules_is_distrusted() -> None:
    cascade = _cascade(Fixed(Relation.COEXIST, 1.0), Fixed(Relation.SUPERSEDE, 0.9), min_evidence=3)
    relations = [cascade.judge(A, B, 0.8).relation for _ in range(4)]
    assert relations == [Relation.COEXIST, Relation.COEXIST, Relation.SUPERSEDE, Relation.SUPERSEDE]
    assert not cascade.trusted and "distrusted" in cascade.judge(A, B).reason


def test_an_agreeing_learned_judge_keeps_answering() -> None:
    learned = Fixed(Relation.SUPERSEDE, 0.3)  # a tentative SUPERSEDE passes a check
    cascade = _cascade(learned, Fixed(Relation.SUPERSEDE, 0.9), min_evidence=1)
    for _ in range(5):
        assert cascade.judge(A, B).reason == "fixed"
    assert cascade.trusted and cascade.checks_ == cascade.passed_ == 5


def test_unsure_slot_verdicts_are_no_checks_and_min_confidence_falls_back() -> None:
    cascade = _cascade(Fixed(Relation.COEXIST, 0.6), Fixed(Relation.SUPERSEDE, 0.6), min_evidence=1)
    assert cascade.judge(A, B).relation is Relation.COEXIST and cascade.checks_ == 0
    cascade.min_confidence = 0.7
    verdict = cascade.judge(A, B)
    assert verdict.relation is Relation.SUPERSEDE and "unsure" in verdict.reason


def test_a_new_store_starts_a_new_tally_and_reaches_the_learned_judge() -> None:
    learned = Fixed(Relation.COEXIST, 1.0)
    cascade = _cascade(learned, Fixed(Relation.SUPERSEDE, 0.9), min_evidence=1)
    cascade.observe([A])
    cascade.judge(A, B)
    cascade.observe([A, B])  # the same store, grown: the tally stays
    assert cascade.checks_ == 1 and not cascade.trusted
    cascade.observe([B])  # another store
    assert cascade.checks_ == 0 and cascade.trusted
    assert learned.observed == [[A], [A, B], [B]]


def test_config_builds_with_the_learned_and_slot_settings(tiny_model: Path) -> None:
    cfg = compose_cfg(
        ["judge=cascade", f"judge.model_path={tiny_model}", "judge.model_sha256=null", "judge.slot.dup_jaccard=0.5"]
    )
    judge = build(cfg["judge"], "judge")
    assert isinstance(judge, CascadeJudge)
    verdict = judge.judge(A, B, 0.8)
    assert verdict.relation in set(Relation)
    assert judge.slot_.dup_jaccard == 0.5 and judge.artifact_path == str(tiny_model)


def test_a_distrusted_learned_judge_hands_pairs_to_the_fallback_model() -> None:
    cascade = _cascade(Fixed(Relation.COEXIST, 1.0), Fixed(Relation.SUPERSEDE, 0.9), fallback="learned")
    cascade.fallback_ = Fixed(Relation.DUPLICATE, 0.7)
    cascade.observe([A, B])
    assert cascade.fallback_.observed == []  # not built while the learned judge is trusted
    verdict = cascade.judge(A, B)  # the check fails: from here on the fallback model answers, not the rules
    assert cascade.fallback_.observed == [[A, B]]  # it reads the store before its first verdict, once
    assert (verdict.relation, verdict.confidence) == (Relation.DUPLICATE, 0.7)
    assert verdict.reason.startswith("fallback model (learned judge distrusted)")
    cascade.min_confidence, cascade.min_evidence, cascade.checks_ = 1.1, 10, 0  # trusted, unsure: the fallback
    assert "unsure" in cascade.judge(A, B).reason and cascade.judge(A, B).relation is Relation.DUPLICATE


def test_an_unknown_fallback_is_a_one_line_error() -> None:
    with pytest.raises(MemlabError, match=r"judge\.fallback must be one of slot, learned, dspy"):
        CascadeJudge(fallback="rules").judge(A, B)


def test_the_llm_fallback_is_asked_only_where_the_learned_judge_does_not_answer(tiny_model: Path) -> None:
    with StubOpenAI(replies=[four_way_reply("MERGE", "0.85")]) as stub:
        llm = ["llm=local", "llm.model=openai/stub-model", f"llm.api_base={stub.base_url}", "llm.api_key=stub"]
        overrides = ["judge=cascade", "judge.fallback=dspy", f"judge.model_path={tiny_model}", "judge.edits=false"]
        cfg = compose_cfg(
            [*overrides, *llm, "judge.model_sha256=null", "judge.llm_min_probability=null", "llm.cache=false"]
        )
        cascade = build(cfg["judge"], "judge")
        assert cascade.dspy.llm["api_base"] == stub.base_url and cascade.dspy.prompt == "fourway"
        cascade._parts()  # builds the DSPy fallback from the composed llm settings
        cascade.slot_ = Fixed(Relation.SUPERSEDE, 0.9)
        cascade.learned_ = Fixed(Relation.SUPERSEDE, 0.95)
        cascade.observe([A, B])
        assert cascade.judge(A, B).reason == "fixed" and stub.requests == []  # trusted: no LLM call
        cascade.learned_ = Fixed(Relation.COEXIST, 1.0)
        for _ in range(2):  # two failed checks: 1 of 3 passed, below min_agreement 0.5
            verdict = cascade.judge(A, B)
        assert (verdict.relation, verdict.confidence) == (Relation.MERGE, 0.85)
        assert verdict.reason.startswith("fallback LLM (learned judge distrusted)")
        assert len(stub.requests) == 1


class Probabilities:
    """A fallback model that gives fixed relation probabilities."""

    def __init__(self, coexist: float) -> None:
        self.coexist = coexist

    def observe(self, memories) -> None:
        pass

    def probabilities(self, older, newer, similarity=None) -> dict[str, float]:
        return {"COEXIST": self.coexist, "SUPERSEDE": 1.0 - self.coexist}


def test_the_fallback_model_keeps_pairs_it_finds_unrelated_from_the_llm(tiny_model: Path) -> None:
    with StubOpenAI(replies=[four_way_reply("SUPERSEDE", "0.9")]) as stub:
        llm = ["llm=local", "llm.model=openai/stub-model", f"llm.api_base={stub.base_url}", "llm.api_key=stub"]
        models = [f"judge.model_path={tiny_model}", f"judge.fallback_model_path={tiny_model}"]
        pins = ["judge.model_sha256=null", "judge.fallback_model_sha256=null", "llm.cache=false"]
        overrides = [
            "judge=cascade",
            "judge.fallback=dspy",
            "judge.llm_min_probability=0.05",
            "judge.edits=false",
            *models,
            *pins,
            *llm,
        ]
        cascade = build(compose_cfg(overrides)["judge"], "judge")
        cascade.load()  # the filter is the fallback model, loaded and checked like it
        assert cascade.filter_.path_ == tiny_model
        cascade.slot_, cascade.learned_ = Fixed(Relation.SUPERSEDE, 0.9), Fixed(Relation.COEXIST, 1.0)
        cascade.filter_ = Probabilities(coexist=0.97)
        cascade.observe([A, B])
        verdict = cascade.judge(A, B)  # distrusted at once; p(not COEXIST) 0.03 < 0.05
        assert (verdict.relation, verdict.confidence) == (Relation.COEXIST, pytest.approx(0.97))
        assert "no LLM call" in verdict.reason and stub.requests == []
        cascade.filter_ = Probabilities(coexist=0.9)
        verdict = cascade.judge(A, B)
        assert verdict.relation is Relation.SUPERSEDE and verdict.reason.startswith("fallback LLM")
        assert len(stub.requests) == 1


def test_an_llm_fallback_without_a_language_model_is_a_one_line_error() -> None:
    judge = build(compose_cfg(["judge=cascade", "judge.fallback=dspy"])["judge"], "judge")
    with pytest.raises(MemlabError, match=r"^judge\.fallback=dspy needs a language model; pick one with llm="):
        judge.observe([A, B])


def test_the_conf_pins_the_shipped_fallback_model(tiny_model: Path) -> None:
    cfg = compose_cfg(["judge=cascade", f"judge.model_path={tiny_model}", "judge.model_sha256=null"])
    judge = build(cfg["judge"], "judge")
    assert judge.fallback == "learned" and judge.fallback_model_path is None
    assert judge.fallback_model_sha256 == file_sha256(FALLBACK_MODEL)
    from memlab.strategies.judge.learned import DEFAULT_MODEL

    shipped = build(compose_cfg(["judge=cascade"])["judge"], "judge")  # the conf pins the shipped primary too
    assert shipped.model_path is None and shipped.model_sha256 == file_sha256(DEFAULT_MODEL)
    judge.load()  # both models load, each checked against its card and pin
    assert judge.fallback_.path_ == FALLBACK_MODEL
    bad = compose_cfg(["judge=cascade", f"judge.model_path={tiny_model}", "judge.fallback_model_sha256=" + "0" * 64])
    with pytest.raises(MemlabError, match="does not match the SHA-256"):
        build(bad["judge"], "judge").load()


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_the_experiment_runs_with_an_llm_fallback_end_to_end(tmp_path: Path) -> None:
    """`+experiment=project_history judge.fallback=dspy` on the built-in history, against the stub server (every
    reply COEXIST; no accuracy is read from it): the learned judge is distrusted there, so every verdict is the
    filter's or the LLM's, and no supersession is found."""
    import json

    from memlab.run import run

    with StubOpenAI(replies=[four_way_reply("COEXIST", "0.9")]) as stub:
        llm = ["llm=local", "llm.model=openai/stub-model", f"llm.api_base={stub.base_url}", "llm.api_key=stub"]
        overrides = [
            "+experiment=project_history",
            "dataset=builtin_history",
            "judge.fallback=dspy",
            "judge.edits=false",
            *llm,
        ]
        run(compose_cfg([*overrides, "llm.cache=false"]), tmp_path)
    metrics = json.loads((tmp_path / "result.json").read_text())["metrics"]
    assert metrics["supersession_f1"] == 0.0
    assert 0 < len(stub.requests) < metrics["n_judged_pairs"], (len(stub.requests), metrics["n_judged_pairs"])


def test_an_evaluation_seed_reaches_the_learned_judges_built_and_to_come() -> None:
    cascade = CascadeJudge(fallback="learned", eval_seed=1)
    cascade._parts()
    cascade.set_eval_seed(7)
    assert cascade.eval_seed == 7 and cascade.learned_.eval_seed == 7 and cascade.fallback_.eval_seed == 7
    assert cascade._fallback_model().eval_seed == 7
