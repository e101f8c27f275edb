"""Every benchmark's card declares exactly the strategy groups it touches, and a run refuses overrides of others."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from memlab.benchmarks.base import BenchmarkCard
from memlab.core.errors import MemlabError
from memlab.run import check_uses, overridden_groups, run
from memlab.wiring.build import GROUPS, Unused, build_components, build_node
from memlab.wiring.strategy_index import TARGETS
from tests.locomo.tiny import tiny, write
from tests.support.compose import compose_cfg


class Spy:
    """Forwards to a strategy and records that its group was touched."""

    def __init__(self, group, obj, touched):
        object.__setattr__(self, "_group", group)
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_touched", touched)

    def __getattr__(self, name):
        self._touched.add(self._group)
        return getattr(self._obj, name)


def spied(cfg, uses, name):
    touched: set[str] = set()
    comps = build_components(cfg, groups=[g for g in GROUPS if g in uses], benchmark=name)
    wrapped = {g: getattr(comps, g) if isinstance(getattr(comps, g), Unused) else Spy(g, getattr(comps, g), touched)
               for g in GROUPS}  # fmt: skip
    return replace(comps, **wrapped), touched


def duckling(tmp_path: Path) -> Path:
    path = tmp_path / "duckling.json"
    ref = "2013-02-12T04:30:00-02:00"
    path.write_text(json.dumps([
        {"block": "allExamples", "reference_time": ref, "phrase": "yesterday",
         "expected": {"kind": "datetime", "value": "2013-02-11T00:00:00", "grain": "Day"}},
    ]))  # fmt: skip
    return path


def notes(tmp_path: Path) -> Path:
    path = tmp_path / "notes.jsonl"
    rows = [
        {"namespace": "decisions", "commit": f"{i:02d}" * 20, "index": 0,
         "timestamp": f"2025-01-0{1 + i % 5}T10:00:00Z", "summary": f"Use tool {i % 3} for builds",
         "content": "because it is fast"}
        for i in range(12)
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def lme(tmp_path: Path) -> Path:
    from tests.longmemeval.test_longmemeval import RECORDS

    path = tmp_path / "lme.json"
    path.write_text(json.dumps(RECORDS))
    return path


CASES = {
    "builtin_history": lambda tmp: ["dataset=builtin_history"],
    "project_history": lambda tmp: ["dataset=project_history", "dataset.size=100"],
    "locomo": lambda tmp: ["dataset=locomo", f"dataset.path={write(tmp / 't.json', tiny())}", "retriever=bm25"],
    "longmemeval": lambda tmp: ["dataset=longmemeval", f"dataset.path={lme(tmp)}"],
    "gitnotes_real": lambda tmp: ["dataset=gitnotes_real", f"dataset.path={notes(tmp)}"],
    "temporal_norm": lambda tmp: ["dataset=temporal_norm", f"dataset.path={duckling(tmp)}"],
}


def test_every_dataset_option_is_covered():
    assert {t.rsplit(".", 2)[-1] for t in TARGETS["dataset"]} >= {"LocomoBenchmark"}
    covered = set(CASES) | {"locomo_synth", "project_history_file"}  # subclasses of covered benchmarks
    names = {build_node(compose_cfg([f"dataset={n}"])["dataset"], "dataset").card.name for n in covered if n in CASES}
    assert names == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_declared_uses_match_the_groups_touched(name, tmp_path):
    cfg = compose_cfg([*CASES[name](tmp_path), "embedder=tfidf", "temporal=rules"])
    bench = build_node(cfg["dataset"], "dataset")
    card: BenchmarkCard = type(bench).card
    comps, touched = spied(cfg, card.uses, card.name)
    bench.run(comps, 0)
    assert touched == {g for g in card.uses if g in GROUPS}, f"{name} declares {card.uses}"


def test_a_group_a_benchmark_does_not_use_raises_when_touched(tmp_path):
    cfg = compose_cfg([*CASES["builtin_history"](tmp_path), "embedder=tfidf"])
    bench = build_node(cfg["dataset"], "dataset")
    comps = build_components(cfg, groups=[g for g in GROUPS if g != "judge"], benchmark="builtin_history")
    with pytest.raises(MemlabError, match="used strategy group 'judge'"):
        bench.run(comps, 0)


def test_overrides_name_their_groups():
    assert overridden_groups(["judge=slot", "+experiment=x", "pipeline.knn_k=5", "+retriever.rrf_k=3", "seed=2"]) == [
        "judge",
        "pipeline",
        "retriever",
    ]


def test_an_override_of_an_unused_group_is_one_line(tmp_path):
    cfg = compose_cfg(CASES["temporal_norm"](tmp_path))
    with pytest.raises(MemlabError, match=r"dataset 'temporal_norm' does not use judge; it uses only temporal \("):
        run(cfg, tmp_path / "o", overrides=["dataset=temporal_norm", "judge=slot"])
    with pytest.raises(MemlabError, match="does not use pipeline"):
        check_uses(type(build_node(cfg["dataset"], "dataset")).card, ["pipeline"])


def test_runs_tag_and_log_only_the_groups_used(tmp_path):
    from memlab.run import run_params

    cfg = compose_cfg(CASES["temporal_norm"](tmp_path))
    params = run_params(cfg, ("temporal",))
    assert any(k.startswith("temporal.") for k in params)
    assert not any(k.split(".")[0] in {"judge", "selector", "embedder", "pipeline", "retriever"} for k in params)
