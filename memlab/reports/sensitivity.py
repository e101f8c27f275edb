"""How much retention, the judge and clustering move the main metric on the questions consolidation decides.

Reads the FINISHED runs of the MLflow experiment :data:`EXPERIMENT` on :data:`BENCHMARK`
(:mod:`memlab.data.project_history.consolidation`): the baseline policy :data:`BASELINE` as it is, and with one group
set to another option (:data:`ABLATIONS`), on the same seeds. A run belongs to the option its strategy tag names
for that group when every other ablated group is at the baseline's option. Per group and option: the main metric
and its paired difference from the baseline over the questions (seeds pooled), with its 95% interval.
"""

from __future__ import annotations

from functools import cache

from memlab.reports import configs as cf
from memlab.reports.budgets import cell
from memlab.reports.preset_mechanisms import loaded, newest, pair, value

EXPERIMENT = "consolidation_sensitivity"
BENCHMARK = "consolidation_history"
BASELINE = "seed_git_notes_memory_nollm"
#: Group -> the options its ablation sets (the baseline's own option is the reference).
ABLATIONS: dict[str, tuple[str, ...]] = {
    "retention": ("none", "salience_prune"),
    "judge": ("none", "slot"),
    "clusterer": ("none", "time_window"),
}


def commands(seeds: str = "0,1,2") -> list[str]:
    """The commands that make the runs: the baseline, then each group's options."""
    base = f"python -m memlab --multirun +experiment={BASELINE} dataset={BENCHMARK} seed={seeds} "
    base += f"experiment_name={EXPERIMENT}"
    return [base, *(f"{base} {group}={','.join(options)}" for group, options in ABLATIONS.items())]


@cache
def baseline_options() -> dict[str, str]:
    """The baseline policy's option name per ablated group (from its composed config)."""
    from memlab.wiring.build import resolve_target
    from memlab.wiring.config import compose

    cfg = compose([f"+experiment={BASELINE}", f"dataset={BENCHMARK}"], tracking=None)
    return {g: resolve_target(cfg[g]["_target_"], g).name for g in ABLATIONS}


def lines(uri: str | None) -> list[str]:
    """The report section (empty when the experiment has no runs)."""
    metric, data = loaded(EXPERIMENT, BENCHMARK, uri)
    ref = baseline_options()

    def at(group: str | None = None, option: str | None = None) -> list[cf.RunData]:
        want = {**ref, **({group: option} if group else {})}
        return newest([d for d in data if all(cf.strategy(d.record, g) == o for g, o in want.items())])

    base = at()
    if not base:
        return []
    out = [
        "### Sensitivity: each group's ablation on the questions consolidation decides",
        "",
        f"Experiment `{EXPERIMENT}` (`memlab.reports.sensitivity`): `{BASELINE}` with one group set to another option; "
        f"`{metric}` and the paired difference option − baseline over the questions, seeds pooled (95% bootstrap "
        "interval; *distinguishable*: it excludes 0). Commands:",
        "",
        "```bash",
        *commands(),
        "```",
        "",
        f"Baseline (`{', '.join(f'{g}={o}' for g, o in ref.items())}`): {cell(value(base, metric))} over "
        f"{len(cf.pooled_items(base))} questions (seeds {', '.join(map(str, sorted(d.seed for d in base)))}).",
        "",
        f"| group | option | {metric} | option − baseline (95% CI, distinguishable, n) |",
        "|---|---|---|---|",
    ]
    for group, options in ABLATIONS.items():
        for option in options:
            if runs := at(group, option):
                out.append(f"| {group} | `{option}` | {cell(value(runs, metric))} | {pair(runs, base)} |")
    return [*out, ""]
