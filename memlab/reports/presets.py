"""``memlab report presets``: the source designs' presets and ``tuned`` side by side on every benchmark.

Reads the FINISHED runs of the MLflow experiment ``presets`` (the presets' ``experiment_name``), groups them
by benchmark and preset (the preset's name is the second of its ``tags``), and writes ``reports/presets.md``
and ``reports/presets.png``: per benchmark, each preset's main metric with a 95% bootstrap interval, the paired
difference of ``tuned`` against it, the headline metrics, the tier distribution, the injected or context
tokens and the latency per phase.

Intervals: where a metric is a mean over items (LoCoMo's date accuracy: one question each; the built-in
history's ``current_truth_at_1``: one question each) the bootstrap resamples the items, and the paired
difference resamples the items both runs answered (:mod:`memlab.reports.stats`); where it is not
(``supersession_f1`` over several generated histories) it resamples the seeds, pairing by seed.
"""

from __future__ import annotations

import argparse
import math
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlab.reports import items as it
from memlab.reports import stats
from memlab.reports.common import (
    add_partial_argument,
    check_output,
    finished_runs,
    kept_on_error,
    pyplot,
    require_runs,
    save,
    write_report,
)

EXPERIMENT = "presets"
BASELINE = "tuned"
#: Preset names in the order the tables list them.
ORDER = ("seed_git_notes_memory_nollm", "mycelic_nollm", "squidbot_nollm", "astra_nollm", "tuned")
TIERS = ("hot", "warm", "cold", "archived")


def preset_of(run: Any) -> str:
    """The preset a run used (``tags: [preset, <name>]``), or ``?``."""
    names = [t for t in run.tags.get("memlab.tags", "").split(",") if t and t != "preset"]
    return names[0] if names else "?"


def benchmark_of(run: Any) -> str:
    """The benchmark's name (``memlab.dataset`` = ``name@version``)."""
    return run.tags.get("memlab.dataset", "?").split("@")[0]


def seed_bootstrap(values: Sequence[float], resamples: int = 4000, seed: int = 0) -> tuple[float, float]:
    """95% percentile-bootstrap interval of the mean of per-seed values."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    means = v[rng.integers(0, v.size, size=(resamples, v.size))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


def predictions(run: Any, uri: str | None, folder: Path) -> list[dict[str, Any]]:
    """The run's ``predictions.jsonl`` records (empty when it has none)."""
    import json

    from memlab.reports.configs import read_artifact

    path = read_artifact(run.run_id, "predictions.jsonl", uri, folder)
    if path is None:
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def cell(point: float | None, lo: float | None = None, hi: float | None = None) -> str:
    """``0.512 [0.48, 0.55]`` (or ``–``)."""
    if point is None or (isinstance(point, float) and math.isnan(point)):
        return "–"
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return f"{point:.3f}"
    return f"{point:.3f} [{lo:.3f}, {hi:.3f}]"


def mean(runs: Sequence[Any], name: str) -> float | None:
    """Mean of a logged metric over runs (``None`` when no run logged it)."""
    values = [r.metrics[name] for r in runs if name in r.metrics]
    return float(np.mean(values)) if values else None


def main_rows(
    groups: Mapping[str, list[Any]], metric: str, uri: str | None, folder: Path
) -> tuple[list[str], dict[str, tuple[float, float, float]]]:
    """Table lines of one benchmark's main metric (with tuned's paired difference) and each preset's point/CI."""
    base = groups.get(BASELINE, [])
    per_item = all(len(runs) == 1 for runs in groups.values())
    lines = [f"| preset | {metric} (95% CI) | tuned − preset (95% CI) | p |", "|---|---|---|---|"]
    points: dict[str, tuple[float, float, float]] = {}
    base_items = None
    if per_item and base:
        base_items = it.item_values(predictions(base[0], uri, folder), metric, base[0].metrics.get(metric))
    base_seeds = {r.params.get("seed"): r.metrics.get(metric) for r in base}
    for name in [n for n in ORDER if n in groups] + sorted(set(groups) - set(ORDER)):
        runs = groups[name]
        diff = "–"
        p_value = "–"
        if per_item:
            values = it.item_values(predictions(runs[0], uri, folder), metric, runs[0].metrics.get(metric))
            point = runs[0].metrics.get(metric, float("nan"))
            lo, hi = (
                stats.bootstrap_ci([v for v, _ in values.values()], [w for _, w in values.values()])
                if values
                else (float("nan"), float("nan"))
            )
            if base_items and values and name != BASELINE:
                res = stats.paired_test(values, base_items)
                if res is not None:
                    diff = f"{res.diff:+.3f} [{res.ci_low:+.3f}, {res.ci_high:+.3f}]"
                    p_value = f"{res.p_value:.4f}"
        else:
            by_seed = {r.params.get("seed"): r.metrics.get(metric) for r in runs}
            values_seed = [v for v in by_seed.values() if v is not None]
            point = float(np.mean(values_seed)) if values_seed else float("nan")
            lo, hi = seed_bootstrap(values_seed)
            shared = [s for s in by_seed if s in base_seeds and by_seed[s] is not None and base_seeds[s] is not None]
            if shared and name != BASELINE:
                d = [base_seeds[s] - by_seed[s] for s in shared]
                dlo, dhi = seed_bootstrap(d)
                diff = f"{np.mean(d):+.3f} [{dlo:+.3f}, {dhi:+.3f}] ({len(shared)} seeds)"
        points[name] = (point, lo, hi)
        lines.append(f"| `{name}` | {cell(point, lo, hi)} | {diff} | {p_value} |")
    return lines, points


def detail_rows(groups: Mapping[str, list[Any]], headline: Sequence[str]) -> list[str]:
    """Headline metrics, tier fractions and latency per phase (means over runs)."""
    phases = sorted(
        {k[len("latency_") : -2] for runs in groups.values() for r in runs for k in r.metrics}
        - {"total", "consolidate"},
        key=str,
    )
    phases = [p for p in phases if all(f"latency_{p}_s" in r.metrics for runs in groups.values() for r in runs)]
    head = ["preset", *headline, *(f"{t} %" for t in TIERS), "latency total s", *(f"{p} s" for p in phases)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in [n for n in ORDER if n in groups] + sorted(set(groups) - set(ORDER)):
        runs = groups[name]
        cells = [f"`{name}`", *(cell(mean(runs, m)) for m in headline)]
        fractions = [mean(runs, f"tier_frac_{t}") for t in TIERS]  # None: no memories, undefined
        cells += ["–" if v is None else f"{100 * v:.1f}" for v in fractions]
        cells += [cell(mean(runs, "latency_total_s")), *(cell(mean(runs, f"latency_{p}_s")) for p in phases)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def figure(points: Mapping[str, Mapping[str, tuple[float, float, float]]], metrics: Mapping[str, str], path: Path):
    """One panel per benchmark: each preset's main metric with its interval."""
    plt = pyplot()
    fig, axes = plt.subplots(1, len(points), figsize=(5 * len(points), 4), squeeze=False)
    for ax, (bench, by_preset) in zip(axes[0], points.items(), strict=True):
        names = list(by_preset)
        vals = [by_preset[n][0] for n in names]
        err = [[max(0.0, v - by_preset[n][1]) for n, v in zip(names, vals, strict=True)],
               [max(0.0, by_preset[n][2] - v) for n, v in zip(names, vals, strict=True)]]  # fmt: skip
        ax.bar(range(len(names)), vals, yerr=err, capsize=4, color=["#4c72b0"] * (len(names) - 1) + ["#dd8452"])
        ax.set_xticks(range(len(names)), [n.replace("_nollm", "") for n in names], rotation=30, ha="right")
        ax.set_title(bench)
        ax.set_ylabel(metrics[bench])
        ax.set_ylim(0, 1)
    fig.suptitle("presets: main metric per benchmark (95% bootstrap intervals)")
    fig.tight_layout()
    return save(fig, path)


def render(runs: Sequence[Any], uri: str | None, out: Path) -> str:
    """The report's Markdown (and its figure beside ``out``)."""
    from memlab.build import resolve_target

    benches: dict[str, dict[str, list[Any]]] = {}
    for run in runs:
        benches.setdefault(benchmark_of(run), {}).setdefault(preset_of(run), []).append(run)
    lines = [
        "# Presets: the source designs against `tuned`",
        "",
        "Generated by `memlab report presets` from the MLflow experiment `presets`. Commands:",
        "",
        "```bash",
        "P=seed_git_notes_memory_nollm,mycelic_nollm,squidbot_nollm,astra_nollm,tuned",
        "python -m memlab --multirun +experiment=$P dataset=builtin_history",
        "python -m memlab --multirun +experiment=$P dataset=project_history seed=0,1,2,3,4",
        "python -m memlab --multirun +experiment=$P dataset=locomo",
        "memlab report presets",
        "```",
        "",
        "`tuned` was chosen on development data only (generator seeds 1020-1022, LoCoMo conv-26/30); these are",
        "evaluation seeds 0-4 and the whole LoCoMo dev file, conv-26/30 included (the held-out LoCoMo estimate is the",
        "leave-one-conversation-out figure of experiments/locomo_temporal). What each preset renders, and what it",
        "could not: experiments/presets/README.md.",
        "",
    ]
    points: dict[str, dict[str, tuple[float, float, float]]] = {}
    metrics: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for bench in sorted(benches):
            groups = benches[bench]
            any_run = next(iter(groups.values()))[0]
            metric = any_run.tags.get("memlab.main_metric", "")
            headline = [m for m in any_run.tags.get("memlab.headline", "").split(",") if m]
            target = any_run.params.get("dataset._target_")
            card = getattr(resolve_target(target, "dataset"), "card", None) if target else None
            seeds = sorted({r.params.get("seed", "?") for rs in groups.values() for r in rs}, key=str)
            lines += [f"## {bench}", ""]
            if card is not None:
                lines += [f"{card.description}. Seeds: {', '.join(seeds)}.", ""]
            table, points[bench] = main_rows(groups, metric, uri, Path(tmp))
            metrics[bench] = metric
            lines += [*table, "", *detail_rows(groups, headline), ""]
    png = figure(points, metrics, out.with_suffix(".png"))
    lines += [f"![main metric per benchmark]({png.name})", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write reports/presets.md and reports/presets.png."""
    from memlab.paths import PROJECT_ROOT

    parser = argparse.ArgumentParser(prog="memlab report presets", description=__doc__.splitlines()[0])
    parser.add_argument("--uri", "--tracking-uri", default=None, help="MLflow tracking URI")
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "reports" / "presets.md")
    parser.add_argument("--force", action="store_true", help="overwrite an existing report")
    add_partial_argument(parser)
    args = parser.parse_args(list(argv or []))
    runs = [r for r in finished_runs(EXPERIMENT, args.uri) if "seed" in r.params]
    require_runs(runs, [EXPERIMENT], args.uri)
    check_output([args.out, args.out.with_suffix(".png")], args.force)
    with kept_on_error([args.out.with_suffix(".png")]):
        text = render(runs, args.uri, args.out)
        write_report(args.out, text, [r.run_id for r in runs], partial=args.partial, uri=args.uri)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
