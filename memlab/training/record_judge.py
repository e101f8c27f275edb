"""Training and leave-one-repository-out evaluation of the record judge on a folder of ADR repositories.

Each repository becomes its ``refs=strip`` history (:func:`memlab.data.adr.history.repo_history`). Pairs
are the candidate pairs the ``adr_decisions`` experiment puts in front of the judge: each record's
``k`` nearest neighbours by MiniLM over its text (``pipeline.knn_k``) and over its title
(``pipeline.knn_k_summary``), cosine >= ``min_similarity``. Label: 1 for a gold SUPERSEDE pair, 0 otherwise
(MERGE pairs are negatives of the supersession model). The threshold is the one with the best pooled F1
(transitive closures, as the benchmark scores) over the out-of-fold probabilities of a leave-one-repository-out
run on the training repositories themselves: no repository's own scores choose its threshold.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memlab.core.errors import MemlabError

#: Features of the shipped model (chosen by leave-one-repository-out; experiments/adr_decisions/README.md).
DEFAULT_FEATURES: tuple[str, ...] = ("title_jaccard", "mutual_rank_text")
#: Thresholds tried.
GRID: tuple[float, ...] = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7)


@dataclass
class RepoPairs:
    """One repository's candidate pairs: ids ``(older, newer)``, feature rows (all features), labels, gold."""

    name: str
    pairs: list[tuple[str, str]]
    rows: np.ndarray
    labels: np.ndarray
    gold: set[tuple[str, str]]
    n_gold_reached: int


def load_repos(folder: str | Path, repos: Sequence[str] | None = None, split: str = "dev") -> list[Any]:
    """The ``refs=strip`` histories of ``folder``'s repositories in ``split`` (``repos``: only those)."""
    from memlab.data.adr.corpus import read_repo, repo_files
    from memlab.data.adr.history import repo_history

    return [repo_history(read_repo(p), refs="strip") for p in repo_files(folder, repos, split)]


def repo_pairs(history: Any, embed: Any, k: int = 20, k_summary: int = 20, min_similarity: float = 0.2) -> RepoPairs:
    """Candidate pairs of one history with their features and labels."""
    from memlab.core.types import Relation
    from memlab.embed.knn import knn_pairs, merge_pairs
    from memlab.strategies.judge.record_features import FEATURES, RecordStore

    store = RecordStore(list(history.memories), embed)
    mems = store.memories
    found = merge_pairs(knn_pairs(store.text, k, min_similarity), knn_pairs(store.title, k_summary, min_similarity))
    pairs = [(mems[i].id, mems[j].id) for i, j, _ in found]
    gold = {(g.older, g.newer) for g in history.relations if g.relation is Relation.SUPERSEDE}
    by_id = {m.id: m for m in mems}
    rows = np.array([store.features(by_id[o], by_id[n]) for o, n in pairs], dtype=np.float64)
    rows = rows.reshape(len(pairs), len(FEATURES))
    labels = np.array([p in gold for p in pairs], dtype=np.float64)
    return RepoPairs(history.name, pairs, rows, labels, gold, int(labels.sum()))


def columns(features: Sequence[str]) -> list[int]:
    """Column indices of ``features`` in :data:`~memlab.strategies.judge.record_features.FEATURES`."""
    from memlab.strategies.judge.record_features import FEATURES

    unknown = [f for f in features if f not in FEATURES]
    if unknown:
        raise MemlabError(f"unknown record features {unknown}; choose from {', '.join(FEATURES)}")
    return [FEATURES.index(f) for f in features]


def fit(data: Sequence[RepoPairs], features: Sequence[str], c: float = 1.0) -> Any:
    """A :class:`~memlab.models.logistic.LogisticModel` fitted on the pairs of ``data``."""
    from memlab.models.logistic import fit as fit_logistic

    cols = columns(features)
    x = np.vstack([d.rows[:, cols] for d in data])
    y = np.concatenate([d.labels for d in data])
    if y.sum() == 0 or y.sum() == len(y):
        raise MemlabError("the training repositories need both gold supersessions and other pairs")
    return fit_logistic(x, y, features, C=c, max_iter=5000)


def probabilities(model: Any, repo: RepoPairs) -> np.ndarray:
    """The model's P(SUPERSEDE) for each pair of ``repo``."""
    x = (repo.rows[:, columns(model.features)] - np.array(model.mean)) / np.array(model.scale)
    z = np.clip(model.intercept + x @ np.array(model.coef), -500, 500)
    return 1.0 / (1.0 + np.exp(-z))


def closure(pairs: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Transitive closure of ``(older, newer)`` pairs."""
    from memlab.data.relations import transitive_closure

    return set(transitive_closure(pairs))


def counts(repo: RepoPairs, proba: np.ndarray, threshold: float) -> tuple[int, int, int]:
    """(tp, fp, fn) of the closures of the pairs at or above ``threshold`` against the gold closure."""
    predicted = closure({p for p, q in zip(repo.pairs, proba, strict=True) if q >= threshold})
    gold = closure(repo.gold)
    return len(predicted & gold), len(predicted - gold), len(gold - predicted)


def f1_of(tp: int, fp: int, fn: int) -> dict[str, float]:
    """Micro precision/recall/F1 (a rate with an empty denominator is absent)."""
    out: dict[str, float] = {}
    if tp + fp:
        out["precision"] = tp / (tp + fp)
    if tp + fn:
        out["recall"] = tp / (tp + fn)
    if tp + fp + fn:
        out["f1"] = 2 * tp / (2 * tp + fp + fn)
    return out


def out_of_fold(data: Sequence[RepoPairs], features: Sequence[str], c: float = 1.0) -> list[np.ndarray]:
    """Each repository's probabilities from a model fitted on the others."""
    return [probabilities(fit([d for d in data if d is not r], features, c), r) for r in data]


def best_threshold(data: Sequence[RepoPairs], oof: Sequence[np.ndarray]) -> float:
    """The threshold of :data:`GRID` with the best pooled F1 (ties: the higher threshold)."""

    def pooled(t: float) -> float:
        tp, fp, fn = np.sum([counts(r, p, t) for r, p in zip(data, oof, strict=True)], axis=0)
        return f1_of(int(tp), int(fp), int(fn)).get("f1", 0.0)

    return max(GRID, key=lambda t: (pooled(t), t))


def train(data: Sequence[RepoPairs], features: Sequence[str], c: float = 1.0) -> tuple[Any, dict[str, Any]]:
    """Fit on every repository of ``data``; threshold by leave-one-repository-out on them. Returns model, card."""
    from memlab.strategies.judge.record_features import FEATURES_VERSION

    if len(data) < 2:
        raise MemlabError("record judge training needs at least two repositories (the threshold is chosen by LORO)")
    oof = out_of_fold(data, features, c)
    threshold = best_threshold(data, oof)
    tp, fp, fn = np.sum([counts(r, p, threshold) for r, p in zip(data, oof, strict=True)], axis=0)
    model = fit(data, features, c)
    card = {
        "features": list(features),
        "features_version": FEATURES_VERSION,
        "train_repos": [d.name for d in data],
        "threshold": threshold,
        "threshold_rule": "best pooled closure F1 of leave-one-repository-out probabilities on the training repos",
        "C": c,
        "positives": int(sum(d.labels.sum() for d in data)),
        "pairs": int(sum(len(d.pairs) for d in data)),
        "gold_pairs": int(sum(len(d.gold) for d in data)),
        "loro_on_training_repos": {k: round(v, 4) for k, v in f1_of(int(tp), int(fp), int(fn)).items()},
    }
    if any(not math.isfinite(v) for v in (*model.coef, model.intercept)):
        raise MemlabError("record judge training diverged (non-finite weights)")
    return model, card


def default_folder() -> Path:
    """The shared ADR folder: ``$MEMLAB_DATA_DIR/adr-decisions``, else ``../shared/datasets/adr-decisions``."""
    import os

    from memlab.wiring.conf_resolvers import PROJECT_ROOT

    root = os.environ.get("MEMLAB_DATA_DIR") or str((PROJECT_ROOT.parent / "shared" / "datasets").resolve())
    return Path(root) / "adr-decisions"


def embedder(cache_dir: str | None = None) -> Any:
    """``texts -> vectors`` with MiniLM (the judge's own embedder)."""
    from memlab.embed.minilm import MiniLMEmbedder

    return MiniLMEmbedder(cache_dir=cache_dir).encode


def names(spec: str | None) -> list[str]:
    """``"a/b, c__d"`` -> ``["a__b", "c__d"]``."""
    return [s.strip().replace("/", "__") for s in (spec or "").split(",") if s.strip()]


def train_to(args: Any) -> int:
    """Train on ``args``' repositories (minus ``--exclude``), write the model and card, print them."""
    import json
    import shlex
    import sys

    from memlab.models.logistic import save

    folder = Path(args.path) if args.path else default_folder()
    histories = load_repos(folder, names(args.repos) or None, args.split)
    excluded = set(names(args.exclude))
    histories = [h for h in histories if h.name not in excluded]
    from memlab.wiring.conf_resolvers import PROJECT_ROOT

    embed = embedder(str(PROJECT_ROOT / ".cache"))
    data = [repo_pairs(h, embed) for h in histories]
    model, card = train(data, DEFAULT_FEATURES)
    card["command"] = "memlab " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    card["split"] = args.split
    card["excluded"] = sorted(excluded)
    model_path, card_path = save(model, card, args.out)
    print(json.dumps({"model": str(model_path), "card": str(card_path), "threshold": card["threshold"]}, indent=2))
    return 0
