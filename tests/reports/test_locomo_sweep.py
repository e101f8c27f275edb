"""The LoCoMo sweep figure: each bar's interval is the bootstrap over its run's items, or there is none."""

from __future__ import annotations

import math

import pytest

from memlab.benchmarks.metrics import bootstrap_ci
from memlab.reports.locomo_sweep import (
    HELDOUT,
    METRIC,
    NO_ARTIFACT,
    NO_HELDOUT,
    NOT_REPRODUCED,
    bar,
    caption,
    draw,
    heldout_conversations,
    plot,
)
from memlab.tracking.query import RunRecord

#: (conversation, qid, date_correct, gold_datelike) of the synthetic category-2 questions.
TEMPORAL = [
    ("conv-a", "a1", True, True),
    ("conv-a", "a2", False, True),
    ("conv-a", "a3", True, True),
    ("conv-a", "a4", True, False),  # not date-like: not in the metric
    ("conv-b", "b1", False, True),
    ("conv-b", "b2", True, True),
    ("conv-h", "h1", True, True),
    ("conv-h", "h2", False, True),
    ("conv-h", "h3", False, True),
]
#: Date-like date_correct values: all conversations, and the held-out one (conv-h).
DEV = [1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0]
HELD = [1.0, 0.0, 0.0]


def _records() -> list[dict]:
    rows = [
        {"qid": q, "conversation": c, "category": 2, "date_correct": ok, "gold_datelike": dl, "flagged": None}
        for c, q, ok, dl in TEMPORAL
    ]
    rows.append({"qid": "a9", "conversation": "conv-a", "category": 1, "flagged": None})  # no date answer
    rows.append(  # flagged by the errata: left out of the logged metric, and so of the items
        {"qid": "b9", "conversation": "conv-b", "category": 2, "date_correct": True, "gold_datelike": True,
         "flagged": {"reason": "wrong gold"}}
    )  # fmt: skip
    return rows


def _run(run_id: str = "r1", dev: float = 4 / 8, held: float = 1 / 3, heldout: str = "['conv-h']") -> RunRecord:
    return RunRecord(
        run_id, "locomo_temporal", "FINISHED", 1, {"dataset.heldout": heldout}, {METRIC: dev, HELDOUT: held}, {}
    )


def test_the_interval_is_the_seeded_bootstrap_over_the_runs_items() -> None:
    run = _run()
    dev, held = bar(run, METRIC, _records()), bar(run, HELDOUT, _records())
    assert dev.value == 0.5 and dev.n == 8 and dev.missing is None
    assert dev.ci == bootstrap_ci(DEV, [1.0] * 8, resamples=2000, seed=0)
    assert held.n == 3 and held.ci == bootstrap_ci(HELD, [1.0] * 3, resamples=2000, seed=0)
    assert dev.ci != held.ci and dev.ci[0] < 0.5 < dev.ci[1]


def test_without_items_there_is_no_interval_and_the_reason_is_given() -> None:
    assert bar(_run(), METRIC, None).ci is None and bar(_run(), METRIC, None).missing == NO_ARTIFACT
    wrong = bar(_run(dev=0.6), METRIC, _records())  # the items give 0.5, the run logged 0.6
    assert wrong.ci is None and wrong.missing == NOT_REPRODUCED and wrong.value == 0.6
    assert bar(_run(heldout="[]"), HELDOUT, _records()).missing == NO_HELDOUT
    unlogged = RunRecord("u", "locomo_temporal", "FINISHED", 1, {}, {}, {})
    assert bar(unlogged, METRIC, _records()) == bar(unlogged, HELDOUT, None)  # no metric: no bar at all
    assert bar(unlogged, METRIC, _records()).value is None


def test_heldout_conversations_are_read_from_the_logged_param() -> None:
    assert heldout_conversations(_run(heldout="['conv-41', 'conv-42']")) == ["conv-41", "conv-42"]
    assert heldout_conversations(_run(heldout="not a list")) is None


def _segments(ax) -> list[tuple[float, float, float]]:
    """(x, bottom, top) of every vertical error-bar segment drawn on ``ax``."""
    out = []
    for container in ax.containers:
        if type(container).__name__ == "ErrorbarContainer":
            for segment in container.lines[2][0].get_segments():
                out.append((float(segment[0][0]), float(segment[0][1]), float(segment[1][1])))
    return sorted(out)


def test_a_run_without_items_draws_no_error_bar() -> None:
    labels = ["rules / hybrid", "none / hybrid"]
    with_items = (bar(_run(), METRIC, _records()), bar(_run(), HELDOUT, _records()))
    without = (bar(_run("r2"), METRIC, None), bar(_run("r2"), HELDOUT, None))
    fig = draw(labels, [with_items, without])
    ax = fig.axes[0]
    segments = _segments(ax)
    assert len(segments) == 2 and all(x < 0.5 for x, _, _ in segments)  # only the first run's two bars
    expected = sorted([(-0.2, *(100 * v for v in with_items[0].ci)), (0.2, *(100 * v for v in with_items[1].ci))])
    assert [v for s in segments for v in s] == pytest.approx([v for s in expected for v in s])
    hatched = [p.get_x() + p.get_width() / 2 for p in ax.patches if p.get_hatch()]
    assert sorted(hatched) == pytest.approx([0.8, 1.2])  # the second run's bars are marked as without interval
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "95% bootstrap interval" in legend and "no interval (see caption)" in legend
    assert ax.get_ylabel().endswith("(%)") and ax.get_title() and ax.get_xlabel()
    text = caption(labels, [with_items, without])
    assert f"none / hybrid, dev file ({NO_ARTIFACT})" in text and "rules / hybrid," not in text
    fig.clf()


def test_the_figure_file_is_written(tmp_path) -> None:
    pair = (bar(_run(), METRIC, _records()), bar(_run(), HELDOUT, _records()))
    path = tmp_path / "locomo_sweep.png"
    note = plot(["rules / hybrid"], [pair], path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000
    assert note.endswith("Every bar has one.") and not math.isnan(pair[0].ci[0])


def test_bars_are_read_from_each_runs_predictions_artifact(tmp_path, monkeypatch) -> None:
    import json

    from memlab.reports.locomo_sweep import read_bars
    from memlab.tracking import query

    stored = tmp_path / "r1.jsonl"
    stored.write_text("".join(json.dumps(r) + "\n" for r in _records()), encoding="utf-8")
    monkeypatch.setattr(query, "read_artifact", lambda run_id, *_: stored if run_id == "r1" else None)
    (dev, held), (dev2, held2) = read_bars([_run("r1"), _run("r2")], None)
    assert dev.ci == bootstrap_ci(DEV, resamples=2000, seed=0) and held.ci == bootstrap_ci(HELD, resamples=2000, seed=0)
    assert dev2.missing == held2.missing == NO_ARTIFACT and dev2.ci is None
