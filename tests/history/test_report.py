"""The project_history report reads real MLflow runs (a temporary sqlite store) and writes markdown."""

from __future__ import annotations

import pytest

from memlab.run import run
from tests.support.compose import compose_cfg


@pytest.mark.slow
def test_report_from_mlflow_runs(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    base = ["tracking=mlflow", f"tracking.uri={uri}", "embedder=tfidf", "clusterer=none"]
    for judge, difficulty in (("similarity", "default"), ("similarity", "hard"), ("none", "default")):
        overrides = [
            *base,
            "dataset=project_history",
            "dataset.size=100",
            f"dataset.difficulty={difficulty}",
            f"judge={judge}",
            "experiment_name=project_history",
        ]
        run(compose_cfg(overrides), tmp_path / f"{judge}-{difficulty}")
    for experiment in ("gitnotes_real", "gitnotes_real_cold"):
        notes = [*base, "dataset=gitnotes_real", "dataset.limit=150", "judge=slot", f"experiment_name={experiment}"]
        run(compose_cfg(notes), tmp_path / experiment)
    from memlab.reports.project_history import main

    out = tmp_path / "reports" / "project_history.md"
    assert main(["--uri", uri, "--out", str(out)]) == 0
    text = out.read_text()
    assert "| similarity | default | 100 | 0 |" in text
    assert "| similarity | 100 |" in text  # the drop table
    assert "| gitnotes_real | tfidf@1 | slot |" in text and "| gitnotes_real_cold | tfidf@1 | slot |" in text
    assert (tmp_path / "reports" / "project_history_f1.png").is_file()


def _run(judge: str, difficulty: str, seed: int, f1: float, t: int):
    from types import SimpleNamespace

    return SimpleNamespace(
        run_id=f"{judge[0]}{difficulty[0]}{seed}t{t:04d}",
        start_time=t,
        params={"dataset.difficulty": difficulty, "dataset.size": "400", "seed": str(seed)},
        metrics={"supersession_f1": f1},
        tags={"memlab.strategy.judge": f"{judge}@1", "memlab.git_sha": "abcdef0", "memlab.git_dirty": "false"},
    )


def test_main_table_uses_the_seeds_all_groups_share_and_lists_further_seeds_apart() -> None:
    from memlab.reports.project_history import _history_section

    runs = [_run(j, d, s, 0.5 if j == "slot" else 0.9, s) for j in ("slot", "learned") for d in ("default", "hard")
            for s in (0, 1)]  # fmt: skip
    runs += [_run("learned", "default", s, 0.6, 10 + s) for s in (2, 10)]  # more seeds for one group
    runs.append(_run("learned", "default", 0, 0.8, 20))  # a newer run replaces seed 0's
    lines, summary = _history_section(runs)
    text = "\n".join(lines)
    assert summary[("learned", "default", "400")] == pytest.approx(0.85)  # seeds 0 (newest) and 1
    assert summary[("learned", "hard", "400")] == pytest.approx(0.9)
    assert "| learned | default | 400 | 0,1 | 0.850 ± 0.071 |" in text
    assert "### On all seeds run" in text
    assert "| learned | default | 400 | 0,1,2,10 | 0.725 ± 0.150 |" in text  # seeds in numeric order
    assert "| learned | 400 | 0.850 | 0.900 | -0.050 |" in text  # the drop uses the shared seeds
    assert text.count("`ld2t0012`") == 1 and "`ld0t0000`" not in text  # listed once; the replaced run not
