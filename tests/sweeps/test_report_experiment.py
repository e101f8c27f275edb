"""`memlab report --experiment NAME`: tables with per-item bootstrap intervals, paired tests against a named
baseline, figures with titles, labels, legends and error bars; no runs or an existing file: one-line errors."""

from __future__ import annotations

import pytest

from memlab.errors import MemlabError
from memlab.reports import stats
from tests.sweeps.helpers import log_run, span

CORRECT = {  # (judge, seed) -> per-item results; budgets share them so the budget plot is flat
    ("slot", 0): [1, 1, 1, 0],
    ("slot", 1): [1, 1, 0, 0],
    ("none", 0): [0, 0, 1, 0],
    ("none", 1): [0, 0, 0, 0],
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("store")
    uri = f"sqlite:///{tmp / 'mlruns.db'}"
    for (judge, seed), correct in CORRECT.items():
        for budget in (250, 1000):
            trace = span(
                "run", 1.0, 1, [span("consolidate", 0.5, 3, [span("cluster", 0.2, 3)]), span("recall", 0.1, 4)]
            )
            metrics = {
                "tier_frac_hot": 0.25,
                "tier_frac_warm": 0.5,
                "tier_frac_cold": 0.25,
                "latency_cluster_s": 0.2,
                "latency_recall_s": 0.1,
                # held-out split: only judge=none seed 1 at budget 250 is best there
                "current_truth_at_1_heldout": 0.9 if (judge, seed, budget) == ("none", 1, 250) else 0.5,
            }
            log_run(
                uri,
                "policy",
                tmp / f"{judge}-{seed}-{budget}",
                strategies={"judge": judge, "retention": "exponential"},
                params={"seed": seed, "dataset.seed": seed, "pipeline.budget_tokens": budget},
                correct=correct,
                metrics=metrics,
                trace=trace,
            )
    return uri, tmp


def test_table_has_pooled_items_intervals_and_paired_test(store, tmp_path, monkeypatch):
    from memlab.reports import experiment, experiment_figures

    figures = {}

    def capture(fig, path):
        figures[path.name] = fig
        path.write_bytes(b"png")
        return path

    monkeypatch.setattr(experiment_figures, "save", capture)
    uri, _ = store
    out = tmp_path / "policy.md"
    args = [
        "--experiment",
        "policy",
        "--uri",
        uri,
        "--out",
        str(out),
        "--baseline",
        "judge=none pipeline.budget_tokens=1000",
    ]
    assert experiment.main(args) == 0
    text = out.read_text()
    slot_items = [v for s in (0, 1) for v in CORRECT[("slot", s)]]
    lo, hi = stats.bootstrap_ci(slot_items)
    row = next(line for line in text.splitlines() if line.startswith("| judge=slot pipeline.budget_tokens=1000 |"))
    assert f"| 0,1 | 8 | 0.625 | [{lo:.3f}, {hi:.3f}] |" in row
    assert "| +0.500 |" in row  # 5/8 - 1/8, paired on (seed, item)
    assert "**judge=none pipeline.budget_tokens=1000** (baseline)" in text
    assert "retention" not in row.split("|")[1]  # the same option everywhere is not part of the label
    # figures: titles, axis labels, legends, error bars
    assert set(figures) == {"policy_main.png", "policy_tiers.png", "policy_latency.png", "policy_budget.png"}
    for name, fig in figures.items():
        for ax in fig.axes:
            assert ax.get_title(), name
            assert ax.get_xlabel() and ax.get_ylabel(), name
            assert ax.get_legend() is not None, name
            sizes = [t.get_fontsize() for t in ax.get_legend().get_texts()]
            assert min(sizes) >= 8, (name, sizes)  # a legend that reads at the size the report shows it
    main_ax = figures["policy_main.png"].axes[0]
    assert any(type(c).__name__ == "ErrorbarContainer" for c in main_ax.containers) or main_ax.lines
    budget_ax = figures["policy_budget.png"].axes[0]
    assert any(type(c).__name__ == "ErrorbarContainer" for c in budget_ax.containers)
    assert "## Latency per phase" in text and "| cluster |" in text.replace("| recall |", "|")


def test_existing_report_needs_force_and_empty_store_is_one_line(store, tmp_path):
    from memlab.reports.experiment import main

    uri, _ = store
    out = tmp_path / "policy.md"
    out.write_text("committed report\n")
    with pytest.raises(MemlabError, match="exists; pass --force"):
        main(["--experiment", "policy", "--uri", uri, "--out", str(out)])
    assert out.read_text() == "committed report\n"
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    with pytest.raises(MemlabError, match="no FINISHED runs of experiment policy") as err:
        main(["--experiment", "policy", "--uri", empty, "--out", str(tmp_path / "new.md")])
    assert "\n" not in str(err.value)
    assert not (tmp_path / "new.md").exists()


def test_unknown_baseline_lists_the_configurations(store, tmp_path):
    from memlab.reports.experiment import main

    uri, _ = store
    with pytest.raises(MemlabError, match="matches no configuration; configurations: judge=none"):
        main(["--experiment", "policy", "--uri", uri, "--out", str(tmp_path / "x.md"), "--baseline", "judge=dspy"])


def test_memlab_best_breaks_the_tie_and_says_so(store, capsys):
    from memlab.cli import main

    uri, _ = store
    assert main(["best", "--experiment", "policy", "--tracking-uri", uri]) == 0
    out = capsys.readouterr().out
    # four runs share 0.75 (judge=slot seed 0, both budgets) -> 2 runs tie at the top
    assert "current_truth_at_1=0.75" in out
    assert "tie: 2 runs have current_truth_at_1=0.75; chose the simpler configuration: fewer strategy groups" in out
    first = out.split()[0]
    assert main(["best", "--experiment", "policy", "--tracking-uri", uri]) == 0
    assert capsys.readouterr().out.split()[0] == first  # deterministic


def test_memlab_best_ranks_on_a_split(store, capsys):
    from memlab.cli import main

    uri, _ = store
    assert main(["best", "--experiment", "policy", "--tracking-uri", uri, "--split", "heldout", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["metric"] == "current_truth_at_1_heldout" and data["value"] == 0.9 and data["ties"] == []
    assert data["tags"]["memlab.strategy.judge"] == "none@1"
    assert main(["best", "--experiment", "policy", "--tracking-uri", uri, "--split", "hedlout"]) == 2
    err = capsys.readouterr().err
    assert "metric 'current_truth_at_1_hedlout'" in err and "current_truth_at_1_heldout" in err
    assert err.count("\n") == 1
