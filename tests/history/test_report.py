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
    assert "| learned | 400 | 0.850 | 0.900 | +0.050 |" in text  # hard − default, on the shared seeds
    assert text.count("`ld2t0012`") == 1 and "`ld0t0000`" not in text  # listed once; the replaced run not


def test_no_runs_is_one_line_and_writes_nothing(tmp_path) -> None:
    from memlab.core.errors import MemlabError
    from memlab.reports.project_history import main

    out = tmp_path / "project_history.md"
    out.write_text("committed\n")
    with pytest.raises(MemlabError, match="no FINISHED runs of experiment project_history") as err:
        main(["--uri", f"sqlite:///{tmp_path / 'empty.db'}", "--out", str(out), "--force"])
    assert "\n" not in str(err.value) and out.read_text() == "committed\n"


def test_figure_has_title_labels_target_legend_error_bars_and_shows_none(tmp_path, monkeypatch) -> None:
    from memlab.reports import common, history_figure, project_history

    runs = [_run(j, d, s, 0.0 if j == "none" else 0.8 + 0.01 * s, s) for j in ("none", "slot")
            for d in ("default", "hard") for s in (0, 1)]  # fmt: skip
    lines, summary = project_history._history_section(runs)
    assert "| none | 400 | 0.000 | 0.000 | +0.000 |" in "\n".join(lines)
    captured = {}
    monkeypatch.setattr(common, "save", lambda fig, path: captured.setdefault("fig", fig))
    assert history_figure.plot_f1(summary, tmp_path / "f1.png")
    ax = captured["fig"].axes[0]
    assert ax.get_title() and ax.get_xlabel() == "history difficulty" and "F1" in ax.get_ylabel()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "target 0.95" in labels and "none (n=400)" in labels
    assert ax.get_ylim()[0] < 0  # a line at 0 is not hidden by the axis
    bars = [c for c in ax.containers if type(c).__name__ == "ErrorbarContainer"]
    assert len(bars) == 2 and any(seg.get_segments() for c in bars for seg in c.lines[2])


def test_the_code_column_names_the_model_a_judge_loaded() -> None:
    from memlab.reports.project_history import code_label

    run = _run("learned", "default", 0, 0.9, 1)
    assert code_label([run]) == "learned@1 abcdef0"
    run.tags["memlab.model.judge"] = "learned_v10.json"
    assert code_label([run, _run("slot", "default", 0, 0.5, 2)]) == "learned@1 learned_v10 slot@1 abcdef0"
