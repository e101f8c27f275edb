"""Shapley attribution over strategy groups: exact values on tiny tables, paired intervals, the swaps the command
runs and the report that reads them back."""

from __future__ import annotations

import pytest

from memlab.commands import report as command
from memlab.core.errors import MemlabError
from memlab.reports import attribution as at
from memlab.reports import attribution_runs as ar

E = frozenset()


def test_shapley_sums_to_total_and_splits_an_interaction_evenly() -> None:
    # judge alone +0.2, selector alone +0.1, both +0.5 (an interaction of +0.2 shared equally)
    values = {E: 0.3, frozenset({"judge"}): 0.5, frozenset({"selector"}): 0.4, frozenset({"judge", "selector"}): 0.8}
    phi = at.shapley(values, ["judge", "selector"])
    assert phi["judge"] == pytest.approx(0.3)
    assert phi["selector"] == pytest.approx(0.2)
    assert sum(phi.values()) == pytest.approx(0.8 - 0.3)


def test_shapley_symmetric_groups_get_equal_values_and_a_null_group_zero() -> None:
    groups = ["a", "b", "null"]
    # v depends on how many of a, b are present (symmetric in a, b); "null" never matters
    values = {s: 0.1 * len(s & {"a", "b"}) ** 2 for s in at.coalitions(groups)}
    phi = at.shapley(values, groups)
    assert phi["a"] == pytest.approx(phi["b"])
    assert phi["null"] == pytest.approx(0.0)
    assert sum(phi.values()) == pytest.approx(0.4)


def test_shapley_refuses_a_missing_coalition() -> None:
    with pytest.raises(MemlabError, match="missing"):
        at.shapley({E: 0.0, frozenset({"a"}): 1.0}, ["a", "b"])


def test_one_at_a_time_lists_both_directions() -> None:
    got = set(at.one_at_a_time(["a", "b", "c"]))
    assert got == {E, frozenset("abc"), frozenset("a"), frozenset("b"), frozenset("c"), frozenset("bc"),
                   frozenset("ac"), frozenset("ab")}  # fmt: skip
    assert len(at.coalitions(["a", "b", "c"])) == 8


def _items(correct: list[int]) -> dict[object, tuple[float, float]]:
    return {i: (float(c), 1.0) for i, c in enumerate(correct)}


def test_attribute_paired_intervals_and_efficiency() -> None:
    # 8 items; A gets 2 right, the judge alone fixes 4 more, the selector changes nothing
    a = [1, 1, 0, 0, 0, 0, 0, 0]
    j = [1, 1, 1, 1, 1, 1, 0, 0]
    items = {E: _items(a), frozenset({"judge"}): _items(j), frozenset({"selector"}): _items(a),
             frozenset({"judge", "selector"}): _items(j)}  # fmt: skip
    res = at.attribute(items, ["judge", "selector"], resamples=500)
    assert res.n_items == 8
    assert res.total.value == pytest.approx(0.5)
    assert res.shapley["judge"].value == pytest.approx(0.5)
    assert res.shapley["selector"].value == pytest.approx(0.0)
    assert res.shapley["selector"].ci == (0.0, 0.0)
    assert res.shapley["judge"].distinguishable and not res.shapley["selector"].distinguishable
    assert res.add["judge"].value == pytest.approx(0.5) and res.drop["judge"].value == pytest.approx(0.5)
    assert res.total.ci[0] <= sum(s.value for s in res.shapley.values()) <= res.total.ci[1]


def test_attribute_without_every_coalition_gives_swaps_only() -> None:
    items = {E: _items([0, 1]), frozenset({"a"}): _items([1, 1]), frozenset({"a", "b", "c"}): _items([1, 1])}
    res = at.attribute(items, ["a", "b", "c"], resamples=100)
    assert res.shapley == {}
    assert res.add["a"].value == pytest.approx(0.5)
    assert "b" not in res.add


def test_attribute_needs_both_ends() -> None:
    with pytest.raises(MemlabError, match="both configurations"):
        at.attribute({E: _items([1])}, ["a"])


def test_coalition_config_swaps_whole_subtrees_and_files_under_the_experiment() -> None:
    a = {"dataset": {"_target_": "x"}, "judge": {"_target_": "J1", "t": 1}, "selector": {"_target_": "S1"},
         "tracking": {"_target_": "T", "experiment": "presets", "skip_finished": False}, "seed": 0}  # fmt: skip
    b = {**a, "judge": {"_target_": "J2"}, "selector": {"_target_": "S2"}}
    cfg = command.coalition_config(a, b, frozenset({"judge"}), "attr", 3, "sqlite:///x.db")
    assert cfg["judge"] == {"_target_": "J2"} and cfg["selector"] == {"_target_": "S1"}
    assert cfg["experiment_name"] == "attr" and cfg["tracking"]["experiment"] == "attr" and cfg["seed"] == 3
    assert cfg["tracking"]["uri"] == "sqlite:///x.db" and cfg["tracking"]["skip_finished"] is True
    assert a["judge"] == {"_target_": "J1", "t": 1}  # A is not modified
    assert cfg["tags"] == ["attribution", "coalition=judge"]


def test_plan_and_labels() -> None:
    assert len(ar.plan(["a", "b", "c", "d"], 4)) == 16
    assert len(ar.plan(["a", "b", "c", "d", "e"], 4)) == 12
    assert ar.label(E) == "none" and ar.label(frozenset({"selector", "judge"})) == "judge+selector"

    from types import SimpleNamespace

    run = SimpleNamespace(tags={"memlab.tags": "attribution,coalition=judge+selector"})
    assert ar.coalition_of(run) == frozenset({"judge", "selector"})


def test_differing_groups_refuses_another_dataset() -> None:
    with pytest.raises(MemlabError, match="same dataset"):
        command.differing_groups({"dataset": {"_target_": "a"}}, {"dataset": {"_target_": "b"}})


def test_attribute_on_one_item_has_no_interval_and_is_not_distinguishable() -> None:
    res = at.attribute({E: {"s0": (0.2, 1.0)}, frozenset({"a"}): {"s0": (0.7, 1.0)}}, ["a"], resamples=50)
    assert res.shapley["a"].value == pytest.approx(0.5)
    assert res.shapley["a"].ci is None and not res.shapley["a"].distinguishable  # undefined: absent, never NaN
    assert ar.share_cell(res.shapley["a"]) == "+0.500 (no interval) no"


@pytest.mark.slow
def test_attribution_runs_the_swaps_and_sums_to_the_measured_difference(tmp_path) -> None:
    from memlab.tracking.query import find_runs
    from tests.sweeps.helpers import report

    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    base = f"+experiment=seed_git_notes_memory_nollm embedder=tfidf tracking.uri={uri}"
    a, b = base, base + " judge=slot retriever=bm25"
    out = tmp_path / "attr_attribution.md"
    argv = ["--experiment", "attr", "--uri", uri, "--baseline", a, "--attribute", b, "--out", str(out)]
    with pytest.raises(MemlabError, match="no FINISHED runs of experiment attr"):  # the report alone runs nothing
        report(*argv, "--no-run")
    assert not out.exists()
    assert report(*argv) == 0
    runs = find_runs("attr", uri)
    assert len(runs) == 4  # every subset of two groups, once
    value = {ar.coalition_of(r): r.metrics["reader_acc"] for r in runs}
    result, metric = ar.read(
        "attr", ("judge", "retriever"), ar.plan(["judge", "retriever"], 4), [0], uri=uri, metric=None
    )
    assert metric == "reader_acc" and result.groups == ("judge", "retriever")
    assert result.total.value == pytest.approx(value[frozenset({"judge", "retriever"})] - value[frozenset()])
    assert sum(s.value for s in result.shapley.values()) == pytest.approx(result.total.value)
    text = out.read_text()
    assert f"**B − A = {ar.share_cell(result.total)}**" in text
    assert report(*argv, "--force") == 0 and len(find_runs("attr", uri)) == 4  # FINISHED coalitions are not rerun
    assert out.read_text() == text


def test_pipeline_knobs_are_attributed_one_by_one_or_by_named_sub_group() -> None:
    knobs = {"recall_mode": "standard", "knn_k": 8, "knn_k_slot": 0, "mode": "batch", "budget_tokens": 500}
    a = {
        "dataset": {"_target_": "memlab.benchmarks.project_history.benchmark.BuiltinHistoryBenchmark"},
        "pipeline": knobs,
    }
    b = {**a, "pipeline": {**a["pipeline"], "recall_mode": "exhaustive", "knn_k": 20, "knn_k_slot": 20,
                           "mode": "online"}}  # fmt: skip
    groups = command.differing_groups(a, b)
    assert groups == ("pipeline.candidates", "pipeline.online", "pipeline.recall_mode")
    cfg = command.coalition_config(a, b, frozenset({"pipeline.recall_mode"}), "attr", 0, None)
    assert cfg["pipeline"] == {**a["pipeline"], "recall_mode": "exhaustive"}  # that knob alone
    cfg = command.coalition_config(a, b, frozenset({"pipeline.candidates"}), "attr", 0, None)
    assert (cfg["pipeline"]["knn_k"], cfg["pipeline"]["knn_k_slot"], cfg["pipeline"]["mode"]) == (20, 20, "batch")
    assert cfg["tags"] == ["attribution", "coalition=pipeline.candidates"]
