"""The sweep's console comparison keeps every configuration readable at 80 columns (pipes, CI logs, narrow
terminals): the table holds run numbers and metrics, a legend under it the full configurations."""

from __future__ import annotations

import itertools

import pytest

from memlab.sweeps.table import render_comparison
from memlab.tracking.store import ChildRun
from tests.support.stores import fresh_store


def policy_sweep_rows() -> list[ChildRun]:
    """The README's 12-job sweep: judge x retention x budget, with four headline metrics."""
    rows = []
    grid = itertools.product(("slot", "similarity", "none"), ("exponential", "none"), ("250", "1000"))
    for i, (judge, retention, budget) in enumerate(grid):
        name = f"judge={judge} retention={retention} budget_tokens={budget}"
        headline = tuple((m, 0.1 * (i % 5)) for m in ("supersession_f1", "stale_rate_injected", "injected_tokens"))
        rows.append(ChildRun(f"{i:02d}" + "ab" * 15, name, "FINISHED", "current_truth_at_1", i / 20, headline))
    return rows


@pytest.mark.parametrize("count", [2, 12])
def test_every_configuration_reads_in_full_at_80_columns(count):
    rows = policy_sweep_rows()[:count]
    text = render_comparison(rows, 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    flat = " ".join(text.split())
    for row in rows:
        assert row.name in flat and row.run_id[:8] in flat
    best = max(rows, key=lambda r: r.value)
    assert f"#1 {best.name}" in flat  # numbered best first
    assert "current_truth_at_1" in flat  # in the title; long metric headers wrap inside their columns


def test_a_12_job_table_fits_80_columns_with_abbreviated_names_and_only_the_columns_that_differ():
    import dataclasses

    from memlab.benchmarks.stats import PairedResult
    from memlab.sweeps.table import abbreviations

    rows = [
        dataclasses.replace(r, interval=(0.3125, 0.8125), metrics=(("n_queries_current", 16.0),),
                            headline=(*r.headline, ("stale_rate_memory", 0.0)))
        for r in policy_sweep_rows()
    ]  # fmt: skip
    paired = {r.run_id: PairedResult(16, 0.5, 0.6, -0.0625, -0.3, 0.1, 0.5) for r in rows}
    narrow, wide = render_comparison(rows, 80, paired), render_comparison(rows, 160, paired)
    assert max(len(line) for line in narrow.splitlines()) <= 80
    head = narrow.splitlines()[0]
    assert "current_truth_at_1 (n=16)" in head  # the count is the same in every run: once, in the title
    assert "same in every run: stale_rate_memory 0" in narrow and "stale_rate_memory" not in wide.split("same")[0]
    assert "slot/expo/250" in narrow and "run = judge/retention/budget_tokens" in narrow
    assert "[0.312, 0.812]" in narrow and "-0.062" in narrow  # the interval, three significant digits
    assert "not shown at 80 columns:" in narrow and "not shown" not in wide  # a wider terminal gets every column
    assert "11ababab   -0.062 [-0.300, +0.100]" in wide  # the run id and the difference's interval
    assert abbreviations(["judge=similarity x=1", "judge=similar x=1"]) == ["similari/1", "similar/1"]  # unlike


def test_the_comparison_figure_has_a_title_labelled_axes_and_error_bars_where_runs_have_intervals():
    import matplotlib.pyplot as plt

    from memlab.observability.plots import comparison_figure

    names = ["judge=slot", "judge=none", "judge=similarity"]
    fig = comparison_figure(names, [0.5, 0.75, None], [(0.25, 0.75), None, None], "current_truth_at_1")
    ax = fig.axes[0]
    assert "current_truth_at_1" in ax.get_title() and "95% interval" in ax.get_xlabel() and ax.get_ylabel()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["judge=none", "judge=slot", "judge=similarity"]
    from matplotlib.container import BarContainer, ErrorbarContainer

    assert sum(isinstance(c, BarContainer) for c in ax.containers) == 2  # the run without a value has no bar
    assert sum(isinstance(c, ErrorbarContainer) for c in ax.containers) == 1  # only judge=slot has an interval
    assert any(t.get_text().strip() == "not logged" for t in ax.texts)  # undefined: no bar drawn as 0
    plt.close(fig)


@pytest.mark.slow  # about 3 s (an MLflow store): with the slow suite (CI runs it)
def test_the_comparison_says_whether_each_job_is_distinguishable_from_the_best(tmp_path):
    from memlab.sweeps.paired import paired_vs_best
    from memlab.sweeps.table import comparison_table
    from tests.sweeps.helpers import log_run

    uri = fresh_store(tmp_path)
    results = {"slot": [1] * 19 + [0], "none": [1] * 2 + [0] * 18, "similarity": [1] * 18 + [0] * 2}
    rows = []
    for judge, correct in results.items():
        run_id = log_run(uri, "e", tmp_path / judge, strategies={"judge": judge}, params={}, correct=correct)
        rows.append(ChildRun(run_id, f"judge={judge}", "FINISHED", "current_truth_at_1", sum(correct) / 20, ()))
    paired = paired_vs_best(rows, uri)
    assert set(paired) == {r.run_id for r in rows if r.name != "judge=slot"}
    table = comparison_table(rows, paired)
    line = {n: next(li for li in table.splitlines() if f"| judge={n} |" in li) for n in results}
    assert "| -0.850 [" in line["none"] and "| yes |" in line["none"]
    assert "| -0.050 [" in line["similarity"] and "| no |" in line["similarity"]
    assert "| – | – |" in line["slot"]  # the best itself
    text = render_comparison(rows, 80, paired)
    assert "dist." in text and max(len(li) for li in text.splitlines()) <= 80


@pytest.mark.parametrize(
    ("low", "high", "says"),
    [(-0.3125, 0.0, "cannot be told apart"), (-0.3, -0.05, "distinguishably ahead")],
)
def test_the_verdict_says_whether_the_comparison_can_choose_between_its_two_best(low, high, says):
    from memlab.benchmarks.stats import PairedResult
    from memlab.sweeps.table import verdict

    rows = policy_sweep_rows()[:3]
    second = sorted(rows, key=lambda r: -r.value)[1]
    paired = {second.run_id: PairedResult(16, 0.6875, 0.5625, -0.125, low, high, 0.5)}
    line = verdict(rows, paired)
    assert line is not None and says in line and "on 16 paired items" in line
    assert f"[{low:+.4f}, {high:+.4f}]" in line
    assert verdict(rows, None) is None and verdict(rows[:1], paired) is None  # nothing to compare: no verdict
