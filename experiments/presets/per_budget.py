r"""Is `tuned` re-chosen per budget? Its selector chosen at each injected budget on development data only.

The selector is the group that decides what fits a budget (the other groups rank and consolidate whatever the budget
is), so it is the one re-chosen per budget. Development data: LoCoMo's tune conversations conv-26 and conv-30 (the
ones `tuned`'s retriever was tuned on); the history benchmarks are not searched here, because their main metric is
read from contexts recalled with the policy's ``recall_limit``, which no budget caps (`tuned`'s ``reader_acc`` is the
same at every budget in reports/presets.md).

Rule, fixed before the runs were read: at each budget `tuned` keeps its selector (``current_facts``) unless another
option is distinguishably better on the development questions (the paired 95% interval of option − current_facts,
over the questions both answered, lies above 0); among such options the highest wins.

Commands::

    python -m memlab --multirun +experiment=tuned dataset=locomo 'dataset.conversations=[conv-26,conv-30]' \\
        experiment_name=tuned_per_budget \\
        selector=current_facts,knapsack,mmr,recency,retention_topk,seed_weighted \\
        pipeline.budget_tokens=250,500,1000,2000
    python experiments/presets/per_budget.py [--uri URI]      # prints the Markdown table and each budget's choice
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from memlab.benchmarks.stats import PairedResult, paired_test
from memlab.reports import budgets as bg
from memlab.reports import configs as cf
from memlab.reports.budgets import cell
from memlab.reports.common import finished_runs, require_runs

EXPERIMENT = "tuned_per_budget"
#: `tuned`'s selector (conf/experiment/tuned.yaml), kept unless another is distinguishably better.
INCUMBENT = "current_facts"


def choose(points: Mapping[str, bg.Point], incumbent: str = INCUMBENT) -> tuple[str, dict[str, PairedResult]]:
    """The budget's choice under the module's rule, and each option's paired difference from the incumbent."""
    base = points[incumbent]
    paired = {
        name: res for name, p in points.items() if name != incumbent and (res := paired_test(base.units, p.units))
    }
    better = [name for name, res in paired.items() if res.ci_low > 0]
    return (max(better, key=lambda n: points[n].value) if better else incumbent), paired


def table(points: Mapping[str, bg.Point], chosen: str, paired: Mapping[str, PairedResult]) -> list[str]:
    """One budget's options: metric with interval, tokens, difference from the incumbent, the choice."""
    lines = ["| selector | metric (95% CI) | tokens | − current_facts (95% CI) | chosen |", "|---|---|---|---|---|"]
    for name in sorted(points, key=lambda n: (n != INCUMBENT, n)):
        p, res = points[name], paired.get(name)
        diff = cell(res.diff, (res.ci_low, res.ci_high), "+") if res else "–"
        tokens = f"{p.tokens:.0f}" if p.tokens is not None else "–"
        lines.append(f"| `{name}` | {cell(p.value, p.ci)} | {tokens} | {diff} | {'yes' if name == chosen else ''} |")
    return lines


def render(runs: Sequence[Any], uri: str | None) -> str:
    """The Markdown of every budget's table and choice."""
    metric = runs[0].tags.get("memlab.main_metric", "")
    cells: dict[tuple[int | None, str], list[cf.RunData]] = {}
    for data in cf.load(runs, metric, uri):
        cells.setdefault((bg.budget_of(data.record), cf.strategy(data.record, "selector") or "?"), []).append(data)
    by_budget: dict[int | None, dict[str, bg.Point]] = {}
    for (budget, name), group in cells.items():
        ids = {r.run_id for r in cf.newest_per_seed([g.record for g in group])}
        by_budget.setdefault(budget, {})[name] = bg.point(
            name, budget, [g for g in group if g.record.run_id in ids], metric
        )
    lines = [f"Metric: `{metric}` on the development conversations (experiment `{EXPERIMENT}`).", ""]
    for budget in sorted(by_budget, key=lambda b: (b is None, b or 0)):
        points = by_budget[budget]
        if INCUMBENT not in points:
            lines += [f"### budget {budget} tokens", "", f"no `{INCUMBENT}` run: no choice.", ""]
            continue
        chosen, paired = choose(points)
        lines += [f"### budget {budget} tokens: `{chosen}`", "", *table(points, chosen, paired), ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the per-budget choice of `tuned`'s selector."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", "--tracking-uri", default=None, help="MLflow tracking URI")
    parser.add_argument("--experiment", default=EXPERIMENT)
    args = parser.parse_args(argv)
    runs = finished_runs(args.experiment, args.uri)
    require_runs(runs, [args.experiment], args.uri)
    print(render(runs, args.uri))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
