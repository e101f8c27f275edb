"""``memlab report temporal``: temporal resolvers on Duckling phrases and on generated conversations.

Reads the MLflow runs of ``temporal_norm`` (every resolver and variant on Duckling's English time phrases)
and ``locomo_synth`` (LoCoMo-style conversations with exact gold) via :mod:`memlab.tracking.query` and
writes ``reports/temporal.md``. A *variant* is a resolver plus the parameters it was run with that differ
between runs (e.g. ``mode=parse``); the newest run per variant (per seed for ``locomo_synth``) is kept.
Speed ratios are against the newest ``dateparser`` run in its default ``search`` mode, the only mode that,
like the resolver protocol, finds expressions inside running text. Nothing in the output is typed by hand.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence
from pathlib import Path

from memlab.paths import PROJECT_ROOT

NORM_COLUMNS: tuple[tuple[str, str], ...] = (
    ("resolver_acc", "acc"),
    ("resolver_acc_supported", "acc_supported"),
    ("resolver_coverage", "coverage"),
    ("resolver_acc_supported_dev", "acc_sup dev"),
    ("resolver_acc_supported_heldout", "acc_sup held-out"),
    ("resolver_acc_supported_all", "acc_sup all 1,006"),
    ("resolver_us_per_expr", "µs/phrase"),
)
GRAINS: tuple[str, ...] = ("second", "minute", "hour", "day", "week", "month", "quarter", "year")
SYNTH_KINDS: tuple[str, ...] = (
    "today",
    "yesterday",
    "days_ago",
    "last_weekday",
    "explicit",
    "last_week",
    "weeks_ago",
    "week_before_date",
    "last_weekend",
    "last_month",
    "months_ago",
    "month_name",
    "next_month",
    "last_summer",
    "last_year",
    "years_ago",
)


def resolver(run) -> str:
    """The run's resolver option name (``rules``, ``dateparser``, ...)."""
    return run.tags.get("memlab.strategy.temporal", "?").split("@")[0]


def variants(runs: Sequence) -> dict[str, str]:
    """A label per run id: the resolver, plus the ``temporal.*``/``dataset.include_*`` params that vary."""
    keys = sorted(
        {k for r in runs for k in r.params if k.startswith("temporal.") or k.startswith("dataset.include_")}
        - {"temporal._target_"}
    )
    varying = [k for k in keys if len({r.params.get(k) for r in runs if r.params.get(k) is not None}) > 1]
    labels = {}
    for r in runs:
        extra = [f"{k.split('.', 1)[1]}={r.params[k]}" for k in varying if r.params.get(k) is not None]
        labels[r.run_id] = f"{resolver(r)} ({', '.join(extra)})" if extra else resolver(r)
    return labels


def newest(runs: Sequence, key) -> dict[object, object]:
    """The newest run per ``key(run)``."""
    out: dict[object, object] = {}
    for run in sorted(runs, key=lambda r: r.start_time):
        out[key(run)] = run
    return out


def _fmt(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def norm_section(runs: Sequence) -> list[str]:
    """Markdown of the Duckling section."""
    if not runs:
        return [
            "No `temporal_norm` runs found: run `python -m memlab --multirun +experiment=temporal_norm "
            "temporal=rules,pattern_table,dateparser,none`.",
            "",
        ]
    labels = variants(runs)
    best = newest(runs, lambda r: labels[r.run_id])
    baseline = next(
        (r for label, r in sorted(best.items(), key=lambda kv: -kv[1].start_time) if label == "dateparser"),
        None,
    )
    base_us = baseline.metrics.get("resolver_us_per_expr") if baseline else None
    order = sorted(best, key=lambda label: -best[label].metrics.get("resolver_acc_supported", 0.0))
    head = ["resolver", *[name for _, name in NORM_COLUMNS], "× faster than dateparser", "run"]
    lines = [
        "## Duckling English time phrases (`temporal_norm`)",
        "",
        "Default set of 725 phrases (holidays, latent inputs and unrepresentable dates left out; `all 1,006` "
        "includes them). `acc_supported` counts only phrases the resolver claims; `dev` / `held-out` are the "
        "fixed hash halves of the default set (see experiments/temporal_norm/README.md for what was tuned on "
        "which). µs/phrase is the CPU time of the resolving thread per phrase.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for label in order:
        r = best[label]
        cells = [label]
        for metric, _ in NORM_COLUMNS:
            cells.append(_fmt(r.metrics.get(metric), 1 if metric.endswith("_us_per_expr") else 3))
        us = r.metrics.get("resolver_us_per_expr")
        cells.append(_fmt(base_us / us, 1) if base_us and us else "–")
        cells.append(f"`{r.run_id[:8]}`")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Accuracy per expected grain (default set):", ""]
    head = ["resolver", *GRAINS]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label in order:
        r = best[label]
        lines.append("| " + " | ".join([label, *[_fmt(r.metrics.get(f"resolver_acc_{g}")) for g in GRAINS]]) + " |")
    return [*lines, ""]


def synth_section(runs: Sequence) -> list[str]:
    """Markdown of the generated-conversations section (mean ± sd over seeds)."""
    if not runs:
        return [
            "No `locomo_synth` runs found: run `python -m memlab --multirun dataset=locomo_synth "
            "temporal=rules,pattern_table,none seed=0,1,2 experiment_name=locomo_synth`.",
            "",
        ]
    per = newest(runs, lambda r: (resolver(r), r.params.get("seed", "0")))
    by_resolver: dict[str, list] = {}
    for (name, _), run in sorted(per.items()):
        by_resolver.setdefault(name, []).append(run)

    def stat(rs: Sequence, metric: str) -> str:
        values = [r.metrics[metric] for r in rs if metric in r.metrics]
        if not values:
            return "–"
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        return f"{statistics.fmean(values):.3f} ± {sd:.3f}"

    order = sorted(
        by_resolver, key=lambda n: -statistics.fmean(r.metrics.get("synth_date_acc", 0) for r in by_resolver[n])
    )
    lines = [
        "## LoCoMo-style generated conversations (`locomo_synth`)",
        "",
        "Temporal questions with exact gold intervals, answered by the LoCoMo benchmark's no-LLM answerer; "
        "mean ± sd over seeds (newest run per seed).",
        "",
        "| resolver | seeds | synth_date_acc | distracted | undistracted | runs |",
        "|---|---|---|---|---|---|",
    ]
    for name in order:
        rs = by_resolver[name]
        seeds = ",".join(r.params.get("seed", "0") for r in rs)
        ids = ", ".join(f"`{r.run_id[:8]}`" for r in rs)
        lines.append(
            f"| {name} | {seeds} | {stat(rs, 'synth_date_acc')} | {stat(rs, 'synth_date_acc_distracted')} | "
            f"{stat(rs, 'synth_date_acc_undistracted')} | {ids} |"
        )
    lines += ["", "Per expression kind (mean over seeds):", ""]
    head = ["kind", *order]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for kind in SYNTH_KINDS:
        metric = f"synth_date_acc_{kind}"
        if any(metric in r.metrics for rs in by_resolver.values() for r in rs):
            lines.append("| " + " | ".join([kind, *[stat(by_resolver[n], metric) for n in order]]) + " |")
    return [*lines, ""]


def render(norm_runs: Sequence, synth_runs: Sequence) -> str:
    """The whole report as markdown."""
    lines = [
        "# Temporal resolvers: Duckling phrases and generated conversations",
        "",
        "Generated by `memlab report temporal` from MLflow runs (experiments `temporal_norm`, `locomo_synth`); "
        "do not edit by hand.",
        "",
        *norm_section(norm_runs),
        *synth_section(synth_runs),
    ]
    return "\n".join(lines)


def _runs(experiment: str, uri: str | None) -> list:
    """Finished runs of ``experiment``; none when the experiment does not exist yet (the section says so)."""
    from memlab.errors import MemlabError
    from memlab.tracking.query import find_runs

    try:
        return find_runs(experiment, uri)
    except MemlabError:
        return []


def main(argv: list[str] | None = None) -> int:
    """Write the report; returns 0."""
    parser = argparse.ArgumentParser(prog="memlab report temporal", description=__doc__.splitlines()[0])
    parser.add_argument("--uri", default=None, help="MLflow tracking URI (default: the project's sqlite store)")
    parser.add_argument("--out", default=str(PROJECT_ROOT / "reports" / "temporal.md"))
    parser.add_argument("--norm-experiment", default="temporal_norm")
    parser.add_argument("--synth-experiment", default="locomo_synth")
    args = parser.parse_args(argv)
    norm = [r for r in _runs(args.norm_experiment, args.uri) if "temporal_norm" in r.tags.get("memlab.dataset", "")]
    synth = [r for r in _runs(args.synth_experiment, args.uri) if "locomo_synth" in r.tags.get("memlab.dataset", "")]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(norm, synth) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(norm)} temporal_norm runs, {len(synth)} locomo_synth runs)")
    return 0
