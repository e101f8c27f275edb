"""``memlab report --experiment NAME [--baseline K=V] [--force]``: any experiment's configurations compared
(:mod:`memlab.reports.experiment`); with ``--attribute B``, the difference B − baseline attributed to the strategy
groups that differ (:mod:`memlab.reports.attribution_runs`); ``memlab report NAME [args]``: a study's own report
(``memlab.reports.NAME.main(args)``; :func:`available_reports`).

Reports read MLflow runs, refuse to write without runs and never overwrite an existing file without ``--force``.
The one thing this command runs is an attribution's swaps: with ``--attribute`` it composes A and B, runs the
coalitions (A with some of B's groups) that have no FINISHED run yet under the experiment (``--no-run``: none),
then writes the report, which reads them back. Why here: a report reads runs, a command runs them.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import re
import shlex
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import memlab.reports
from memlab.core.errors import MemlabError
from memlab.wiring.build import GROUPS, SETTINGS_GROUPS, unknown_option_message

#: A study's report is a module of :mod:`memlab.reports` with a top-level ``main(argv)``; the others are the
#: pieces reports share (found by reading the source, so listing the reports imports none of them).
REPORT_MAIN = re.compile(r"^def main\(", re.MULTILINE)
RUN_ID = re.compile(r"^[0-9a-f]{32}$")


def available_reports() -> list[str]:
    """The study reports of :mod:`memlab.reports` (:data:`REPORT_MAIN`)."""
    folder = Path(memlab.reports.__path__[0])
    return sorted(
        p.stem
        for p in folder.glob("*.py")
        if not p.stem.startswith("_") and REPORT_MAIN.search(p.read_text(encoding="utf-8"))
    )


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
        "--partial", action="store_true", help="with --force: write it even if runs of the existing one are missing"
    )
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
    """Dispatch to the generic experiment report, an attribution, or a study's report module."""
    if args.name is None:
        if not args.experiment:
            raise MemlabError(
                f"say which report: memlab report --experiment NAME, or memlab report {'|'.join(available_reports())}"
            )
        if args.attribute:
            return attribute(args)
        from memlab.reports.experiment import write

        return write(
            args.experiment,
            uri=args.uri,
            metric=args.metric,
            baseline=args.baseline,
            out=args.out,
            force=args.force,
            partial=args.partial,
        )
    names = available_reports()
    if args.name not in names:
        raise MemlabError(unknown_option_message("report", args.name, names))
    module = importlib.import_module(f"memlab.reports.{args.name}")
    return int(module.main(list(args.rest)) or 0)


def resolve_config(spec: str, uri: str | None) -> dict[str, Any]:
    """A run id's logged ``config.json``, or the config ``python -m memlab`` composes from the overrides in ``spec``
    (with its own tracking).
    """
    import json

    if not RUN_ID.match(spec.strip()):
        from memlab.wiring.config import compose

        return compose(shlex.split(spec), tracking=None)
    from memlab.tracking.query import read_artifact

    with tempfile.TemporaryDirectory() as tmp:
        path = read_artifact(spec.strip(), "config.json", uri, Path(tmp))
        if path is None:
            raise MemlabError(f"run {spec} has no config.json; name the configuration by its overrides instead")
        return json.loads(path.read_text(encoding="utf-8"))


def _parts() -> dict[str, tuple[str, ...]]:
    from memlab.wiring.components import AstraSettings, OnlineSettings, PipelineSettings

    candidates = tuple(k for k in PipelineSettings.__dataclass_fields__ if k.startswith("knn_"))
    return {
        "pipeline.online": tuple(OnlineSettings.__dataclass_fields__),
        "pipeline.astra": tuple(AstraSettings.__dataclass_fields__),
        "pipeline.candidates": (*candidates, "min_pair_similarity", "incremental"),
    }


#: Named sub-groups of ``pipeline`` knobs attributed together (online mode's, Astra's extras', the judge's
#: candidate pairs); any other knob is a group of its own, ``pipeline.<knob>``, so that a difference is attributed
#: to, say, ``pipeline.recall_mode`` rather than to twelve knobs at once.
PIPELINE_PARTS: dict[str, tuple[str, ...]] = _parts()


def pipeline_group(knob: str) -> str:
    """The attribution group of a ``pipeline`` knob: its named sub-group, else ``pipeline.<knob>``."""
    return next((name for name, knobs in PIPELINE_PARTS.items() if knob in knobs), f"pipeline.{knob}")


def knobs_of(group: str) -> tuple[str, ...]:
    """The ``pipeline`` knobs a ``pipeline.*`` group swaps."""
    return PIPELINE_PARTS.get(group, (group.split(".", 1)[1],))


def differing_groups(a: Mapping[str, Any], b: Mapping[str, Any]) -> tuple[str, ...]:
    """The strategy and settings groups the benchmark uses whose subtree differs between A and B (``pipeline``: per
    knob, :func:`pipeline_group`); one-line error when A and B are on different benchmarks.
    """
    from memlab.wiring.build import resolve_target

    if a.get("dataset") != b.get("dataset"):
        raise MemlabError("attribution compares configurations on one benchmark; give A and B the same dataset=...")
    card = getattr(resolve_target(a["dataset"]["_target_"], "dataset"), "card", None)
    uses = set(card.uses) if card is not None else set(GROUPS) | set(SETTINGS_GROUPS)
    out: list[str] = []
    for g in (g for g in (*GROUPS, *SETTINGS_GROUPS) if g in uses and a.get(g) != b.get(g)):
        pa, pb = a.get(g) or {}, b.get(g) or {}
        out += sorted({pipeline_group(k) for k in {*pa, *pb} if pa.get(k) != pb.get(k)}) if g == "pipeline" else [g]
    return tuple(out)


def coalition_config(
    a: Mapping[str, Any], b: Mapping[str, Any], coalition: frozenset[str], experiment: str, seed: int, uri: str | None
) -> dict[str, Any]:
    """A with B's subtree for every group of ``coalition``, filed under ``experiment`` (in the store ``uri``), tagged
    so the report finds it, and skipped when a FINISHED run of the same config exists.
    """
    from memlab.reports.attribution_runs import TAG, label

    cfg = copy.deepcopy(dict(a))
    for group in coalition:
        if not group.startswith("pipeline."):
            cfg[group] = copy.deepcopy(b[group])
            continue
        for knob in knobs_of(group):
            if knob in (b.get("pipeline") or {}):
                cfg.setdefault("pipeline", {})[knob] = copy.deepcopy(b["pipeline"][knob])
            else:
                (cfg.get("pipeline") or {}).pop(knob, None)
    cfg["seed"] = seed
    cfg["experiment_name"] = experiment
    cfg["tags"] = [TAG, f"coalition={label(coalition)}"]
    if isinstance(cfg.get("tracking"), dict):
        cfg["tracking"] = {**cfg["tracking"], "experiment": experiment, "skip_finished": True}
        if uri:
            cfg["tracking"]["uri"] = uri
    return cfg


def run_coalitions(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    experiment: str,
    coalitions: Sequence[frozenset[str]],
    seeds: Sequence[int],
    uri: str | None,
) -> None:
    """Run (or find FINISHED) every coalition on every seed."""
    from memlab.reports.attribution_runs import label
    from memlab.run import run as run_config
    from memlab.tracking.status import step

    for n, coalition in enumerate(coalitions, 1):
        for seed in seeds:
            with (
                step(f"coalition {n}/{len(coalitions)} {label(coalition)} seed {seed}"),
                tempfile.TemporaryDirectory(prefix="memlab-attr-") as tmp,
            ):
                run_config(coalition_config(a, b, coalition, experiment, seed, uri), Path(tmp))


def attribute(args: argparse.Namespace) -> int:
    """``--attribute B``: run the swaps that have no FINISHED run yet, then write the attribution report."""
    from memlab.core.paths import PROJECT_ROOT
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
    a, b = resolve_config(args.baseline, args.uri), resolve_config(args.attribute, args.uri)
    groups = differing_groups(a, b)
    if not groups:
        raise MemlabError("A and B differ in no strategy group the benchmark uses; nothing to attribute")
    wanted = ar.plan(groups, args.max_groups)
    seeds = seeds or [int(a.get("seed", 0))]
    if not args.no_run:
        run_coalitions(a, b, args.experiment, wanted, seeds, args.uri)
    result, metric = ar.read(args.experiment, groups, wanted, seeds, uri=args.uri, metric=args.metric)
    e, a_spec, b_spec = args.experiment, args.baseline, args.attribute
    command = f"memlab report --experiment {e} --baseline '{a_spec}' --attribute '{b_spec}'"
    extra = {
        "--metric": args.metric,
        "--seeds": args.seeds,
        "--max-groups": args.max_groups if args.max_groups != 4 else None,
    }
    command += "".join(f" {flag} {value}" for flag, value in extra.items() if value is not None)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(ar.render(result, e, metric, a_spec, b_spec, command), encoding="utf-8")
    print(f"wrote {out}")
    return 0
