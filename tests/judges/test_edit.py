"""The edit judge: exact features on tiny facts, no dependence on later memories, the relation rule, loading only
through the card (SHA-256), and the cascade's edit stage."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation
from memlab.models.logistic import LogisticModel, save
from memlab.strategies.judge.cascade import CascadeJudge
from memlab.strategies.judge.edit import DEFAULT_MODEL, EditJudge, changed_values, edit_relation
from memlab.strategies.judge.edit_features import FEATURES, EditContext, lead, tokens
from memlab.strategies.judge.learned import LearnedJudge
from memlab.strategies.judge.slot import SlotJudge

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def fact(i: int, text: str, commit: int) -> Memory:
    return Memory(f"m{i}", "patterns", T0 + timedelta(days=commit), text)


OLD = fact(0, "- Run tests with `npm test`", 0)
LINT = fact(1, "- Lint with `npm run lint`", 0)
NEW = fact(2, "- Run tests with `pnpm vitest`", 1)
BESIDE = fact(3, "- Deploy with `make release`", 1)


def row(context: EditContext, older: Memory, newer: Memory, sim: float | None = 0.5) -> dict[str, float]:
    return dict(zip(FEATURES, context.features(older, newer, sim), strict=True))


def test_tokens_keep_paths_flags_and_versions() -> None:
    assert tokens("Use `pnpm run test:e2e` on ./src/app.ts, Python 3.10+") == (
        "use", "pnpm", "run", "test:e2e", "on", "src/app.ts", "python", "3.10",
    )  # fmt: skip
    assert [lead(t) for t in ("- a", "1. a", "| a |", "├── a", "# a", "`a`", "a")] == [
        "bullet", "number", "table", "tree", "comment", "code", "word",
    ]  # fmt: skip


def test_features_exact_values_and_ranks() -> None:
    context = EditContext([OLD, LINT, NEW, BESIDE])
    f = row(context, OLD, NEW)
    # tokens: run tests with npm test / run tests with pnpm vitest
    assert f["jaccard"] == pytest.approx(3 / 7) and f["containment"] == pytest.approx(3 / 5)
    assert f["prefix"] == pytest.approx(3 / 5) and f["suffix"] == 0.0 and f["same_lead"] == 1.0
    assert f["value_diff"] == 0.0 and f["n_diff"] == pytest.approx(math.log1p(4))
    assert f["same_time"] == 0.0 and f["cosine"] == 0.5 and f["session_size"] == pytest.approx(math.log1p(2))
    assert f["old_rank"] == 1.0  # OLD is NEW's closest earlier fact
    assert f["new_rank"] == 1.0  # NEW is closer to OLD than BESIDE, written with it
    assert row(context, OLD, BESIDE)["new_rank"] == 0.5
    assert row(context, OLD, LINT)["same_time"] == 1.0
    assert row(context, OLD, NEW, None)["cosine"] == pytest.approx(3 / 7)  # no hint: the Jaccard
    assert row(context, OLD, NEW, float("nan"))["cosine"] == pytest.approx(3 / 7)


def test_a_later_memory_never_changes_a_pair() -> None:
    before = row(EditContext([OLD, LINT, NEW, BESIDE]), OLD, NEW)
    later = fact(9, "- Run tests with `pnpm vitest` in CI", 5)
    assert row(EditContext([OLD, LINT, NEW, BESIDE, later]), OLD, NEW) == before


def test_relation_rule_reads_what_changed() -> None:
    assert edit_relation(OLD.text, NEW.text) is Relation.SUPERSEDE and changed_values(OLD.text, NEW.text) == [
        "npm", "pnpm", "test", "vitest",
    ]  # fmt: skip
    assert edit_relation("- Tests sit beside the source", "- Tests sit beside the source.") is Relation.DUPLICATE
    assert edit_relation("Python 3.9+", "Python 3.10+") is Relation.SUPERSEDE
    assert edit_relation("Status: in progress", "Status: done") is Relation.SUPERSEDE
    assert edit_relation("We use mocks", "We never use mocks") is Relation.SUPERSEDE
    assert edit_relation("Use Jest for tests", "Use Vitest for tests") is Relation.SUPERSEDE


def tiny(tmp_path: Path, weight: float) -> Path:
    """A model that reads the Jaccard alone: p = sigmoid(weight * (jaccard - 0.3) / 0.1)."""
    model = LogisticModel(("jaccard",), (0.3,), (0.1,), (weight,), 0.0)
    card = {"features": ["jaccard"], "features_version": 1, "threshold": 0.5}
    return save(model, card, tmp_path / "edit.json", card_format="memlab.edit_judge/1")[0]


def test_verdicts_and_loading_through_the_card(tmp_path: Path) -> None:
    judge = EditJudge(model_path=str(tiny(tmp_path, 5.0)))
    judge.observe([OLD, LINT, NEW, BESIDE])
    verdict = judge.judge(OLD, NEW, 0.9)
    assert verdict.relation is Relation.SUPERSEDE and 0.5 <= verdict.confidence <= 1.0 and "edit p=" in verdict.reason
    assert judge.judge(LINT, NEW, 0.9).relation is Relation.COEXIST
    assert judge.artifact_path == str(tmp_path / "edit.json")
    with pytest.raises(MemlabError, match="does not match the SHA-256"):
        EditJudge(model_path=str(tmp_path / "edit.json"), model_sha256="0" * 64).judge(OLD, NEW)
    card = tmp_path / "edit.card.json"
    card.write_text(json.dumps({**json.loads(card.read_text()), "format": "memlab.record_judge/1"}))
    with pytest.raises(MemlabError, match=r"is not a memlab\.edit_judge/1 card"):
        EditJudge(model_path=str(tmp_path / "edit.json")).judge(OLD, NEW)
    assert DEFAULT_MODEL.is_file()


def test_the_cascade_edit_stage_answers_edits_and_passes_the_rest_on(tmp_path: Path) -> None:
    edit = EditJudge(model_path=str(tiny(tmp_path, 5.0)))
    cascade = CascadeJudge(LearnedJudge(), SlotJudge(), edit=edit)
    assert edit in cascade.stages()
    cascade.observe([OLD, LINT, NEW, BESIDE])
    assert cascade.judge(OLD, NEW, 0.9).reason.startswith("edit: ")
    assert not cascade.judge(LINT, NEW, 0.9).reason.startswith("edit: ")
    plain = CascadeJudge(LearnedJudge(), SlotJudge())
    plain.observe([OLD, LINT, NEW, BESIDE])
    assert not plain.judge(OLD, NEW, 0.9).reason.startswith("edit: ")


@pytest.mark.parametrize(
    ("overrides", "stage"),
    [
        (["judge=cascade_edit"], True),
        (["judge=cascade"], False),
        (["judge=cascade_edit", "judge.edit=null"], False),
        (["judge=slot"], None),
    ],
)
def test_the_memory_files_experiment_composes_the_edit_stage_into_the_cascade(overrides, stage) -> None:
    from memlab.wiring.build import build
    from memlab.wiring.config import compose

    assert isinstance(build(compose(["+experiment=memory_files"])["judge"], "judge"), EditJudge)  # its own judge
    judge = build(compose(["+experiment=memory_files", *overrides])["judge"], "judge")
    if stage is None:  # another judge still composes under the experiment: nothing of the edit stage reaches it
        assert not isinstance(judge, CascadeJudge)
        return
    assert isinstance(judge.edit, EditJudge) is stage
    assert not isinstance(build(compose(["judge=cascade"])["judge"], "judge").edit, EditJudge)  # the default
