"""``memlab report presets``: the source designs' presets and ``tuned`` side by side on every benchmark.

Reads the FINISHED runs of the MLflow experiment ``presets`` (the presets' ``experiment_name``), groups them by
benchmark, budget (``pipeline.budget_tokens``) and preset (the preset's name is the second of its ``tags``), and
writes ``reports/presets.md`` and ``reports/presets.png``: per benchmark and budget, each preset's main metric with a
95% bootstrap interval, the tokens its reader read and its block, the paired difference of ``tuned`` against it and
whether it is distinguishable (:mod:`memlab.reports.budgets`); the Pareto front and a figure of the main metric
against the tokens the reader read; at the largest budget, the headline metrics, the tier distribution and the latency
per phase, ``tuned`` against the best preset, and which groups carry that difference where attribution runs exist
(:data:`ATTRIBUTIONS`). A benchmark whose main metric is 0 by construction for some designs is compared on a metric
every design can score on (:data:`COMPARED`).

Intervals: where a metric is a mean over items (LoCoMo's date accuracy and the history benchmarks' ``reader_acc``:
one question each, seeds pooled) the bootstrap resamples the items, and the paired difference resamples the items
both runs answered (:mod:`memlab.benchmarks.stats`); where it is not (e.g. ``supersession_f1``) it resamples the
seeds, pairing by seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab.benchmarks.stats import paired_test
from memlab.reports import budgets as bg
from memlab.reports import configs as cf
from memlab.reports import preset_mechanisms, sensitivity
from memlab.reports.budgets import cell
from memlab.reports.common import (
    check_output,
    finished_runs,
    kept_on_error,
    report_parser,
    require_runs,
    table,
    write_report,
)
from memlab.reports.configs import TIERS
from memlab.reports.configs import mean_metric as mean

BASELINE = bg.BASELINE
#: Benchmark -> the experiment of the runs attributing `tuned` − a preset to groups, the baseline in words, their
#: command, and a note on the baseline.
ATTRIBUTIONS: dict[str, tuple[str, str, str, str]] = {
    "project_history": (
        "attribution_reader_ph",
        "`seed_git_notes_memory_nollm`",
        "`memlab report --experiment attribution_reader_ph --baseline '+experiment=seed_git_notes_memory_nollm "
        "dataset=project_history' --attribute '+experiment=tuned dataset=project_history' --max-groups 6`",
        "",
    ),
    "locomo": (
        "attribution_locomo_core",
        "`mycelic_nollm` with `tuned`'s summarizer, judge and selector",
        "`memlab report --experiment attribution_locomo_core --baseline '+experiment=mycelic_nollm dataset=locomo "
        "summarizer=extractive judge=cascade selector=current_facts selector.min_confidence=0.99 "
        "learned_supersede_threshold=0.2' --attribute '+experiment=tuned dataset=locomo' --max-groups 4`",
        "The baseline already has `tuned`'s summarizer, judge and selector: swapped one at a time in both "
        "directions on the presets themselves they move few answers (experiment `attribution_locomo`: `memlab report "
        "--experiment attribution_locomo --baseline '+experiment=mycelic_nollm dataset=locomo' --attribute "
        "'+experiment=tuned dataset=locomo' --max-groups 4`). With `pipeline` split into one group per knob, more "
        "groups differ than `--max-groups`, so the table shows one-at-a-time swaps and no Shapley values.",
    ),
}
#: Benchmarks compared on another metric than their main one, and why: a metric every design can score on.
COMPARED: dict[str, tuple[str, str]] = {
    "adr_decisions": (
        "current_truth_at_1",
        "asked about a superseded record, is the record that replaced it the first item of the policy's context; "
        "the benchmark's main metric, `supersession_f1`, is 0 by construction for a design without a judge "
        "(squidbot, Astra), and stays in the headline table; the extractive reader, which reads a value out of a "
        "statement, is no fair stand-in here (it answered 0.000 of the current and 0.015 of the as-of questions with "
        "the seed preset on the development split: a record's title is not a value it can read)",
    ),
}
#: What each benchmark's runs are, for the reader of the report (development data is said to be so).
DATA_NOTES: dict[str, str] = {
    "adr_decisions": "The 17 development repositories (`dataset.split=dev`: every ADR choice was made on them); "
    "the sealed third is not run here.",
    "ferrybook_history.json": "The hand-written ferrybook history (`dataset=ferrybook_history`): development "
    "data, the cascade judge's knobs in `tuned` were chosen on it.",
    "locomo": "The whole LoCoMo dev file; `tuned`'s retriever was tuned on conv-26/30 (its held-out figure: "
    "reports/locomo.md).",
}


def detail_rows(groups: Mapping[str, list[cf.RunData]], headline: Sequence[str]) -> list[str]:
    """Headline metrics, tier fractions and latency per phase (means over runs)."""
    phases = sorted(
        {k[len("latency_") : -2] for runs in groups.values() for r in runs for k in r.record.metrics}
        - {"total", "consolidate"},
        key=str,
    )
    phases = [p for p in phases if all(f"latency_{p}_s" in r.record.metrics for runs in groups.values() for r in runs)]
    head = ["preset", *headline, *(f"{t} %" for t in TIERS), "latency total s", *(f"{p} s" for p in phases)]
    rows = []
    for name in bg.ordered(list(groups)):
        runs = groups[name]
        cells = [f"`{name}`", *(cell(mean(runs, m)) for m in headline)]
        fractions = [mean(runs, f"tier_frac_{t}") for t in TIERS]  # None: no memories, undefined
        cells += ["–" if v is None else f"{100 * v:.1f}" for v in fractions]
        rows.append(
            [*cells, cell(mean(runs, "latency_total_s")), *(cell(mean(runs, f"latency_{p}_s")) for p in phases)]
        )
    return table(head, rows)


def attribution_lines(bench: str, metric: str, uri: str | None) -> list[str]:
    """Which groups carry ``tuned``'s difference on ``bench`` (from its attribution runs, when there are any)."""
    from memlab.reports import attribution_runs as ar

    if bench not in ATTRIBUTIONS:
        return []
    experiment, baseline, command, note = ATTRIBUTIONS[bench]
    runs = [r for r in finished_runs(experiment, uri) if bg.benchmark_of(r) == bench]
    result = ar.from_runs(runs, metric, uri) if runs else None
    if result is None:
        return []
    text = ar.render(result, experiment, metric, baseline, "tuned", "memlab report presets")
    body = text.split("\n\n", 3)[3]  # the total, the table and the check, without the heading
    head = f"Which groups carry `tuned` − {baseline} (experiment `{experiment}`; runs: {command})."
    return [head + (f" {note}" if note else ""), "", *body.splitlines(), ""]


def gain_line(grid: Mapping[int | None, Mapping[str, bg.Point]]) -> list[str]:
    """At the largest budget: ``tuned`` against the best preset, and whether there is a gain to attribute."""
    top = max((b for b in grid if b is not None), default=None)
    points = grid.get(top, {})
    presets = {n: p for n, p in points.items() if n != BASELINE and p.units}
    if BASELINE not in points or not presets:
        return []
    best = max(presets, key=lambda n: presets[n].value)
    res = paired_test(presets[best].units, points[BASELINE].units)
    if res is None:
        return []
    verdict = "distinguishable" if res.ci_low > 0 or res.ci_high < 0 else "not distinguishable: no gain to attribute"
    diff = cell(res.diff, (res.ci_low, res.ci_high), "+")
    return [f"At budget {top}, `tuned` − the best preset (`{best}`) = {diff} on {res.n} paired items ({verdict}).", ""]


def render(runs: Sequence[Any], uri: str | None, out: Path) -> str:
    """The report's Markdown (and its figure beside ``out``)."""
    from memlab.wiring.build import resolve_target

    grids, metrics = bg.grids_by_benchmark(runs, uri, per_benchmark={b: m for b, (m, _) in COMPARED.items()})
    lines = [
        "# Presets: the source designs against `tuned`, at matched budgets",
        "",
        "Generated by `memlab report presets` from the MLflow experiment `presets`. Commands:",
        "",
        "```bash",
        "P=seed_git_notes_memory_nollm,mycelic_nollm,squidbot_nollm,astra_nollm,tuned",
        "B=pipeline.budget_tokens=250,500,1000,2000",
        "python -m memlab --multirun +experiment=$P $B dataset=builtin_history",
        "python -m memlab --multirun seed=0,1,2 +experiment=$P $B dataset=project_history",
        "python -m memlab --multirun seed=0,1,2 +experiment=$P $B dataset=consolidation_history",
        "python -m memlab --multirun +experiment=$P $B dataset=locomo",
        "python -m memlab --multirun +experiment=$P $B dataset=ferrybook_history",
        "python -m memlab --multirun +experiment=$P $B dataset=adr_decisions dataset.split=dev",
        "memlab report presets",
        "```",
        "",
        "Every policy runs at every budget of the grid (`pipeline.budget_tokens`, the cap of the injected block and",
        "of each question's context); *reader tokens* is what the reader read (`context_tokens`, the mean per",
        "question), *block tokens* the SessionStart block (`injected_tokens`); a budget only caps them. The fronts",
        "and the figure put the main metric against the reader's tokens. `tuned` was chosen on development",
        "data only (generator seeds 1020-1022, the ferrybook history, LoCoMo conv-26/30; its config's header) and",
        "re-chosen per budget there: its selector, the group that decides what fits a budget, on conv-26/30 under a",
        "rule fixed beforehand (keep `current_facts` unless another selector is distinguishably better;",
        '`experiments/presets/per_budget.py`, experiments/presets/README.md "Per budget"). No other selector was at',
        "any budget, so one configuration stands at every budget. The history benchmarks' main metric is read from",
        "contexts recalled with the policy's `pipeline.recall_limit`, which no budget caps. Generated seeds 0-2 and",
        "the built-in history are evaluation data; the other benchmarks say what was read. *distinguishable*: the",
        "paired 95% interval of `tuned` − policy excludes 0. What each preset renders, and what it could not:",
        "experiments/presets/README.md. Under each benchmark: `tuned` against the best preset at the largest budget,",
        "and, where attribution runs exist, which groups carry the difference.",
        "",
    ]
    for bench, grid in grids.items():
        runs_of = [p.runs for by in grid.values() for p in by.values()]
        any_run = runs_of[0][0].record
        headline = [m for m in any_run.tags.get("memlab.headline", "").split(",") if m]
        target = any_run.params.get("dataset._target_")
        card = getattr(resolve_target(target, "dataset"), "card", None) if target else None
        seeds = sorted({r.seed for rs in runs_of for r in rs}, key=str)
        paths = {r.record.params.get("dataset.path") for rs in runs_of for r in rs}
        source = Path(paths.pop()).name if len(paths) == 1 and None not in paths else None
        lines += [f"## {bench}" + (f" ({source})" if source else ""), ""]
        if card is not None:
            note = next((f" {DATA_NOTES[k]}" for k in (bench, source) if k in DATA_NOTES), "")
            lines += [f"{card.description}. Seeds: {', '.join(seeds)}.{note}", ""]
        if bench in COMPARED:
            lines += [f"Compared on `{metrics[bench]}`: {COMPARED[bench][1]}.", ""]
        lines += [*bg.front_lines(grid), *bg.tables(grid, metrics[bench], BASELINE)]
        top = max((b for b in grid if b is not None), default=None)
        detail = {name: p.runs for name, p in grid[top].items()}
        lines += [f"Headline metrics, tiers and latency at budget {top}:", "", *detail_rows(detail, headline), ""]
        lines += gain_line(grid)
        lines += attribution_lines(bench, metrics[bench], uri)
        if bench == preset_mechanisms.BENCHMARK:
            lines += preset_mechanisms.lines(uri)
        if bench == sensitivity.BENCHMARK:
            lines += sensitivity.lines(uri)
    png = bg.figure(grids, metrics, out.with_suffix(".png"))
    lines += [f"![main metric against the reader's tokens per benchmark]({png.name})", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write reports/presets.md and reports/presets.png."""
    args = report_parser("presets", __doc__).parse_args(list(argv or []))
    runs = [r for r in finished_runs(bg.EXPERIMENT, args.uri) if "seed" in r.params]
    require_runs(runs, [bg.EXPERIMENT], args.uri)
    check_output([args.out, args.out.with_suffix(".png")], args.force)
    with kept_on_error([args.out.with_suffix(".png")]):
        text = render(runs, args.uri, args.out)
        write_report(args.out, text, [r.run_id for r in runs], partial=args.partial, uri=args.uri)
    print(f"wrote {args.out}")
    return 0
