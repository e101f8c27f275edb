"""The cascade judge: learned verdicts while they agree with the slot judge's surest ones, the fallback's else; its
stages composed from their options' files."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from memlab.core.errors import MemlabError
from memlab.core.paths import CONF_DIR
from memlab.core.sha import file_sha256
from memlab.core.types import Relation, Verdict
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.cascade import CascadeJudge
from memlab.strategies.judge.learned import SHIPPED, LearnedJudge
from memlab.wiring.build import build
from tests.judges.helpers import four_way_reply, mem
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI


class Fixed(JudgeBase):
    """A judge that answers one verdict and records what it saw."""

    name, version = "fixed", 1

    def __init__(self, relation: Relation, confidence: float) -> None:
        self.verdict = Verdict(relation, confidence, "fixed")
        self.observed: list = []
        self.seed: int | None = None

    def observe(self, memories) -> None:
        self.observed.append(list(memories))

    def judge(self, older, newer, similarity=None) -> Verdict:
        return self.verdict

    def set_eval_seed(self, seed) -> None:
        self.seed = seed


def _cascade(learned: Fixed, slot: Fixed, **kwargs) -> CascadeJudge:
    return CascadeJudge(learned=learned, slot=slot, **kwargs)


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


def test_a_distrusted_learned_judge_hands_pairs_to_the_fallback() -> None:
    fallback = Fixed(Relation.DUPLICATE, 0.7)
    cascade = _cascade(Fixed(Relation.COEXIST, 1.0), Fixed(Relation.SUPERSEDE, 0.9), fallback=fallback)
    cascade.observe([A, B])
    assert fallback.observed == []  # not shown the store while the learned judge is trusted
    verdict = cascade.judge(A, B)  # the check fails: from here on the fallback answers, not the rules
    assert fallback.observed == [[A, B]]  # it reads the store before its first verdict, once
    assert (verdict.relation, verdict.confidence) == (Relation.DUPLICATE, 0.7)
    assert verdict.reason.startswith("fallback fixed (learned judge distrusted)")
    cascade.min_confidence, cascade.min_evidence, cascade.checks_ = 1.1, 10, 0  # trusted, unsure: the fallback
    assert "unsure" in cascade.judge(A, B).reason and cascade.judge(A, B).relation is Relation.DUPLICATE
    assert fallback.observed == [[A, B]]


def test_a_screen_keeps_pairs_it_finds_unrelated_from_the_fallback() -> None:
    fallback = Fixed(Relation.SUPERSEDE, 0.9)
    screen = Fixed(Relation.COEXIST, 0.97)
    cascade = _cascade(
        Fixed(Relation.COEXIST, 1.0), Fixed(Relation.SUPERSEDE, 0.9), fallback=fallback, screen=screen,
        screen_min_probability=0.05,
    )  # fmt: skip
    cascade.observe([A, B])
    verdict = cascade.judge(A, B)  # distrusted at once; p(not COEXIST) 0.03 < 0.05
    assert (verdict.relation, verdict.confidence) == (Relation.COEXIST, pytest.approx(0.97))
    assert "fixed not asked" in verdict.reason and screen.observed == fallback.observed == [[A, B]]
    screen.verdict = Verdict(Relation.COEXIST, 0.9, "unsure")
    assert cascade.judge(A, B).reason.startswith("fallback fixed (learned judge distrusted)")
    screen.verdict = Verdict(Relation.MERGE, 0.99, "a relation")
    assert cascade.judge(A, B).relation is Relation.SUPERSEDE


def test_an_evaluation_seed_reaches_every_stage() -> None:
    stages = [Fixed(Relation.COEXIST, 1.0) for _ in range(3)]
    _cascade(stages[0], stages[1], fallback=stages[2]).set_eval_seed(7)
    assert [s.seed for s in stages] == [7, 7, 7]


def test_the_stages_are_the_options_composed_from_their_own_files(tiny_model: Path) -> None:
    model = [f"judge.learned.model_path={tiny_model}", "judge.learned.model_sha256=null"]
    cfg = compose_cfg(["judge=cascade", *model, "judge.slot.dup_jaccard=0.5"])
    judge = build(cfg["judge"], "judge")
    assert isinstance(judge, CascadeJudge) and isinstance(judge.learned, LearnedJudge)
    assert judge.judge(A, B, 0.8).relation in set(Relation)
    assert judge.slot.dup_jaccard == 0.5 and judge.artifact_path == str(tiny_model)
    assert judge.fallback.model == "learned_v11" and judge.fallback.model_sha256 == file_sha256(
        SHIPPED / "learned_v11.json"
    )
    judge.fallback.load()  # the shipped fallback model loads, checked against its card and pin
    shipped = build(compose_cfg(["judge=cascade"])["judge"], "judge")  # the conf pins the shipped primary too
    assert shipped.learned.model_path is None and shipped.learned.model_sha256 == file_sha256(
        SHIPPED / "learned_v10.json"
    )
    bad = compose_cfg(["judge=cascade", "judge.fallback.model_sha256=" + "0" * 64])
    with pytest.raises(MemlabError, match="does not match the SHA-256"):
        build(bad["judge"], "judge").fallback.load()
    absent = build(compose_cfg(["judge=cascade", "judge.fallback=null", "judge.reference=null"])["judge"], "judge")
    assert absent.fallback is None and absent.reference is None and absent.record is not None


def test_the_cascade_file_repeats_no_setting_of_its_stages_files() -> None:
    """conf/judge/cascade.yaml names its stages in its defaults list and keeps only the gating (and the pin of the
    shipped model v10, which learned.yaml leaves open); no stage setting is copied from the option it comes from."""

    def read(option: str) -> dict:
        return yaml.safe_load((CONF_DIR / "judge" / f"{option}.yaml").read_text(encoding="utf-8"))

    cascade = read("cascade")
    stages = {k: v for item in cascade["defaults"] if isinstance(item, dict) for k, v in item.items()}
    assert stages == {f"/judge@{s}": o for s, o in [("learned", "learned"), ("slot", "slot"),
                      ("fallback", "learned_v11"), ("recapture", "recapture"), ("reference", "reference"),
                      ("record", "record")]}  # fmt: skip
    for key, option in stages.items():
        own = cascade.get(key.rsplit("@", 1)[1]) or {}
        copied = {k for k, v in own.items() if read(option).get(k, object()) == v}
        assert not copied, f"conf/judge/cascade.yaml repeats {sorted(copied)} of conf/judge/{option}.yaml"
    gating = {
        "min_confidence",
        "min_agreement",
        "min_evidence",
        "evidence_confidence",
        "record_min_chars",
        "record_share",
    }
    assert set(cascade) - {"defaults", "learned"} == {"_target_", *gating}


def test_the_llm_fallback_is_asked_only_where_the_learned_judge_does_not_answer(tiny_model: Path) -> None:
    with StubOpenAI(replies=[four_way_reply("MERGE", "0.85")]) as stub:
        llm = ["llm=local", "llm.model=openai/stub-model", f"llm.api_base={stub.base_url}", "llm.api_key=stub"]
        cfg = compose_cfg(["judge=cascade_llm", "judge.screen=null", *llm, "llm.cache=false"])
        cascade = build(cfg["judge"], "judge")
        assert cascade.fallback.llm["api_base"] == stub.base_url and cascade.fallback.prompt == "fourway"
        cascade.slot = Fixed(Relation.SUPERSEDE, 0.9)
        cascade.learned = Fixed(Relation.SUPERSEDE, 0.95)
        cascade.observe([A, B])
        assert cascade.judge(A, B).reason == "fixed" and stub.requests == []  # trusted: no LLM call
        cascade.learned = Fixed(Relation.COEXIST, 1.0)
        for _ in range(2):  # two failed checks: 1 of 3 passed, below min_agreement 0.5
            verdict = cascade.judge(A, B)
        assert (verdict.relation, verdict.confidence) == (Relation.MERGE, 0.85)
        assert verdict.reason.startswith("fallback dspy (learned judge distrusted)")
        assert len(stub.requests) == 1


def test_the_llm_cascade_screens_with_model_v11() -> None:
    judge = build(compose_cfg(["judge=cascade_llm"])["judge"], "judge")
    assert judge.screen.model == "learned_v11" and judge.screen_min_probability == 0.01
    judge.slot, judge.learned = Fixed(Relation.SUPERSEDE, 0.9), Fixed(Relation.COEXIST, 1.0)
    judge.screen = Fixed(Relation.SUPERSEDE, 0.9)  # the pair reaches the language model, which is not configured
    judge.observe([A, B])
    with pytest.raises(MemlabError, match=r"no LLM configured; pick one with llm="):
        judge.judge(A, B)


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_the_experiment_runs_with_an_llm_fallback_end_to_end(tmp_path: Path) -> None:
    """`+experiment=project_history judge=cascade_llm` on the built-in history, against the stub server (every
    reply COEXIST; no accuracy is read from it): the learned judge is distrusted there, so every verdict is the
    screen's or the LLM's, and no supersession is found."""
    import json

    from memlab.run import run

    with StubOpenAI(replies=[four_way_reply("COEXIST", "0.9")]) as stub:
        llm = ["llm=local", "llm.model=openai/stub-model", f"llm.api_base={stub.base_url}", "llm.api_key=stub"]
        overrides = ["+experiment=project_history", "dataset=builtin_history", "judge=cascade_llm", *llm]
        run(compose_cfg([*overrides, "llm.cache=false"]), tmp_path)
    metrics = json.loads((tmp_path / "result.json").read_text())["metrics"]
    assert metrics["supersession_f1"] == 0.0
    assert 0 < len(stub.requests) < metrics["n_judged_pairs"], (len(stub.requests), metrics["n_judged_pairs"])
