"""What a sweep's jobs have in common and what tells them apart: the study's MLflow experiment and the jobs' names.

A sweep is one study: its parent run and every child are filed under one MLflow experiment. The jobs' own
configs name it (``+experiment=seed_git_notes_memory_nollm,tuned`` files both under ``presets``); when they
name several, the launching config's experiment takes all of them. A child run is named by the overrides that
vary across the sweep (``judge=slot budget_tokens=500``), not by what every job shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from omegaconf import DictConfig, OmegaConf

#: Override roots that can change a job's ``experiment_name`` (the study overlays and the name itself).
EXPERIMENT_ROOTS = ("experiment", "search", "experiment_name")
#: Roots that only change how a job is recorded, never what it is: left out of job names.
QUIET_ROOTS = ("hydra", "tracking", "logging", "trace", "paths")
#: MLflow's limit on run names is 250 characters.
MAX_NAME = 240


def override_key(item: str) -> str:
    """The key of an override (``+experiment=x`` -> ``experiment``, ``hydra/launcher=ray`` -> ``hydra/launcher``)."""
    return item.lstrip("+~").partition("=")[0]


def root_of(key: str) -> str:
    """The first segment of a dotted or slashed key."""
    return key.split(".", 1)[0].split("/", 1)[0]


def task_overrides(config: DictConfig) -> list[str]:
    """The command line's overrides of the sweep (Hydra's ``hydra.overrides.task``)."""
    try:
        return [str(o) for o in config.hydra.overrides.task]
    except Exception:  # a config without Hydra's node (tests): no overrides
        return []


def job_override_lists(config: DictConfig) -> list[list[str]] | None:
    """Every job's override list as the basic sweeper expands the command line; ``None`` when it cannot say."""
    try:
        from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
        from hydra.core.override_parser.overrides_parser import OverridesParser

        parsed = OverridesParser.create().parse_overrides(task_overrides(config))
        batches = BasicSweeper.split_arguments(parsed, None)
    except Exception:  # another sweeper's syntax (Optuna's intervals): not expandable here
        return None
    return [list(job) for batch in batches for job in batch]


def fixed_overrides(config: DictConfig) -> set[str]:
    """The overrides every job shares (the command line's overrides that are not sweeps)."""
    jobs = job_override_lists(config)
    if not jobs:
        return {plain(o) for o in task_overrides(config)}
    shared = {plain(o) for o in jobs[0]}
    for job in jobs[1:]:
        shared &= {plain(o) for o in job}
    return shared


def plain(item: str) -> str:
    """An override without the backslash escapes Hydra's sweeper adds (before ``:`` in a URI, for example)."""
    return item.replace("\\", "")


def tracking_of(config: DictConfig) -> dict[str, Any] | None:
    """The resolved ``tracking`` node when it is the MLflow tracker, else ``None``."""
    node = config.get("tracking")
    tracking = None if node is None else OmegaConf.to_container(node, resolve=True)
    if not isinstance(tracking, dict) or not str(tracking.get("_target_", "")).endswith("MlflowTracker"):
        return None
    return tracking


def experiment_of(config: DictConfig) -> str | None:
    """The MLflow experiment a composed config's tracker files runs under (``None`` without MLflow)."""
    tracking = tracking_of(config)
    return None if tracking is None else str(tracking.get("experiment") or "default")


def job_experiments(config: DictConfig) -> list[str]:
    """The experiments the sweep's jobs name by themselves, one entry per distinct choice of study overlay.

    Only overrides under :data:`EXPERIMENT_ROOTS` can change a job's experiment, so one composition per
    distinct combination of them is enough (a 12-job sweep over one study composes once or not at all).
    """
    jobs = job_override_lists(config)
    base = experiment_of(config)
    if not jobs:
        return [base] if base else []
    seen: dict[tuple[str, ...], list[str]] = {}
    for job in jobs:
        key = tuple(o for o in job if root_of(override_key(o)) in EXPERIMENT_ROOTS)
        seen.setdefault(key, job)
    if list(seen) == [tuple(o for o in task_overrides(config) if root_of(override_key(o)) in EXPERIMENT_ROOTS)]:
        return [base] if base else []  # no study overlay is swept: every job composes like the launching config
    from hydra.core.global_hydra import GlobalHydra

    loader = GlobalHydra.instance().config_loader()
    names = []
    for job in seen.values():
        name = experiment_of(loader.load_sweep_config(config, list(job)))
        if name and name not in names:
            names.append(name)
    return names


def study_experiment(config: DictConfig) -> tuple[str, list[str]]:
    """The sweep's one experiment and the experiments its jobs named (several: the launching config's wins)."""
    base = experiment_of(config) or "default"
    try:
        named = job_experiments(config)
    except Exception:  # a job that does not compose fails in its own run, with its own message
        named = [base]
    return (named[0] if len(named) == 1 else base), named


def short_override(item: str) -> str:
    """An override as a child's name shows it: the last segment of its key (``pipeline.budget_tokens=500`` ->
    ``budget_tokens=500``, ``+experiment=tuned`` -> ``experiment=tuned``).
    """
    key, _, value = item.lstrip("+~").partition("=")
    return f"{key.replace('/', '.').rsplit('.', 1)[-1]}={value}"


def job_name(job: Sequence[str], fixed: set[str]) -> str:
    """A child run's name: the job's overrides that vary across the sweep, shortened; ``""`` when none does."""
    items = [plain(o) for o in job]
    parts = [short_override(o) for o in items if o not in fixed and root_of(override_key(o)) not in QUIET_ROOTS]
    name = " ".join(parts)
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
