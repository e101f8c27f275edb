"""memlab report budgets on a tiny synthetic MLflow store: tables at each budget, Pareto front, distinguishability."""

from __future__ import annotations

import json

import pytest

from memlab.reports import budgets
from memlab.tracking.mlflow_tracker import MlflowTracker


def log(
    uri: str,
    folder,
    policy: str,
    budget: int,
    correct: list[int],
    tokens: float,
    seed: int = 0,
    extra: dict[str, float] | None = None,
) -> str:
    """One FINISHED run of ``policy`` at ``budget`` whose predictions hold ``correct`` (current questions)."""
    folder.mkdir(parents=True, exist_ok=True)
    records = [{"query_id": f"q{i}", "kind": "current", "correct": float(c)} for i, c in enumerate(correct)]
    (folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    tags = {
        "memlab.main_metric": "current_truth_at_1",
        "memlab.dataset": "builtin_history@1",
        "memlab.tags": f"preset,{policy}",
    }
    tracker = MlflowTracker(uri, "presets")
    run_id = tracker.start(policy, {"pipeline.budget_tokens": budget, "seed": seed}, tags)
    value = sum(correct) / len(correct)
    tracker.log_metrics(
        {"current_truth_at_1": value, "context_tokens": tokens, "injected_tokens": 3 * tokens, **(extra or {})}
    )
    tracker.log_artifacts(folder)
    tracker.finish("FINISHED")
    return run_id


def test_pareto_front_keeps_only_undominated_points() -> None:
    xy = [(100.0, 0.5), (200.0, 0.5), (300.0, 0.8), (150.0, 0.2), (300.0, 0.7)]
    assert budgets.pareto_front(xy) == [0, 2]


@pytest.mark.slow  # about 2-4 s: with the slow suite (CI runs it)
def test_budgets_report_tables_front_and_distinguishability(tmp_path) -> None:
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    n = 20
    for budget, tokens in ((250, 240.0), (1000, 900.0)):
        log(uri, tmp_path / f"s{budget}", "seed_git_notes_memory_nollm", budget, [1] * 2 + [0] * (n - 2), tokens)
        log(uri, tmp_path / f"t{budget}", "tuned", budget, [1] * 18 + [0] * 2, tokens + 10)
        log(uri, tmp_path / f"a{budget}", "astra_nollm", budget, [1] * 17 + [0] * 3, tokens - 5)
    out = tmp_path / "budgets.md"
    assert budgets.main(["--uri", uri, "--out", str(out)]) == 0
    text = out.read_text()
    assert "### budget 250 tokens" in text and "### budget 1000 tokens" in text
    seed_row = next(li for li in text.splitlines() if li.startswith("| `seed_git_notes_memory_nollm` | 0.100"))
    assert "| 240 | 720 |" in seed_row and "+0.800" in seed_row and seed_row.endswith("| yes |")  # 16 of 20 items flip
    astra_row = next(li for li in text.splitlines() if li.startswith("| `astra_nollm` | 0.850"))
    assert astra_row.endswith("| no |")  # one item apart: not distinguishable
    assert (
        "Pareto front (tokens the reader read, metric): `astra_nollm`@250 (235 tokens, 0.850), `tuned`@250 (250 "
        "tokens, 0.900)" in text
    )
    assert "no front against them" in text  # no LLM dollars or latency logged
    assert (tmp_path / "budgets.png").is_file()


@pytest.mark.slow  # about 2-4 s: with the slow suite (CI runs it)
def test_a_benchmark_named_in_per_benchmark_is_compared_on_that_metric(tmp_path) -> None:
    from memlab.reports.common import finished_runs

    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    log(uri, tmp_path / "s", "seed_git_notes_memory_nollm", 250, [1, 0, 0, 0], 100.0, extra={"other": 0.9})
    log(uri, tmp_path / "t", "tuned", 250, [1, 1, 1, 0], 100.0, extra={"other": 0.1})
    runs = finished_runs("presets", uri)
    _, declared = budgets.grids_by_benchmark(runs, uri)
    grids, chosen = budgets.grids_by_benchmark(runs, uri, per_benchmark={"builtin_history": "other"})
    assert declared == {"builtin_history": "current_truth_at_1"} and chosen == {"builtin_history": "other"}
    assert grids["builtin_history"][250]["tuned"].value == pytest.approx(0.1)  # no items: the run's own value
    _, overridden = budgets.grids_by_benchmark(runs, uri, "current_truth_at_1", {"builtin_history": "other"})
    assert overridden == {"builtin_history": "current_truth_at_1"}  # an explicit metric wins


def test_fronts_against_llm_dollars_and_latency_where_runs_logged_them() -> None:
    cheap = budgets.Point("seed", 250, [], value=0.5, tokens=100.0, costs={"llm_cost_usd": 0.02})
    dear = budgets.Point("tuned", 250, [], value=0.9, tokens=400.0, costs={"llm_cost_usd": 0.5})
    worse = budgets.Point("astra", 250, [], value=0.4, tokens=90.0, costs={"llm_cost_usd": 0.6})
    text = " ".join(budgets.front_lines({250: {"seed": cheap, "tuned": dear, "astra": worse}}))
    assert "Pareto front (LLM dollars, metric): `seed`@250 (0.02, 0.500), `tuned`@250 (0.5, 0.900)." in text
    assert "`astra`@250 (90 tokens, 0.400)" in text  # on the token front it is the cheapest
    assert "LLM latency" not in text and "no front against them" not in text


def test_budgets_report_without_runs_is_one_line(tmp_path) -> None:
    from memlab.core.errors import MemlabError

    with pytest.raises(MemlabError, match="no FINISHED runs"):
        budgets.main(["--uri", f"sqlite:///{tmp_path / 'e.db'}", "--out", str(tmp_path / "b.md")])
