"""Leave-one-conversation-out cross-validation of the temporal answerer's settings, on cached contexts.

The policy's episodes run once; every temporal question keeps the context it was given
(:mod:`memlab.benchmarks.locomo.contexts`). Each setting of a declared grid then answers every question from
that same context. For each conversation (a *fold*), the setting with the best date accuracy on date-like
gold over the *other* conversations is chosen (ties: the earlier setting in grid order) and scores the held-out
conversation. The cross-validated estimate pools the held-out questions, each answered under its fold's
choice; its 95% interval is a percentile bootstrap over those questions (it does not re-run the choice).

:func:`loocv` is the generic fold logic (settings x questions -> folds); :func:`answer_grid` and
:func:`locomo_cv` apply it to LoCoMo's rows.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from memlab.benchmarks.locomo.answerer import AnswerConfig, answer_temporal
from memlab.benchmarks.locomo.contexts import units_from_records
from memlab.benchmarks.locomo.dates import date_correct
from memlab.benchmarks.locomo.scoring import token_f1
from memlab.core.errors import MemlabError
from memlab.core.types import TemporalRef
from memlab.strategies.temporal.base import TemporalBase

#: The metric each fold's choice maximises, and the one the estimate reports.
CV_METRIC = "temporal_date_acc_datelike"


@dataclass(frozen=True)
class Fold:
    """One held-out group and the setting chosen without it.

    Attributes:
        heldout: The held-out group (conversation id).
        chosen: Index of the chosen setting in the grid.
        train_score: Its mean over the other groups' questions.
        heldout_score: Its mean over the held-out group's questions.
        n_heldout: Questions in the held-out group.
    """

    heldout: str
    chosen: int
    train_score: float
    heldout_score: float
    n_heldout: int


def expand_grid(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the grid's values, in declared order (the last key varies fastest).

    Raises:
        MemlabError: An empty list of values.
    """
    keys = list(grid)
    for key in keys:
        if not isinstance(grid[key], Sequence) or isinstance(grid[key], str) or not grid[key]:
            raise MemlabError(f"dataset.cv_grid.{key} must be a non-empty list of values, got {grid[key]!r}")
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*(grid[k] for k in keys))]


def check_grid(grid: Mapping[str, Sequence[Any]]) -> None:
    """The grid names ``AnswerConfig`` fields, each with a non-empty list of values.

    Raises:
        MemlabError: One line naming the bad key and the valid ones.
    """
    unknown = sorted(set(grid) - set(AnswerConfig.__dataclass_fields__))
    if unknown:
        raise MemlabError(
            f"unknown dataset.cv_grid key(s) {unknown}; valid: {sorted(AnswerConfig.__dataclass_fields__)}"
        )
    expand_grid(grid)


def _mean(values: Sequence[float]) -> float:
    """Mean of a non-empty sequence (every fold has questions on both sides)."""
    return float(sum(values) / len(values))


def loocv(values: Sequence[Mapping[str, float]], groups: Mapping[str, str]) -> tuple[list[Fold], dict[str, float]]:
    """Leave-one-group-out choice among settings.

    Args:
        values: Per setting (grid order), item id -> value (higher is better; e.g. 1.0 = correct).
        groups: Item id -> its group; only these items count.

    Returns:
        The folds (sorted by group) and, per item, its value under its own fold's chosen setting.

    Raises:
        MemlabError: Fewer than two groups, or no setting.
    """
    names = sorted(set(groups.values()))
    if len(names) < 2 or not values:
        raise MemlabError(
            f"cross-validation needs at least two conversations and one setting (got {len(names)} and {len(values)})"
        )
    folds: list[Fold] = []
    pooled: dict[str, float] = {}
    for name in names:
        train = [i for i, g in groups.items() if g != name]
        held = sorted(i for i, g in groups.items() if g == name)
        scores = [_mean([setting[i] for i in train]) for setting in values]
        chosen = max(range(len(values)), key=lambda k: (scores[k], -k))
        folds.append(Fold(name, chosen, scores[chosen], _mean([values[chosen][i] for i in held]), len(held)))
        pooled.update({i: values[chosen][i] for i in held})
    return folds, pooled


class MemoResolver:
    """A resolver behind a memo of ``(text, anchor) -> refs`` (the grid re-reads the same contexts)."""

    def __init__(self, resolver: TemporalBase) -> None:
        self.resolver = resolver
        self.memo_: dict[tuple[str, datetime], list[TemporalRef]] = {}

    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """The wrapped resolver's answer, computed once per text and anchor."""
        key = (text, anchor)
        if key not in self.memo_:
            self.memo_[key] = list(self.resolver.resolve(text, anchor))
        return self.memo_[key]


def answer_grid(
    rows: Sequence[Mapping[str, Any]], resolver: TemporalBase, settings: Sequence[Mapping[str, Any]]
) -> list[dict[str, dict[str, Any]]]:
    """Per setting, question id -> ``{prediction, date_correct, f1}`` from each row's cached context."""
    memo = MemoResolver(resolver)
    temporal = [r for r in rows if r["category"] == 2 and "context_units" in r]
    units = {r["qid"]: units_from_records(r["context_units"]) for r in temporal}
    out = []
    for setting in settings:
        config = AnswerConfig(**setting)
        answers: dict[str, dict[str, Any]] = {}
        for r in temporal:
            ans = answer_temporal(r["question"], units[r["qid"]], memo, config)
            pred = ans.text if ans else ""
            answers[r["qid"]] = {
                "prediction": pred,
                "date_correct": date_correct(pred, r["gold"]),
                "f1": token_f1(pred, r["gold"]),
            }
        out.append(answers)
    return out


def locomo_cv(
    rows: Sequence[Mapping[str, Any]],
    resolver: TemporalBase,
    grid: Mapping[str, Sequence[Any]],
    base: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> tuple[dict[str, float], dict[str, Any]]:
    """LOOCV of the answerer's settings over the conversations of ``rows`` (prediction rows with contexts).

    Args:
        rows: The benchmark's prediction rows (temporal rows carry ``context_units``).
        resolver: The run's temporal resolver.
        grid: Setting name -> candidate values (``AnswerConfig`` fields).
        base: Fixed ``AnswerConfig`` fields the grid does not vary.
        seed: Bootstrap seed.

    Returns:
        Metrics (``cv_temporal_date_acc_datelike`` with ``_ci_low``/``_ci_high``, ``cv_temporal_date_acc``,
        ``cv_temporal_f1`` over all temporal questions under the folds' choices, and per fold
        ``cv_heldout_<conversation>``, with the counts ``cv_n_temporal_datelike``, ``cv_n_temporal`` and
        ``cv_n_heldout_<conversation>``) and a JSON-ready report (grid, folds with their chosen settings).
    """
    from memlab.benchmarks.metrics import bootstrap_ci

    check_grid(grid)
    settings = [{**dict(base or {}), **s} for s in expand_grid(grid)]
    answers = answer_grid(rows, resolver, settings)
    temporal = [r for r in rows if r["category"] == 2 and "context_units" in r]
    datelike = {r["qid"]: str(r["conversation"]) for r in temporal if r.get("gold_datelike")}
    every = {r["qid"]: str(r["conversation"]) for r in temporal}
    folds, pooled = loocv([{q: float(a[q]["date_correct"]) for q in datelike} for a in answers], datelike)
    choice = {f.heldout: f.chosen for f in folds}
    chosen_rows = {q: answers[choice[g]][q] for q, g in every.items()}
    estimate = [pooled[q] for q in sorted(pooled)]
    interval = bootstrap_ci(estimate, seed=seed)
    assert interval is not None  # loocv refuses fewer than two conversations: the estimate has questions
    low, high = interval
    metrics = {
        f"cv_{CV_METRIC}": _mean(estimate),
        f"cv_{CV_METRIC}_ci_low": low,
        f"cv_{CV_METRIC}_ci_high": high,
        "cv_temporal_date_acc": _mean([float(a["date_correct"]) for a in chosen_rows.values()]),
        "cv_temporal_f1": _mean([float(a["f1"]) for a in chosen_rows.values()]),
        "cv_n_settings": float(len(settings)),
        "cv_n_temporal_datelike": float(len(estimate)),
        "cv_n_temporal": float(len(chosen_rows)),
        **{f"cv_heldout_{f.heldout}": f.heldout_score for f in folds},
        **{f"cv_n_heldout_{f.heldout}": float(f.n_heldout) for f in folds},
    }
    report = {
        "metric": CV_METRIC,
        "grid": {k: list(v) for k, v in grid.items()},
        "base": dict(base or {}),
        "folds": [{**asdict(f), "setting": settings[f.chosen]} for f in folds],
        "estimate": metrics[f"cv_{CV_METRIC}"],
        "ci95": [low, high],
        "n": len(estimate),
        "predictions": {q: chosen_rows[q]["prediction"] for q in sorted(chosen_rows)},
    }
    return metrics, report
