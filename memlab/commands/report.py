"""``memlab report --experiment NAME [--baseline K=V] [--force]``: any experiment's configurations compared
(:mod:`memlab.reports.experiment`); with ``--attribute B``, the difference B − baseline attributed to the strategy
groups that differ (:mod:`memlab.reports.attribution_runs`); ``memlab report NAME [args]``: a study's own report
(``memlab.reports.NAME.main(args)``: adr, budgets, judge_families, locomo, presets, project_history, temporal).
Reports read MLflow runs, refuse to write without runs and never overwrite an existing file without ``--force``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

import memlab.reports
from memlab.build import unknown_option_message
from memlab.errors import MemlabError

#: Modules of memlab.reports that are helpers, not reports.
HELPERS = frozenset(
    {
        "common",
        "stats",
        "items",
        "configs",
        "experiment",
        "experiment_figures",
        "history_figure",
        "locomo_reader",
        "locomo_sweep",
        "llm_costs",
        "attribution",
        "attribution_runs",
        "preset_mechanisms",
        "sensitivity",
    }
)


def available_reports() -> list[str]:
    """Report modules in :mod:`memlab.reports` (those with a ``main``)."""
    names = []
    for info in pkgutil.iter_modules(memlab.reports.__path__):
        if not info.name.startswith("_") and info.name not in HELPERS:
            names.append(info.name)
    return sorted(names)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab report``."""
    parser.add_argument(
        "name", nargs="?", help=f"a study's report ({', '.join(available_reports())}); omit with --experiment"
    )
    generic = parser.add_argument_group("the generic report (memlab report --experiment NAME)")
    generic.add_argument("--experiment", help="MLflow experiment to report on")
    generic.add_argument("--baseline", help="baseline configuration for paired tests, e.g. 'judge=none'")
    generic.add_argument("--metric", help="metric (default: the runs' declared main metric)")
    generic.add_argument("--uri", "--tracking-uri", dest="uri", help="MLflow tracking URI")
    generic.add_argument("--out", help="markdown file (default: reports/NAME.md)")
    generic.add_argument("--force", action="store_true", help="overwrite an existing report")
    generic.add_argument(
        "--attribute",
        metavar="B",
        help="attribute B − baseline to the groups that differ (--baseline and B: a run id or overrides); "
        "runs the swaps under --experiment and writes reports/NAME_attribution.md",
    )
    generic.add_argument("--max-groups", type=int, default=4, help="all subsets (Shapley) up to this many groups")
    generic.add_argument("--seeds", help="seeds each swap runs on, e.g. 0,1,2 (default: the baseline's seed)")
    generic.add_argument("--no-run", action="store_true", help="--attribute from runs already logged only")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="arguments for a study's report (see its --help)")


def run(args: argparse.Namespace) -> int:
    """Dispatch to the generic experiment report or to a study's report module."""
    if args.name is None:
        from memlab.reports.experiment import main

        if not args.experiment:
            raise MemlabError(
                f"say which report: memlab report --experiment NAME, or memlab report {'|'.join(available_reports())}"
            )
        if getattr(args, "attribute", None):
            return attribute(args)
        argv = ["--experiment", args.experiment]
        for key in ("baseline", "metric", "uri", "out"):
            if getattr(args, key):
                argv += [f"--{key}", getattr(args, key)]
        return int(main([*argv, *(["--force"] if args.force else [])]) or 0)
    names = available_reports()
    if args.name not in names:
        raise MemlabError(unknown_option_message("report", args.name, names))
    module = importlib.import_module(f"memlab.reports.{args.name}")
    return int(module.main(list(args.rest)) or 0)


def attribute(args: argparse.Namespace) -> int:
    """``--attribute B``: run the swaps and write the attribution report."""
    from pathlib import Path

    from memlab.paths import PROJECT_ROOT
    from memlab.reports import attribution_runs as ar
    from memlab.reports.common import check_output

    if not args.baseline:
        raise MemlabError("--attribute B needs --baseline A (a run id or overrides such as '+experiment=tuned')")
    try:
        seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else None
    except ValueError as exc:
        raise MemlabError(f"--seeds takes comma-separated integers, not {args.seeds!r}") from exc
    out = Path(args.out) if args.out else PROJECT_ROOT / "reports" / f"{args.experiment}_attribution.md"
    check_output([out], args.force)
    result, metric = ar.report(
        args.experiment,
        args.baseline,
        args.attribute,
        uri=args.uri,
        metric=args.metric,
        seeds=seeds,
        max_groups=args.max_groups,
        execute=not args.no_run,
    )
    e, a, b = args.experiment, args.baseline, args.attribute
    command = f"memlab report --experiment {e} --baseline '{a}' --attribute '{b}'"
    extra = {
        "--metric": args.metric,
        "--seeds": args.seeds,
        "--max-groups": args.max_groups if args.max_groups != 4 else None,
    }
    command += "".join(f" {flag} {value}" for flag, value in extra.items() if value is not None)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(ar.render(result, args.experiment, metric, args.baseline, args.attribute, command), encoding="utf-8")
    print(f"wrote {out}")
    return 0
