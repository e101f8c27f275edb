"""memlab report judge_families: exact tables on hand-made runs, and the whole command on a real MLflow run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from memlab.core.errors import MemlabError
from memlab.reports import judge_families as jf

GEN = "memlab.benchmarks.project_history.benchmark.ProjectHistoryBenchmark"
BUILTIN = "memlab.benchmarks.project_history.benchmark.BuiltinHistoryBenchmark"
CASCADE = "memlab.strategies.judge.cascade.CascadeJudge"


def _run(t: int, style: str | None, seed: int, f1: float, fallback: str = "learned", **metrics: float):
    params = {"dataset._target_": BUILTIN if style is None else GEN, "seed": str(seed), "dataset.seed": str(seed)}
    if style is not None:
        params["dataset.style"] = style
    params.update({"judge._target_": CASCADE, "judge.model_path": "None", "judge.fallback": fallback})
    return SimpleNamespace(
        run_id=f"r{t:04d}",
        start_time=t,
        params=params,
        metrics={"supersession_f1": f1, **metrics},
        tags={"memlab.strategy.judge": "cascade@1", "memlab.git_sha": "abcdef0123", "memlab.git_dirty": "false"},
    )


def test_judge_label_names_models_and_fallbacks():
    assert jf.judge_label({"judge._target_": CASCADE, "judge.fallback": "learned"}) == "cascade v8 → v9"
    assert jf.judge_label({"judge._target_": CASCADE, "judge.fallback": "slot"}) == "cascade v8 → slot"
    other = {"judge._target_": CASCADE, "judge.fallback": "learned", "judge.fallback_model_path": "/m/learned_v10.json"}
    assert jf.judge_label(other) == "cascade v8 → v10"
    learned = {"judge._target_": "memlab.strategies.judge.learned.LearnedJudge", "judge.model_path": "/learned_v9.json"}
    assert jf.judge_label(learned) == "learned v9"
    assert jf.judge_label({"judge._target_": "memlab.strategies.judge.slot.SlotJudge"}) == "slot"
    # a fallback given by digest only is the shipped model with that digest
    (sha,) = [s for s, v in jf.shipped_models().items() if v == "v11"]
    assert jf.judge_label({**other, "judge.fallback_model_path": "None", "judge.fallback_model_sha256": sha}) == (
        "cascade v8 → v11"
    )
    # the conf pins both shipped models, so a default run is named by them; runs from before the pins by v8 / v9
    (primary,) = [s for s, v in jf.shipped_models().items() if v == "v10"]
    pinned = {"judge._target_": CASCADE, "judge.fallback": "learned", "judge.model_sha256": primary}
    assert jf.judge_label({**pinned, "judge.fallback_model_sha256": sha}) == "cascade v10 → v11"


@pytest.mark.parametrize(
    ("overrides", "label"),
    [
        (["judge=cascade"], "cascade v10 → v11"),
        (["judge=cascade", "judge@judge.fallback=slot"], "cascade v10 → slot"),
        (["judge=cascade", "judge.fallback=null"], "cascade v10 → slot"),
        (["judge=cascade_llm"], "cascade v10 → dspy"),
        (["judge=learned_v11"], "learned v11"),
    ],
)
def test_judge_label_of_a_composed_run(overrides, label):
    """The labels of runs of the composed cascade (its stages are nodes: ``judge.fallback._target_``, ...)."""
    from memlab.observability.provenance import flatten
    from tests.support.compose import compose_cfg

    params = {k: str(v) for k, v in flatten({"judge": compose_cfg(overrides)["judge"]}).items()}
    assert jf.judge_label(params) == label


def test_tables_keep_the_newest_run_per_seed_split_validation_seeds_and_average_role_groups():
    runs = [
        _run(1, "classic", 0, 0.9),
        _run(2, "classic", 1, 0.7),
        _run(3, "classic", 0, 0.8),  # newer than t=1: replaces seed 0
        _run(4, "classic", 1020, 0.1),  # a validation seed: its own row, not in the generalization table
        _run(5, "ticket", 0, 0.4),
        _run(6, "chat", 0, 0.6),
        _run(7, None, 0, 0.5, when_acc=0.0, n_queries_when=0.0),  # the built-in history asks no `when`
        _run(8, "ticket", 0, 0.2, fallback="slot"),
    ]
    groups = jf.groups_of(runs)
    assert list(groups) == [
        ("classic", "cascade v8 → v9"),
        ("classic (validation seeds)", "cascade v8 → v9"),
        ("ticket", "cascade v8 → slot"),
        ("ticket", "cascade v8 → v9"),
        ("chat", "cascade v8 → v9"),
        ("builtin_history", "cascade v8 → v9"),
    ]
    text = jf.render(runs)
    assert "| cascade v8 → v9 | 0.750 (2 missing) | 0.500 | – | 0.500 (1 missing) |" in text
    assert "| cascade v8 → slot | – | 0.200 (1 missing) | – | – |" in text
    assert "| classic | trained family | cascade v8 → v9 | 0,1 | 0.750 ± 0.071 |" in text
    assert "| classic (validation seeds) | trained family | cascade v8 → v9 | 1020 | 0.100 |" in text
    builtin = next(line for line in text.splitlines() if line.startswith("| builtin_history"))
    assert "| hand-written, check |" in builtin and "| 0.500 |" in builtin and "0.000" not in builtin
    assert "cascade@1 abcdef0" in builtin


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_report_from_a_real_run_refuses_to_overwrite_and_needs_runs(tmp_path):
    from memlab.run import run
    from tests.support.compose import compose_cfg

    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    overrides = ["+experiment=project_history", f"experiment_name={jf.EXPERIMENT}", "dataset=builtin_history"]
    cfg = compose_cfg([*overrides, "judge=slot", "embedder=tfidf", "tracking=mlflow", f"tracking.uri={uri}"])
    run(cfg, tmp_path / "run")
    out = tmp_path / "judge_families.md"
    assert jf.main(["--uri", uri, "--out", str(out)]) == 0
    row = next(line for line in out.read_text().splitlines() if line.startswith("| builtin_history"))
    assert row.startswith("| builtin_history | hand-written, check | slot | - | ")
    with pytest.raises(MemlabError, match="exists"):
        jf.main(["--uri", uri, "--out", str(out)])
    with pytest.raises(MemlabError, match="no FINISHED runs"):
        jf.main(["--uri", f"sqlite:///{tmp_path / 'empty.db'}", "--out", str(tmp_path / "x.md")])
