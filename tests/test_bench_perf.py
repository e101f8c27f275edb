"""`memlab bench`: the episode suite's aggregation and report, and a tiny run of the command (issue 19)."""

from __future__ import annotations

import argparse
import json

import pytest

from memlab.commands import bench
from memlab.perf.report import write_report
from memlab.perf.suite import aggregate, exponents, growth_exponent, spread


def test_growth_exponent_of_a_power_law_is_its_power():
    sizes = [1000, 10000, 100000]
    assert growth_exponent(sizes, [2.0 * s**1.5 for s in sizes]) == pytest.approx(1.5)
    assert growth_exponent(sizes, [3.0, 3.0, 3.0]) == pytest.approx(0.0)
    assert growth_exponent([1000], [1.0]) is None
    assert growth_exponent([10, 100], [0.0, 1.0]) is None  # a zero time has no logarithm


def _record(size: int, seconds: float, rep: int) -> dict:
    return {
        "spec": {"size": size, "cold": False},
        "memories": size,
        "distinct_texts": size,
        "queries": 3,
        "runs": 1,
        "pairs_judged": 2 * size,
        "quality": {"supersession_f1": 0.5},
        "peak_rss_mib": 100.0 + rep,
        "loadavg_start": 1.0,
        "loadavg_end": 2.0,
        "episode_wall_s": seconds + rep,
        "episode_cpu_s": seconds,
        "phases": {"scan": seconds / 2, "recall": seconds / 4},
    }


def test_aggregate_takes_medians_and_the_largest_rss(tmp_path):
    point = aggregate([_record(1000, 1.0, r) for r in range(3)])
    assert point["episode_wall_s"] == spread([1.0, 2.0, 3.0]) == {"median": 2.0, "min": 1.0, "max": 3.0, "n": 3.0}
    assert point["peak_rss_mib"] == 102.0
    points = [aggregate([_record(s, s / 1000, 0)]) for s in (1000, 10000)]
    exp = exponents(points)
    assert exp["episode_cpu"]["all"] == pytest.approx(1.0) and exp["scan"]["last_two"] == pytest.approx(1.0)
    section = {"experiment": "x", "overrides": [], "cached": points, "cold": [], "exponents": exp}
    out = write_report({"episode": section}, tmp_path / "perf.md", tmp_path / "perf.png")
    text = out.read_text()
    assert "| 10,000 | cached |" in text and "| scan |" in text and (tmp_path / "perf.png").is_file()


def test_aggregate_keeps_the_incremental_step_timed_in_the_first_repeat_only():
    records = [_record(1000, 1.0, r) for r in range(2)]
    records[0].update(delta_memories=10.0, delta_wall_s=0.5, delta_cpu_s=0.4, delta_pairs_judged=7.0)
    point = aggregate(records)
    assert point["delta_wall_s"] == {"median": 0.5, "min": 0.5, "max": 0.5, "n": 1.0}
    assert point["delta_cpu_s"]["median"] == 0.4 and point["delta_pairs_judged"] == 7.0


@pytest.mark.slow  # over 4 s: runs with the slow suite (make test-slow, CI)
def test_bench_episode_command_writes_results_and_report(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    args = parser.parse_args(
        [
            "episode",
            "--sizes",
            "30,60",
            "--repeats",
            "1",
            "--delta",
            "0.1",
            "--override",
            "dataset.difficulty=easy",
            "--results",
            str(tmp_path / "perf.json"),
            "--report-dir",
            str(tmp_path),
        ]
    )
    assert bench.run(args) == 0
    data = json.loads((tmp_path / "perf.json").read_text())
    points = data["episode"]["cached"]
    assert [p["size"] for p in points] == [30, 60]
    assert 0.0 <= points[0]["quality"]["supersession_f1"] <= 1.0
    assert points[1]["delta_memories"] == 6.0 and "delta_cpu_s" in points[1]
    report = (tmp_path / "perf.md").read_text()
    assert "## Episode" in report and "Incremental consolidation" in report
    assert (tmp_path / "perf.png").is_file()


def test_bench_refuses_bad_sizes():
    from memlab.core.errors import MemlabError

    with pytest.raises(MemlabError, match="comma-separated integers"):
        bench._ints("10k")
