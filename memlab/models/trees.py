"""Gradient-boosted trees as plain JSON, and a numpy predictor for them: models load without pickle.

A model file (``memlab.trees/1``) holds, for a fitted scikit-learn ``HistGradientBoostingClassifier``, the
classes, the baseline raw score per class and every tree's nodes as parallel arrays (feature, threshold,
which side missing values take, children, leaf value). Reading it is ``json.loads`` — nothing in the file
can run code — and :class:`TreeEnsemble` reproduces ``predict_proba`` (the raw scores summed tree by tree
in the fitted order, then the logistic or softmax link).

A model file is trusted only through its card: :func:`load_model` checks the file's SHA-256 against the
card beside it (``<name>.card.json``) and, when given, against a pinned digest (a hook spec carries the one
``memlab export`` computed), and the card's feature list and features version against the features the
caller computes (a card without a version is version 1).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlab.core.errors import MemlabError
from memlab.models.cards import read_card, save_with_card

FORMAT = "memlab.trees/1"
CARD_FORMAT = "memlab.learned_judge/2"


def export_hgb(model: Any) -> dict[str, Any]:
    """The JSON form of a fitted ``HistGradientBoostingClassifier`` (numerical features only).

    Raises:
        MemlabError: The model uses categorical splits (not supported by the JSON predictor).
    """
    trees = []
    for iteration in model._predictors:
        for k, predictor in enumerate(iteration):
            nodes = predictor.nodes
            if bool(np.any(nodes["is_categorical"])):
                raise MemlabError("categorical splits cannot be exported; train without categorical features")
            trees.append(
                {
                    "class": k,
                    "feature": nodes["feature_idx"].astype(int).tolist(),
                    "threshold": [float(x) for x in nodes["num_threshold"]],
                    "missing_left": nodes["missing_go_to_left"].astype(int).tolist(),
                    "left": nodes["left"].astype(int).tolist(),
                    "right": nodes["right"].astype(int).tolist(),
                    "leaf": nodes["is_leaf"].astype(int).tolist(),
                    "value": [float(x) for x in nodes["value"]],
                }
            )
    baseline = np.asarray(model._baseline_prediction, dtype=np.float64).reshape(-1)
    return {
        "format": FORMAT,
        "classes": [str(c) for c in model.classes_],
        "n_features": int(model.n_features_in_),
        "baseline": [float(x) for x in baseline],
        "trees": trees,
    }


class TreeEnsemble:
    """Predicts class probabilities from the JSON form (:func:`export_hgb`).

    All trees are flattened into one node table; every row walks all trees at once, one depth level per
    step, so a call costs a few numpy operations per level whatever the number of rows.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        if data.get("format") != FORMAT:
            raise MemlabError(f"not a {FORMAT} model; retrain or re-export it with `memlab train judge`")
        self.classes_ = np.asarray(data["classes"])
        self.n_features_ = int(data["n_features"])
        self.baseline_ = np.asarray(data["baseline"], dtype=np.float64)
        trees = data["trees"]
        offsets = np.cumsum([0] + [len(t["feature"]) for t in trees[:-1]]) if trees else np.zeros(0, dtype=int)
        cat = lambda key, dtype: np.concatenate([np.asarray(t[key], dtype=dtype) for t in trees])  # noqa: E731
        self.feature_ = cat("feature", np.int64)
        self.threshold_ = cat("threshold", np.float64)
        self.missing_left_ = cat("missing_left", bool)
        self.leaf_ = cat("leaf", bool)
        self.value_ = cat("value", np.float64)
        shift = np.concatenate([np.full(len(t["feature"]), off) for t, off in zip(trees, offsets, strict=True)])
        self.left_ = cat("left", np.int64) + shift
        self.right_ = cat("right", np.int64) + shift
        self.roots_ = np.asarray(offsets, dtype=np.int64)
        self.tree_class_ = np.asarray([t["class"] for t in trees], dtype=np.int64)
        n_classes = len(self.classes_)
        self.n_raw_ = 1 if n_classes == 2 else n_classes
        if int(self.feature_.max(initial=0)) >= self.n_features_ or len(self.baseline_) != self.n_raw_:
            raise MemlabError("model file is inconsistent (features or classes); retrain it")

    def raw(self, rows: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Raw scores, shape ``(n_rows, n_raw)``: the baseline plus each tree's leaf value."""
        x = np.asarray(rows, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != self.n_features_:
            raise MemlabError(f"expected rows of {self.n_features_} features, got shape {x.shape}")
        node = np.broadcast_to(self.roots_, (len(x), len(self.roots_))).copy()
        rows_ix = np.arange(len(x))[:, None]
        while True:
            active = ~self.leaf_[node]
            if not active.any():
                break
            values = x[rows_ix, self.feature_[node]]
            nan = np.isnan(values)
            go_left = np.where(nan, self.missing_left_[node], values <= self.threshold_[node])
            nxt = np.where(go_left, self.left_[node], self.right_[node])
            node = np.where(active, nxt, node)
        leaves = self.value_[node]
        out = np.empty((len(x), self.n_raw_), dtype=np.float64)
        for k in range(self.n_raw_):
            # baseline, then tree by tree in the fitted order, as scikit-learn sums (cumsum is sequential)
            cols = np.concatenate([np.full((len(x), 1), self.baseline_[k]), leaves[:, self.tree_class_ == k]], axis=1)
            out[:, k] = np.cumsum(cols, axis=1)[:, -1]
        return out

    def predict_proba(self, rows: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Class probabilities, shape ``(n_rows, n_classes)``, columns in :attr:`classes_` order."""
        raw = self.raw(rows)
        if self.n_raw_ == 1:
            p = 1.0 / (1.0 + np.exp(-raw[:, 0]))
            return np.stack([1.0 - p, p], axis=1)
        shifted = raw - raw.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        return e / e.sum(axis=1, keepdims=True)


def save_model(model: Any, card: dict[str, Any], path: Path) -> tuple[Path, Path]:
    """Write the JSON trees of a fitted model and its card (with the model's SHA-256); returns both paths."""
    return save_with_card(export_hgb(model), card, path, CARD_FORMAT)


def load_model(
    path: Path, *, features: Sequence[str], features_version: int = 1, expected_sha256: str | None = None
) -> tuple[TreeEnsemble, dict[str, Any]]:
    """Read a model through its card (:func:`read_card`): digest, features and version checked, nothing executed.

    Args:
        path: The ``memlab.trees/1`` JSON file.
        features: The feature names the caller computes (must equal the card's).
        features_version: The version of the readings behind them (must equal the card's, 1 when absent).
        expected_sha256: A digest pinned elsewhere (a hook spec); must equal the file's too.

    Raises:
        MemlabError: Missing file or card, a digest that does not match, other features, unreadable JSON.
    """
    fix = "retrain it with `memlab train judge --out FILE`"
    card = read_card(path, "learned judge", CARD_FORMAT, fix, features_version, expected_sha256)
    if list(card.get("features", [])) != list(features):
        raise MemlabError(f"learned judge model {path} was trained on other features; retrain it")
    try:
        ensemble = TreeEnsemble(json.loads(path.read_text(encoding="utf-8")))
    except MemlabError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise MemlabError(f"cannot read learned judge model {path}: {type(exc).__name__}; retrain it") from None
    return ensemble, card
