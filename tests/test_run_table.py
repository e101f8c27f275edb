"""A run's table starts with its main metric (count ``n`` and 95% interval), then the headline metrics; the other
metrics only with ``--all`` (all of them are in the run's ``result.json``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from memlab.__main__ import print_outcome
from memlab.sweeps.table import fmt

METRICS = {
    "aa_first_alphabetically": 0.25,
    "reader_acc": 0.5625,
    "reader_acc_ci_low": 0.3125,
    "reader_acc_ci_high": 0.8125,
    "n_reader": 16.0,
    "injected_tokens": 1234.5,
    "zz_last": 1.0,
}


def outcome() -> SimpleNamespace:
    result = SimpleNamespace(card=SimpleNamespace(name="builtin_history"))
    return SimpleNamespace(
        metrics=METRICS, main_metric="reader_acc", result=result, skipped=False, output_dir=Path("/out"),
        run_id="r1", ui_command=None, run_url=None, headline=("reader_acc", "injected_tokens"),
    )  # fmt: skip


@pytest.mark.parametrize("show_all", [False, True])
def test_the_main_metric_comes_first_with_its_n_and_interval(capsys, show_all):
    print_outcome(outcome(), show_all=show_all)
    lines = [line for line in capsys.readouterr().out.splitlines() if "│" in line and "metric" not in line]
    names = [line.split("│")[1].strip() for line in lines]
    assert names[:2] == ["reader_acc (main)", "injected_tokens"]
    cells = [c.strip() for c in lines[0].split("│")[2:5]]
    assert cells == ["0.562", "16", "[0.312, 0.812]"]
    assert ("aa_first_alphabetically" in names) is show_all and ("zz_last" in names) is show_all


def test_without_all_the_table_says_where_the_other_metrics_are(capsys):
    print_outcome(outcome())
    out = capsys.readouterr().out
    # aa_first_alphabetically, n_reader, zz_last: the interval's bounds are in reader_acc's row, not counted
    assert "3 more metrics: add --all, or read /out/result.json" in out


def test_with_all_an_interval_is_its_metrics_cell_never_two_rows_of_its_own(capsys):
    print_outcome(outcome(), show_all=True)
    names = [line.split("│")[1].strip() for line in capsys.readouterr().out.splitlines() if "│" in line]
    assert names == ["reader_acc (main)", "injected_tokens", "aa_first_alphabetically", "n_reader", "zz_last"]


@pytest.mark.parametrize(
    ("value", "shown"),
    [(0.5625, "0.562"), (1234.5, "1234"), (0.01234, "0.0123"), (12.345, "12.3"), (0.0, "0"), (32.0, "32"), (None, "–")],
)
def test_three_significant_digits_never_an_exponent(value, shown):
    assert fmt(value) == shown
