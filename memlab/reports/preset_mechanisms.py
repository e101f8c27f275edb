"""Each source preset with its distinctive mechanism switched off: what the mechanism changes, in the presets report.

Reads the FINISHED runs of the MLflow experiment :data:`EXPERIMENT`: every preset of :data:`MECHANISMS` as it is and
with the mechanism off (the overrides named there), on the same seeds. A run counts as "off" when its strategy tag
for the marking group is the marking option. Per preset: the main metric with the mechanism on and off and the paired
difference over the questions (seeds pooled), and the block's diagnostics on and off (means over seeds).
"""

from __future__ import annotations

from collections.abc import Sequence

from memlab.benchmarks.stats import paired_test
from memlab.reports import configs as cf
from memlab.reports.budgets import benchmark_of, cell, policy_of
from memlab.reports.common import finished_runs

EXPERIMENT = "preset_mechanisms"
#: The benchmark the runs are on (the section sits under it in the presets report).
BENCHMARK = "project_history"
#: Preset -> (its mechanism in words, the overrides that switch it off, the group and option that mark an "off" run).
MECHANISMS: dict[str, tuple[str, str, str, str]] = {
    "seed_git_notes_memory_nollm": ("the similarity supersession check", "judge=none", "judge", "none"),
    "mycelic_nollm": ("online four-way verdicts (UPDATE, DELETE, MERGE, NOOP)", "judge=none", "judge", "none"),
    "squidbot_nollm": ("the running document of the archived window", "summarizer=none", "summarizer", "none"),
    "astra_nollm": (
        "session narratives, insights and the identity anchor",
        "summarizer=none pipeline.insights=false pipeline.identity_anchor=false",
        "summarizer",
        "none",
    ),
}
#: Diagnostics shown on and off (means over the preset's seeds).
DIAGNOSTICS: tuple[str, ...] = (
    "supersession_f1",
    "stale_rate_injected",
    "current_coverage_injected",
    "injected_tokens",
    "context_tokens",
)


def commands(seeds: str = "0,1,2") -> list[str]:
    """The commands that make the runs, two per preset (as it is, then with the mechanism off)."""
    base = f"dataset={BENCHMARK} seed={seeds} experiment_name={EXPERIMENT}"
    return [
        f"python -m memlab --multirun +experiment={preset} {base}" + suffix
        for preset, (_, off, _, _) in MECHANISMS.items()
        for suffix in ("", f" {off}")
    ]


def pair(on: Sequence[cf.RunData], off: Sequence[cf.RunData]) -> str:
    """``on`` − ``off`` over the questions both answered: the difference, its 95% interval, whether it excludes 0."""
    res = paired_test(cf.pooled_items(off), cf.pooled_items(on))
    if res is None:
        return "–"
    sign = "distinguishable" if res.ci_low > 0 or res.ci_high < 0 else "not distinguishable"
    return f"{cell(res.diff, (res.ci_low, res.ci_high), '+')} ({sign}, {res.n})"


def loaded(experiment: str, benchmark: str, uri: str | None) -> tuple[str, list[cf.RunData]]:
    """The runs' declared main metric and the FINISHED runs of ``experiment`` on ``benchmark``, loaded."""
    runs = [r for r in finished_runs(experiment, uri) if benchmark_of(r) == benchmark]
    metric = next((r.tags["memlab.main_metric"] for r in runs if r.tags.get("memlab.main_metric")), "")
    return metric, cf.load(runs, metric, uri) if runs else []


def lines(uri: str | None) -> list[str]:
    """The report section, on the runs' declared main metric (empty when the experiment has no runs)."""
    metric, data = loaded(EXPERIMENT, BENCHMARK, uri)
    if not data:
        return []
    head = ["preset", "mechanism (off: overrides)", f"{metric} on", "off", "on − off (95% CI, n)"]
    head += [f"{m} on / off" for m in DIAGNOSTICS]
    out = [
        "### Each preset's mechanism switched off",
        "",
        f"Experiment `{EXPERIMENT}` (`memlab.reports.preset_mechanisms`); commands:",
        "",
        "```bash",
        *commands(),
        "```",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for preset, (words, off_overrides, group, option) in MECHANISMS.items():
        mine = [d for d in data if policy_of(d.record) == preset]
        off = [d for d in mine if cf.strategy(d.record, group) == option]
        on = [d for d in mine if cf.strategy(d.record, group) != option]
        if not on or not off:
            continue
        on, off = newest(on), newest(off)
        cells = [f"`{preset}`", f"{words} (`{off_overrides}`)"]
        cells += [cell(value(on, metric)), cell(value(off, metric)), pair(on, off)]
        cells += [f"{cell(cf.mean_metric(on, m))} / {cell(cf.mean_metric(off, m))}" for m in DIAGNOSTICS]
        out.append("| " + " | ".join(cells) + " |")
    return [*out, ""]


def value(runs: Sequence[cf.RunData], metric: str) -> float | None:
    """Over the pooled items where the runs have them (as the report's other tables), else the mean over seeds."""
    items = cf.pooled_items(runs)
    if not items:
        return cf.mean_metric(runs, metric)
    return sum(v for v, _ in items.values()) / sum(w for _, w in items.values())


def newest(runs: Sequence[cf.RunData]) -> list[cf.RunData]:
    """The newest run per seed."""
    ids = {r.run_id for r in cf.newest_per_seed([d.record for d in runs])}
    return [d for d in runs if d.record.run_id in ids]
