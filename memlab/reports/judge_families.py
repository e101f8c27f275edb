"""``memlab report judge_families``: supersession judges on every phrasing family and hand-written history.

Reads the runs of the MLflow experiment ``project_history_families`` (the study's commands are in
experiments/project_history/README.md, "Reading change constructions: models v10 and v11") and writes
``reports/judge_families.md``:

1. one row per dataset and judge: what the data was to the judges (its role), the seeds, and mean ± sd over the
   seeds of the headline history metrics; the newest finished run of each (dataset, seed, judge) counts;
2. the generalization table: per judge, ``supersession_f1`` averaged over the datasets of each role, so the
   drop from the data a model was trained on to data no one tuned on is one row.

Roles: ``classic`` is the family models v8 and v10 trained on (at evaluation seeds below 1000, which no model
trained on); ``terse`` and ``narrative`` the cross-family models v9 and v11 trained on too; ``ticket``, ``chat``
and ``wiki`` share no template or synonym list with those, and no shipped model or setting was fitted on them
(``wiki`` has a column of its own: the change constructions of features version 2 were developed on its seed 1020);
``ferrybook_history`` is the hand-written development history, ``builtin_history`` the hand-written check.
Generator seeds from 1000 are validation (development) seeds and have rows of their own, outside the
generalization table. Nothing in the output is typed by hand.
"""

from __future__ import annotations

import functools
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab.core.sha import file_sha256
from memlab.reports.common import table
from memlab.reports.project_history import code_label, mean_sd

EXPERIMENT = "project_history_families"
#: Dataset -> its role; rows follow this order.
ROLE: Mapping[str, str] = {
    "classic": "trained family",
    "terse": "trained family (v9, v11)",
    "narrative": "trained family (v9, v11)",
    "ticket": "held-out family",
    "chat": "held-out family",
    "wiki": "held-out from the models; change reading developed on seed 1020",
    "ferrybook_history": "hand-written, dev",
    "builtin_history": "hand-written, check",
}
#: Role groups of the generalization table.
GROUPS: Mapping[str, tuple[str, ...]] = {
    "trained families": ("classic", "terse", "narrative"),
    "held-out families": ("ticket", "chat"),
    "held out from the models only": ("wiki",),
    "hand-written": ("ferrybook_history", "builtin_history"),
}
METRICS: tuple[tuple[str, str], ...] = (
    ("supersession_f1", "f1"),
    ("stale_rate_injected", "stale"),
    ("current_coverage_injected", "cov"),
    ("current_truth_at_1", "current@1"),
    ("as_of_acc", "as_of"),
    ("when_acc", "when"),
    ("history_acc", "history"),
)
VALIDATION_FROM = 1000


def dataset_label(params: Mapping[str, str]) -> tuple[str, str]:
    """``(dataset, seed)`` of a run: a hand-written history's name (seed ``-``), or the generator's style."""
    target = params.get("dataset._target_", "")
    if target.endswith("BuiltinHistoryBenchmark"):
        return "builtin_history", "-"
    if target.endswith("ProjectHistoryFileBenchmark"):
        return Path(params.get("dataset.path", "file")).stem, "-"
    return params.get("dataset.style", "classic"), params.get("dataset.seed", params.get("seed", "?"))


@functools.cache
def shipped_models() -> dict[str, str]:
    """SHA-256 -> version (``v9``) of every model file shipped in ``memlab/models/judge``."""
    from memlab.strategies.judge.learned import DEFAULT_MODEL

    return {
        file_sha256(path): path.stem.replace("learned_", "")
        for path in sorted(DEFAULT_MODEL.parent.glob("learned_v*.json"))
        if not path.name.endswith(".card.json")
    }


def _model(path: str | None, sha256: str | None, default: str) -> str:
    """A model's version: its file's name, else the shipped model its pinned digest names, else ``default``."""
    if path not in (None, "", "None", "null"):
        return Path(str(path)).stem.replace("learned_", "")
    return shipped_models().get(str(sha256), default)


def judge_label(params: Mapping[str, str]) -> str:
    """A short name of the run's judge and its model(s): ``cascade v8 → v9``, ``learned v9``, ``slot``.

    A cascade's fallback model given by digest only (the conf's default) is named by the shipped file with that
    digest, so runs before and after a change of the shipped fallback stay apart. A model given by neither (runs
    from before the conf pinned the primary model's digest, when the shipped models were v8 and v9) is named
    ``v8`` (primary) or ``v9`` (fallback). Runs from before the cascade's stages were nodes of their own name the
    fallback ``judge.fallback`` (``slot``, ``learned``) and its model ``judge.fallback_model_*``; a cascade without
    a fallback node answers with the slot judge.
    """
    target = params.get("judge._target_", "").rsplit(".", 1)[-1]
    model = _model(params.get("judge.model_path"), params.get("judge.model_sha256"), "v8")
    if target == "CascadeJudge" and "judge.learned._target_" in params:  # stages as nodes (an absent one: "None")
        model = _model(params.get("judge.learned.model_path"), params.get("judge.learned.model_sha256"), "v8")
        stage = params.get("judge.fallback._target_", "SlotJudge").rsplit(".", 1)[-1]
        fallback = stage.removesuffix("Judge").lower()
        if stage == "LearnedJudge":
            fallback = _model(params.get("judge.fallback.model_path"), params.get("judge.fallback.model_sha256"), "v9")
        return f"cascade {model} → {fallback}"
    if target == "CascadeJudge":
        fallback = params.get("judge.fallback", "slot")
        if fallback == "learned":
            fallback = _model(params.get("judge.fallback_model_path"), params.get("judge.fallback_model_sha256"), "v9")
        return f"cascade {model} → {fallback}"
    if target == "LearnedJudge":
        return f"learned {model}"
    return target.replace("Judge", "").lower() or "?"


def asked(run: Any, metric: str) -> bool:
    """A query metric counts only where the history asks such questions (the built-in one asks no ``when``)."""
    if not metric.endswith("_acc"):
        return True
    return run.metrics.get(f"n_queries_{metric.removesuffix('_acc')}", 1) > 0


def _validation(seed: str) -> bool:
    return seed.isdigit() and int(seed) >= VALIDATION_FROM


def groups_of(runs: Sequence[Any]) -> dict[tuple[str, str], list[Any]]:
    """``(dataset, judge)`` -> the newest run per seed, in seed order.

    Validation seeds make a dataset of their own (``classic (validation seeds)``).
    """
    newest: dict[tuple[str, str, str], Any] = {}
    for run in sorted(runs, key=lambda r: r.start_time):
        data, seed = dataset_label(run.params)
        newest[(data, seed, judge_label(run.params))] = run
    out: dict[tuple[str, str], list[tuple[str, Any]]] = defaultdict(list)
    for (data, seed, judge), run in newest.items():
        out[(data + (" (validation seeds)" if _validation(seed) else ""), judge)].append((seed, run))
    order = list(ROLE)

    def key(item: tuple[tuple[str, str], list]) -> tuple[int, str, str]:
        (data, judge), _ = item
        name = data.split(" ")[0]
        return (order.index(name) if name in order else len(order), data, judge)

    return {
        k: [run for _, run in sorted(v, key=lambda sr: (not sr[0].isdigit(), int(sr[0]) if sr[0].isdigit() else 0))]
        for k, v in sorted(out.items(), key=key)
    }


def values(group: Sequence[Any], metric: str) -> list[float]:
    """The metric over a group's runs, only where it was asked."""
    return [float(r.metrics[metric]) for r in group if metric in r.metrics and asked(r, metric)]


def dataset_table(groups: Mapping[tuple[str, str], Sequence[Any]]) -> list[str]:
    """One row per dataset and judge."""
    rows = []
    for (data, judge), group in groups.items():
        seeds = ",".join(dataset_label(r.params)[1] for r in group)
        cells = [mean_sd(values(group, metric)) for metric, _ in METRICS]
        rows.append([data, ROLE.get(data.split(" ")[0], ""), judge, seeds, *cells, code_label(group)])
    return table(["data", "role", "judge", "seeds", *(label for _, label in METRICS), "code"], rows)


def generalization(groups: Mapping[tuple[str, str], Sequence[Any]], metric: str = "supersession_f1") -> list[str]:
    """Per judge, the mean over the datasets of each role group of their per-dataset means (evaluation seeds)."""
    per_judge: dict[str, dict[str, float]] = defaultdict(dict)
    for (data, judge), group in groups.items():
        vals = values(group, metric)
        if vals and data in ROLE:
            per_judge[judge][data] = statistics.fmean(vals)
    rows = []
    for judge, by_data in sorted(per_judge.items()):
        cells = []
        for members in GROUPS.values():
            have = [by_data[d] for d in members if d in by_data]
            missing = len(members) - len(have)
            note = f" ({missing} missing)" if missing else ""
            cells.append(f"{statistics.fmean(have):.3f}{note}" if have else "–")
        rows.append([judge, *cells])
    return table(["judge", *(f"{name} ({', '.join(members)})" for name, members in GROUPS.items())], rows)


def render(runs: Sequence[Any], experiment: str = EXPERIMENT) -> str:
    """The report's markdown."""
    groups = groups_of(runs)
    names = ", ".join(f"`{metric}` ({label})" for metric, label in METRICS)
    return "\n".join(
        [
            "# Supersession judges across phrasing families and hand-written histories",
            "",
            f"Generated by `memlab report judge_families` from the MLflow experiment `{experiment}`; do not edit by "
            "hand. Commands: experiments/project_history/README.md, "
            '"Reading change constructions: models v10 and v11".',
            "",
            "## Generalization: `supersession_f1` by what the data was to the judges",
            "",
            "Mean over the datasets of each group of their mean over evaluation seeds 0–2 (hand-written histories: "
            "one run). Trained families: the generator's phrasing families a shipped model was trained on (other "
            "seeds); held-out families share no template or synonym list with them and nothing was fitted on "
            "them; wiki is held out from the models, but the change constructions of features version 2 were "
            "developed on its seed 1020, so it is no longer held out from the change reading; hand-written: "
            "ferrybook (development) and the built-in history (the check).",
            "",
            *generalization(groups),
            "",
            "## Every dataset and judge",
            "",
            f"Mean ± sd over the seeds of {names}; `–`: no such question in the history. `code`: judge version "
            "and commit of the runs (`+`: uncommitted changes).",
            "",
            *dataset_table(groups),
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Write the report from the runs that exist (none: one-line error, nothing written); returns 0."""
    from memlab.reports.common import single_experiment_main

    return single_experiment_main("judge_families", __doc__, EXPERIMENT, render, argv)
