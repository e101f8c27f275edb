"""``memlab report temporal``: temporal resolvers on every temporal set, and on generated conversations.

Reads the MLflow runs of ``temporal_norm`` (every resolver and variant on each set: ``dataset.corpus`` =
duckling, tbaq, ...) and ``locomo_synth`` (LoCoMo-style conversations with exact gold) via
:mod:`memlab.tracking.query` and writes ``reports/temporal.md``: one table with every set side by side (accuracy
with its 95% bootstrap interval), each set's dev and held-out halves, speed against ``dateparser`` on the same
set, and accuracy per grain. A *variant* is a resolver plus the parameters it was run with that differ between
runs (e.g. ``mode=parse``, ``context=phrase``); the newest run per variant and set is kept, among runs of the
newest benchmark version. Speed ratios are against the newest ``dateparser`` run in its default ``search`` mode
and context on the same set (``search`` is the only mode that, like the resolver protocol, finds expressions
inside running text). Nothing in the output is typed by hand.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from memlab.reports.common import ci_cell, fmt, newest, table

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


def corpus(run) -> str:
    """The set a ``temporal_norm`` run measured (``dataset.corpus``; runs from before the knob: by file name)."""
    if run.params.get("dataset.corpus"):
        return run.params["dataset.corpus"]
    return "tbaq" if "tempeval3" in run.params.get("dataset.path", "") else "duckling"


def variants(runs: Sequence) -> dict[str, str]:
    """A label per run id: the resolver, plus the ``temporal.*``/``dataset.include_*``/``dataset.context`` params
    that vary between runs of the same resolver.
    """
    keys = sorted(
        {
            k
            for r in runs
            for k in r.params
            if k.startswith("temporal.") or k.startswith("dataset.include_") or k == "dataset.context"
        }
        - {"temporal._target_"}
    )
    labels = {}
    for r in runs:
        same = [o for o in runs if resolver(o) == resolver(r)]
        varying = [k for k in keys if len({o.params.get(k) for o in same}) > 1]
        extra = [f"{k.split('.', 1)[1]}={r.params[k]}" for k in varying if r.params.get(k) is not None]
        labels[r.run_id] = f"{resolver(r)} ({', '.join(extra)})" if extra else resolver(r)
    return labels


def _latest_version(runs: Sequence) -> list:
    """Runs of the newest ``temporal_norm`` version present (older versions scored differently)."""
    version = max((r.tags.get("memlab.dataset", "") for r in runs), default="", key=lambda v: (len(v), v))
    return [r for r in runs if r.tags.get("memlab.dataset", "") == version]


def _baseline(best: dict, run, corpus_name: str):  # type: ignore[no-untyped-def]
    """The newest ``dateparser`` run in ``search`` mode on the same set with the same ``dataset.context``."""
    for (_, c), r in best.items():
        same = r.params.get("dataset.context") == run.params.get("dataset.context")
        if (
            c == corpus_name
            and resolver(r) == "dateparser"
            and r.params.get("temporal.mode", "search") == "search"
            and same
        ):
            return r
    return None


def norm_section(runs: Sequence) -> list[str]:
    """Markdown of the ``temporal_norm`` sections: all sets side by side, halves, speed, grains."""
    if not runs:
        return [
            "No `temporal_norm` runs found: run `python -m memlab --multirun +experiment=temporal_norm "
            "temporal=rules,dateparser,pattern_table,none`.",
            "",
        ]
    runs = _latest_version(runs)
    labels = variants(runs)
    best = newest(runs, lambda r: (labels[r.run_id], corpus(r)))
    sets = sorted({c for _, c in best}, key=lambda c: (c != "duckling", c))
    names = sorted(
        {label for label, _ in best}, key=lambda n: (n.split()[0] != "rules", n.split()[0] != "dateparser", n)
    )
    lines = [
        "## Every temporal set side by side (`temporal_norm`)",
        "",
        "Accuracy = exactly the gold interval, over each set's default records (Duckling: 725 phrases without "
        "holidays and latent inputs; TBAQ: 1,167 news expressions resolved inside their sentences); "
        "`acc_supported` counts only the records the resolver claims. [95% bootstrap interval, 1,000 resamples.]",
        "",
    ]
    head = ["resolver", *[f"{c} acc" for c in sets], *[f"{c} acc_supported" for c in sets]]
    rows = []
    for name in names:
        row = [name]
        row += [ci_cell(best[(name, c)], "resolver_acc", 3) if (name, c) in best else "–" for c in sets]
        row += [ci_cell(best[(name, c)], "resolver_acc_supported", 3) if (name, c) in best else "–" for c in sets]
        rows.append(row)
    lines += [*table(head, rows), ""]
    return [*lines, *halves_lines(best, sets, names), *speed_lines(best, sets, names), *grain_lines(best, sets, names)]


def halves_lines(best: dict, sets: Sequence[str], names: Sequence[str]) -> list[str]:
    """The dev and held-out halves of every resolver on every set (``best``: the newest run per label and set)."""
    lines = [
        "### Dev and held-out halves",
        "",
        "Fixed hash halves (Duckling by phrase, TBAQ by document group = source and date; "
        "`memlab/data/temporal_norm/data.py`). Rules were tuned by reading dev errors only.",
        "",
    ]
    head = [
        "resolver",
        "set",
        "acc dev",
        "acc held-out",
        "acc_supported dev",
        "acc_supported held-out",
        "n dev / held-out",
    ]
    rows = []
    for c in sets:
        for name in names:
            r = best.get((name, c))
            if r is None:
                continue
            n = f"{r.metrics.get('n_evaluated_dev', 0):.0f} / {r.metrics.get('n_evaluated_heldout', 0):.0f}"
            halves = [ci_cell(r, f"resolver_acc{s}_{h}", 3) for s in ("", "_supported") for h in ("dev", "heldout")]
            rows.append([name, c, *halves, n])
    return [*lines, *table(head, rows), ""]


def speed_lines(best: dict, sets: Sequence[str], names: Sequence[str]) -> list[str]:
    """µs per record of every resolver on every set, and its speed-up over ``dateparser``."""
    lines = [
        "### Speed",
        "",
        "µs per record = CPU time of the resolving thread per call (the fastest of the benchmark's timing passes); "
        "the ratio is against `dateparser` on the same set and context. Timings on a shared machine.",
        "",
    ]
    head = ["resolver", *[f"{c} µs/record" for c in sets], *[f"{c} × faster than dateparser" for c in sets], "runs"]
    rows = []
    for name in names:
        row = [name]
        ratios = []
        for c in sets:
            r = best.get((name, c))
            row.append(fmt(r.metrics.get("resolver_us_per_expr") if r else None, 1))
            base = _baseline(best, r, c) if r else None
            us = r.metrics.get("resolver_us_per_expr") if r else None
            base_us = base.metrics.get("resolver_us_per_expr") if base else None
            ratios.append(fmt(base_us / us, 1) if base_us and us else "–")
        ids = ", ".join(f"`{best[(name, c)].run_id[:8]}`" for c in sets if (name, c) in best)
        rows.append([*row, *ratios, ids])
    return [*lines, *table(head, rows), ""]


def grain_lines(best: dict, sets: Sequence[str], names: Sequence[str]) -> list[str]:
    """Accuracy per expected grain of every resolver on every set."""
    lines = ["### Accuracy per expected grain", ""]
    head = ["resolver", "set", *GRAINS]
    rows = [
        [name, c, *[fmt(best[(name, c)].metrics.get(f"resolver_acc_{g}")) for g in GRAINS]]
        for c in sets
        for name in names
        if (name, c) in best
    ]
    return [*lines, *table(head, rows), ""]


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

    def rank(name: str) -> float:  # best mean first; a resolver with no defined value last
        values = [r.metrics["synth_date_acc"] for r in by_resolver[name] if "synth_date_acc" in r.metrics]
        return -statistics.fmean(values) if values else float("inf")

    order = sorted(by_resolver, key=rank)
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
    kinds = [
        k for k in SYNTH_KINDS if any(f"synth_date_acc_{k}" in r.metrics for rs in by_resolver.values() for r in rs)
    ]
    rows = [[kind, *[stat(by_resolver[n], f"synth_date_acc_{kind}") for n in order]] for kind in kinds]
    return [*lines, *table(["kind", *order], rows), ""]


def render(norm_runs: Sequence, synth_runs: Sequence) -> str:
    """The whole report as markdown."""
    lines = [
        "# Temporal resolvers: every temporal set and generated conversations",
        "",
        "Generated by `memlab report temporal` from MLflow runs (experiments `temporal_norm`, `locomo_synth`); "
        "do not edit by hand.",
        "",
        *norm_section(norm_runs),
        *synth_section(synth_runs),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Write the report; returns 0."""
    from memlab.reports.common import check_output, finished_runs, report_parser, require_runs, write_report

    parser = report_parser("temporal", __doc__)
    parser.add_argument("--norm-experiment", default="temporal_norm")
    parser.add_argument("--synth-experiment", default="locomo_synth")
    args = parser.parse_args(argv)

    norm, synth = (
        [r for r in finished_runs(experiment, args.uri) if dataset in r.tags.get("memlab.dataset", "")]
        for experiment, dataset in ((args.norm_experiment, "temporal_norm"), (args.synth_experiment, "locomo_synth"))
    )
    require_runs([*norm, *synth], [args.norm_experiment, args.synth_experiment], args.uri)
    check_output([args.out], args.force)
    ids = [r.run_id for r in (*norm, *synth)]
    write_report(args.out, render(norm, synth), ids, partial=args.partial, uri=args.uri)
    print(f"wrote {args.out} ({len(norm)} temporal_norm runs, {len(synth)} locomo_synth runs)")
    return 0
