"""The runs an attribution needs: configurations A and B, and A with some of B's strategy groups, logged to MLflow.

A configuration is a run id (its logged ``config.json``) or Hydra overrides (``+experiment=tuned
dataset=builtin_history``), composed as ``python -m memlab`` composes them. A *coalition* is A with B's whole
subtree for each of its groups (the option and its hyperparameters); the ``pipeline`` settings are not one group
but one per knob, ``pipeline.<knob>``, except the named sub-groups of knobs that act only together
(:data:`PIPELINE_PARTS`: online mode's, Astra's extras', the judge's candidate pairs), so that a difference is
attributed to, say, ``pipeline.recall_mode`` rather than to twelve knobs at once; every
coalition runs once per seed under the experiment E, tagged ``attribution`` and ``coalition=<groups>`` so the
report finds it again, and a coalition whose configuration already has a FINISHED run is not run twice.
"""

from __future__ import annotations

import copy
import re
import shlex
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab.build import GROUPS, SETTINGS_GROUPS
from memlab.errors import MemlabError
from memlab.reports import attribution as at
from memlab.reports import configs as cf

TAG = "attribution"
RUN_ID = re.compile(r"^[0-9a-f]{32}$")


def _parts() -> dict[str, tuple[str, ...]]:
    from memlab.components import AstraSettings, OnlineSettings, PipelineSettings

    candidates = tuple(k for k in PipelineSettings.__dataclass_fields__ if k.startswith("knn_"))
    return {
        "pipeline.online": tuple(OnlineSettings.__dataclass_fields__),
        "pipeline.astra": tuple(AstraSettings.__dataclass_fields__),
        "pipeline.candidates": (*candidates, "min_pair_similarity", "incremental"),
    }


#: Named sub-groups of ``pipeline`` knobs attributed together; any other knob is a group of its own.
PIPELINE_PARTS: dict[str, tuple[str, ...]] = _parts()


def pipeline_group(knob: str) -> str:
    """The attribution group of a ``pipeline`` knob: its named sub-group, else ``pipeline.<knob>``."""
    return next((name for name, knobs in PIPELINE_PARTS.items() if knob in knobs), f"pipeline.{knob}")


def knobs_of(group: str) -> tuple[str, ...]:
    """The ``pipeline`` knobs a ``pipeline.*`` group swaps."""
    return PIPELINE_PARTS.get(group, (group.split(".", 1)[1],))


def compose(overrides: Sequence[str]) -> dict[str, Any]:
    """The resolved config ``python -m memlab`` would run for ``overrides`` (its own tracking)."""
    from memlab.config import compose as compose_config

    return compose_config(list(overrides), tracking=None)


def resolve_config(spec: str, uri: str | None) -> dict[str, Any]:
    """A run id's logged config, or the config composed from the overrides in ``spec``."""
    import json

    if RUN_ID.match(spec.strip()):
        with tempfile.TemporaryDirectory() as tmp:
            path = cf.read_artifact(spec.strip(), "config.json", uri, Path(tmp))
            if path is None:
                raise MemlabError(f"run {spec} has no config.json; name the configuration by its overrides instead")
            return json.loads(path.read_text(encoding="utf-8"))
    return compose(shlex.split(spec))


def used_groups(cfg: Mapping[str, Any]) -> tuple[str, ...]:
    """The strategy and settings groups the config's benchmark uses."""
    from memlab.build import resolve_target

    card = getattr(resolve_target(cfg["dataset"]["_target_"], "dataset"), "card", None)
    uses = set(card.uses) if card is not None else set(GROUPS) | set(SETTINGS_GROUPS)
    return tuple(g for g in (*GROUPS, *SETTINGS_GROUPS) if g in uses)


def differing_groups(a: Mapping[str, Any], b: Mapping[str, Any]) -> tuple[str, ...]:
    """The groups (used by the benchmark) whose subtree differs between A and B; one-line error on another dataset."""
    if a.get("dataset") != b.get("dataset"):
        raise MemlabError("attribution compares configurations on one benchmark; give A and B the same dataset=...")
    out: list[str] = []
    for g in (g for g in used_groups(a) if a.get(g) != b.get(g)):
        pa, pb = a.get(g) or {}, b.get(g) or {}
        out += sorted({pipeline_group(k) for k in {*pa, *pb} if pa.get(k) != pb.get(k)}) if g == "pipeline" else [g]
    return tuple(out)


def label(coalition: at.Coalition) -> str:
    """``judge+selector`` (``none`` for A itself)."""
    return "+".join(sorted(coalition)) or "none"


def coalition_config(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    coalition: at.Coalition,
    experiment: str,
    seed: int,
    uri: str | None = None,
) -> dict[str, Any]:
    """A with B's subtree for every group of ``coalition``, filed under ``experiment`` (in the store ``uri``)."""
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


def plan(groups: Sequence[str], max_groups: int) -> list[at.Coalition]:
    """Every coalition when at most ``max_groups`` groups differ, else the one-at-a-time swaps."""
    return at.coalitions(groups) if len(groups) <= max_groups else at.one_at_a_time(groups)


def run_coalitions(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    experiment: str,
    coalitions: Sequence[at.Coalition],
    seeds: Sequence[int],
    runner: Callable[[dict[str, Any], Path], Any] | None = None,
    uri: str | None = None,
) -> None:
    """Run (or find FINISHED) every coalition on every seed."""
    from memlab.tracking.status import step

    if runner is None:
        from memlab.run import run as runner
    for n, coalition in enumerate(coalitions, 1):
        for seed in seeds:
            with (
                step(f"coalition {n}/{len(coalitions)} {label(coalition)} seed {seed}"),
                tempfile.TemporaryDirectory(prefix="memlab-attr-") as tmp,
            ):
                runner(coalition_config(a, b, coalition, experiment, seed, uri), Path(tmp))


def coalition_of(run: Any) -> at.Coalition | None:
    """The coalition a run of the experiment belongs to (from its tags), if it is an attribution run."""
    tags = run.tags.get("memlab.tags", "").split(",")
    name = next((t.split("=", 1)[1] for t in tags if t.startswith("coalition=")), None)
    if TAG not in tags or name is None:
        return None
    return frozenset() if name == "none" else frozenset(name.split("+"))


def coalition_items(runs: Sequence[Any], metric: str, uri: str | None, groups: Sequence[str]) -> dict:
    """Coalition -> per-item ``(value, weight)`` (keyed ``(seed, item)``; by seed when runs have no items)."""
    wanted = set(groups)
    by: dict[at.Coalition, list[Any]] = {}
    for run in runs:
        c = coalition_of(run)
        if c is not None and c <= wanted:
            by.setdefault(c, []).append(run)
    out: dict[at.Coalition, dict[object, tuple[float, float]]] = {}
    for c, group in by.items():
        data = cf.load(cf.newest_per_seed(group), metric, uri)
        items = cf.pooled_items(data)
        if not items:
            items = {(d.seed,): (d.record.metrics[metric], 1.0) for d in data if metric in d.record.metrics}
        out[c] = items
    return out


def share_cell(share: at.Share | None) -> str:
    """``+0.250 [+0.000, +0.500] yes`` (the last word: whether the interval excludes 0)."""
    if share is None:
        return "–"
    return f"{share.value:+.3f} [{share.low:+.3f}, {share.high:+.3f}] {'yes' if share.distinguishable else 'no'}"


def render(result: at.Attribution, experiment: str, metric: str, a_spec: str, b_spec: str, command: str) -> str:
    """The attribution report's Markdown."""
    lines = [
        f"# Attribution in `{experiment}`: which groups carry the difference in `{metric}`",
        "",
        f"Generated by `{command}`. Do not edit by hand.",
        "",
        f"A (baseline): `{a_spec}`; B: `{b_spec}`. Groups that differ: {', '.join(result.groups) or 'none'}. "
        f"Paired over the {result.n_items} items (or seeds) every coalition's runs share; intervals: percentile "
        "bootstrap (2,000 resamples, the same items for every coalition); *dist.*: the interval excludes 0.",
        "",
        f"**B − A = {share_cell(result.total)}**",
        "",
        "| group | A + B's group − A (95% CI, dist.) | B − B with A's group (95% CI, dist.) | Shapley (95% CI, dist.) "
        "| share of B − A |",
        "|---|---|---|---|---|",
    ]
    for g in result.groups:
        phi = result.shapley.get(g)
        share = "–"
        if phi is not None and result.total.value:
            share = f"{100 * phi.value / result.total.value:.0f}%"
        lines.append(
            f"| `{g}` | {share_cell(result.add.get(g))} | {share_cell(result.drop.get(g))} | {share_cell(phi)} "
            f"| {share} |"
        )
    lines.append("")
    if result.shapley:
        total = round(sum(s.value for s in result.shapley.values()), 12) + 0.0  # no "-0.000"
        inside = result.total.low <= total <= result.total.high
        lines += [
            f"Shapley values sum to {total:+.3f}; B − A measured {result.total.value:+.3f} "
            f"[{result.total.low:+.3f}, {result.total.high:+.3f}]: {'within' if inside else 'OUTSIDE'} its interval.",
            "",
        ]
    else:
        lines += ["Shapley values: not computed (more groups differ than --max-groups; one-at-a-time swaps only).", ""]
    return "\n".join(lines)


def report(
    experiment: str,
    a_spec: str,
    b_spec: str,
    *,
    uri: str | None,
    metric: str | None,
    seeds: Sequence[int] | None,
    max_groups: int,
    execute: bool,
) -> tuple[at.Attribution, str]:
    """Run what is missing and return the attribution with the metric it is over."""
    from memlab.reports.common import finished_runs, require_runs
    from memlab.tracking.query import main_metric

    a, b = resolve_config(a_spec, uri), resolve_config(b_spec, uri)
    groups = differing_groups(a, b)
    if not groups:
        raise MemlabError("A and B differ in no strategy group the benchmark uses; nothing to attribute")
    wanted = plan(groups, max_groups)
    seeds = list(seeds) if seeds else [int(a.get("seed", 0))]
    if execute:
        run_coalitions(a, b, experiment, wanted, seeds, uri=uri)
    runs = [r for r in finished_runs(experiment, uri) if coalition_of(r) is not None and r.params.get("seed") in
            {str(s) for s in seeds}]  # fmt: skip
    require_runs(runs, [experiment], uri)
    metric = metric or main_metric(runs)
    items = coalition_items(runs, metric, uri, groups)
    missing = [label(c) for c in wanted if c not in items]
    if missing:
        raise MemlabError(
            f"no FINISHED run of coalitions {', '.join(missing[:5])} in {experiment}; drop --no-run to run them"
        )
    return at.attribute({c: items[c] for c in wanted}, groups), metric


def from_runs(runs: Sequence[Any], metric: str, uri: str | None) -> at.Attribution | None:
    """The attribution the logged coalition runs support (groups: the union of their coalitions), else ``None``."""
    coalitions = [c for r in runs if (c := coalition_of(r)) is not None]
    named, known = set().union(*coalitions), (*GROUPS, *SETTINGS_GROUPS)
    groups = (*(g for g in known if g in named), *sorted(named - set(known)))
    if not groups:
        return None
    items = coalition_items(runs, metric, uri, groups)
    if frozenset() not in items or frozenset(groups) not in items:
        return None
    return at.attribute(items, groups)
