"""Leave-one-conversation-out choice of the answerer's settings: fold logic, LoCoMo rows, the benchmark option."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.benchmarks.locomo.contexts import unit_record
from memlab.benchmarks.locomo.cv import MemoResolver, expand_grid, locomo_cv, loocv
from memlab.core.errors import MemlabError
from memlab.core.types import Memory
from memlab.run import run
from memlab.strategies.temporal.rules import RulesResolver
from tests.locomo.test_benchmark import _cfg
from tests.locomo.tiny import tiny, write


def test_expand_grid_in_declared_order() -> None:
    assert expand_grid({"a": [1, 2], "b": ["x", "y"]}) == [
        {"a": 1, "b": "x"},
        {"a": 1, "b": "y"},
        {"a": 2, "b": "x"},
        {"a": 2, "b": "y"},
    ]
    with pytest.raises(MemlabError, match="non-empty list"):
        expand_grid({"a": []})
    with pytest.raises(MemlabError, match="non-empty list"):
        expand_grid({"a": 3})


def test_loocv_exact_folds() -> None:
    groups = {"a1": "a", "a2": "a", "b1": "b", "b2": "b", "c1": "c", "c2": "c"}
    values = [
        {"a1": 1, "a2": 1, "b1": 0, "b2": 0, "c1": 1, "c2": 0},  # setting 0: best for a
        {"a1": 0, "a2": 0, "b1": 1, "b2": 1, "c1": 1, "c2": 1},  # setting 1: best overall (4/6)
    ]
    folds, pooled = loocv(values, groups)
    assert [(f.heldout, f.chosen) for f in folds] == [("a", 1), ("b", 0), ("c", 0)]  # c: a 0.5-0.5 tie -> first
    assert [f.train_score for f in folds] == [1.0, 0.75, 0.5]
    assert [f.heldout_score for f in folds] == [0.0, 0.0, 0.5]
    assert pooled == {"a1": 0, "a2": 0, "b1": 0, "b2": 0, "c1": 1, "c2": 0}


def test_loocv_needs_two_groups() -> None:
    with pytest.raises(MemlabError, match="at least two conversations"):
        loocv([{"x": 1.0}], {"x": "a"})


@given(
    data=st.lists(st.lists(st.sampled_from([0.0, 1.0]), min_size=9, max_size=9), min_size=1, max_size=4),
    noise=st.lists(st.sampled_from([0.0, 1.0]), min_size=3, max_size=3),
)
def test_a_fold_never_sees_its_held_out_group(data, noise) -> None:
    """Changing the held-out group's values changes neither its fold's choice nor that choice's train score,
    and the choice is the best on the other groups (earliest on ties)."""
    items = [f"q{i}" for i in range(9)]
    groups = {q: "abc"[i // 3] for i, q in enumerate(items)}
    values = [dict(zip(items, row, strict=True)) for row in data]
    folds, _ = loocv(values, groups)
    for fold in folds:
        changed = [
            {**v, **{q: noise[j] for j, q in enumerate(q for q in items if groups[q] == fold.heldout)}} for v in values
        ]
        again = {f.heldout: f for f in loocv(changed, groups)[0]}[fold.heldout]
        assert (again.chosen, again.train_score) == (fold.chosen, fold.train_score)
        train = [q for q in items if groups[q] != fold.heldout]
        scores = [sum(v[q] for q in train) / len(train) for v in values]
        assert scores[fold.chosen] == max(scores) and scores.index(max(scores)) == fold.chosen


def _turn(conv: str, i: int, text: str, day: int) -> Memory:
    return Memory(
        id=f"{conv}:{i}",
        namespace="dialogue",
        timestamp=datetime(2023, 6, day, 14, 0, tzinfo=UTC),
        summary=text,
        meta={"dia_id": f"D1:{i}", "text": text.split(": ", 1)[1], "speaker": text.split(":")[0]},
    )


def _row(conv: str, qid: str, question: str, gold: str, units: list[Memory]) -> dict:
    return {
        "qid": qid,
        "conversation": conv,
        "category": 2,
        "question": question,
        "gold": gold,
        "gold_datelike": True,
        "context_units": [unit_record(u) for u in units],
    }


# Two kinds of question: the time expression sits in the sentence beside the event's (needs sentence_window=1),
# or beside it stands an unrelated plan (sentence_window=1 picks the plan; the turn's day is right).
NEIGHBOUR = (
    "Dana: Guess what happened last Friday? I finished my first triathlon.",
    "When did Dana finish a triathlon?",
)
PLAN = ("Jon: I'm expanding my dance studio. I'm also hosting a contest next month.", "When did Jon expand his studio?")


def _rows() -> list[dict]:
    a1 = _turn("a", 1, NEIGHBOUR[0], 5)  # Monday 5 June 2023
    a2 = _turn("a", 2, "Eli: Guess what happened last weekend? I sold my old bike.", 7)
    b1 = _turn("b", 1, PLAN[0], 5)
    c1 = _turn("c", 1, "Eli: I'm repainting my kitchen. We also have a party next week.", 8)
    return [
        _row("a", "a-q1", NEIGHBOUR[1], "The Friday before 5 June 2023", [a1]),
        _row("a", "a-q2", "When did Eli sell his old bike?", "The weekend before 7 June 2023", [a2]),
        _row("b", "b-q1", PLAN[1], "5 June 2023", [b1]),
        _row("c", "c-q1", "When did Eli start repainting his kitchen?", "8 June 2023", [c1]),
    ]


def test_locomo_cv_exact_on_tiny_rows() -> None:
    """In-sample, sentence_window=1 gets 2 of 4; out of sample every fold picks the other conversations'
    preference, which is wrong for the held-out one: the estimate is 0."""
    rows = _rows()
    metrics, report = locomo_cv(rows, RulesResolver(), {"sentence_window": [0, 1]})
    assert [(f["heldout"], f["setting"]["sentence_window"]) for f in report["folds"]] == [("a", 0), ("b", 1), ("c", 1)]
    assert metrics["cv_temporal_date_acc_datelike"] == 0.0 and metrics["cv_n_settings"] == 2.0
    assert metrics["cv_heldout_a"] == metrics["cv_heldout_b"] == metrics["cv_heldout_c"] == 0.0
    assert report["predictions"]["a-q1"] == "5 June 2023" and report["predictions"]["b-q1"] == "July 2023"
    single, _ = locomo_cv(rows, RulesResolver(), {"sentence_window": [1]})
    assert single["cv_temporal_date_acc_datelike"] == 0.5  # a one-point grid is the plain figure
    with pytest.raises(MemlabError, match=r"unknown dataset\.cv_grid key"):
        locomo_cv(rows, RulesResolver(), {"top_k": [1]})


def test_memo_resolver_resolves_each_text_once() -> None:
    calls = []

    class Counting(RulesResolver):
        def resolve(self, text, anchor):
            calls.append(text)
            return super().resolve(text, anchor)

    memo = MemoResolver(Counting())
    anchor = datetime(2023, 6, 5, tzinfo=UTC)
    assert memo.resolve("yesterday", anchor) == memo.resolve("yesterday", anchor)
    assert calls == ["yesterday"]


def test_the_benchmark_logs_the_cross_validated_estimate(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny() + tiny(sample_id="conv-b"))
    out = run(_cfg(path, "+dataset.cv_grid={top_n:[1,5],sentence_window:[0,1]}"), tmp_path / "out")
    m = out.metrics
    assert m["cv_n_settings"] == 4.0 and m["cv_temporal_date_acc_datelike"] == m["temporal_date_acc_datelike"] == 1.0
    assert m["cv_heldout_conv-a"] == m["cv_heldout_conv-b"] == 1.0
    report = json.loads((tmp_path / "out" / "loocv.json").read_text())
    assert [f["heldout"] for f in report["folds"]] == ["conv-a", "conv-b"] and report["n"] == 4
    rows = [json.loads(line) for line in (tmp_path / "out" / "predictions.jsonl").read_text().splitlines()]
    assert all("context_units" in r for r in rows if r["category"] == 2)


def test_a_bad_grid_fails_before_the_run(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with pytest.raises(MemlabError, match=r"unknown dataset\.cv_grid key"):
        run(_cfg(path, "+dataset.cv_grid={top:[1]}"), tmp_path / "out")
