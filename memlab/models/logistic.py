"""A logistic model as plain JSON, read through its card (SHA-256 pinned, no pickle): the record judge's and the
learned admission's model files.

Model file (``memlab.logistic/1``): the feature names it reads, their standardisation (``mean``, ``scale``),
``coef`` and ``intercept``. Card beside it (``<name>.card.json``; the record judge's is ``memlab.record_judge/1``,
the admission's ``memlab.admission/1``): the model's SHA-256, features and features version, what it was fitted
on, its threshold and how it was chosen, held-out figures and the command that wrote it. Imports neither numpy
nor any model library: the SessionStart hook may read an admission model.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.models.cards import read_card, save_with_card

FORMAT = "memlab.logistic/1"
CARD_FORMAT = "memlab.record_judge/1"


@dataclass(frozen=True)
class LogisticModel:
    """Standardised logistic regression: ``p = sigmoid(intercept + coef . (x - mean) / scale)``."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float

    def probability(self, row: Sequence[float]) -> float:
        """The positive class's probability for one row of this model's features (in :attr:`features` order)."""
        z = self.intercept + sum(
            c * (x - m) / (s or 1.0) for c, x, m, s in zip(self.coef, row, self.mean, self.scale, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-z)) if z > -500 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The model file's content."""
        return {
            "format": FORMAT,
            "features": list(self.features),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "coef": list(self.coef),
            "intercept": self.intercept,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LogisticModel:
        """Read a model file's content (raises ``KeyError``/``TypeError``/``ValueError`` when malformed)."""
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} model")
        features = tuple(str(f) for f in data["features"])
        arrays = [tuple(float(v) for v in data[k]) for k in ("mean", "scale", "coef")]
        if any(len(a) != len(features) for a in arrays):
            raise ValueError("array lengths differ from the feature list")
        return cls(features, *arrays, float(data["intercept"]))


def fit(x: Any, y: Any, features: Sequence[str], sample_weight: Any = None, **options: Any) -> LogisticModel:
    """scikit-learn's logistic regression (``options``) on ``x`` standardised by its column means and standard
    deviations (a constant column keeps scale 1), as a :class:`LogisticModel` reading ``features``.
    """
    from sklearn.linear_model import LogisticRegression

    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    clf = LogisticRegression(**options).fit((x - mean) / scale, y, sample_weight=sample_weight)
    return LogisticModel(tuple(features), tuple(mean), tuple(scale), tuple(clf.coef_[0]), float(clf.intercept_[0]))


def save(model: LogisticModel, card: dict[str, Any], path: Path, card_format: str = CARD_FORMAT) -> tuple[Path, Path]:
    """Write the model and its card (``card_format``, with the model's SHA-256); returns both paths."""
    return save_with_card(model.to_json(), card, path, card_format)


def load(
    path: Path,
    *,
    known: Sequence[str],
    features_version: int,
    expected_sha256: str | None = None,
    card_format: str = CARD_FORMAT,
    what: str = "record judge",
    fix: str = "train one with `memlab train record-judge --out FILE`",
) -> tuple[LogisticModel, dict[str, Any]]:
    """Read a model through its card (``card_format``): digest, features and version checked, nothing executed.

    Raises:
        MemlabError: Missing file or card, a digest that does not match, unknown features, another version,
            unreadable JSON; ``what`` names the model and ``fix`` how to get one.
    """
    card = read_card(path, what, card_format, fix, features_version, expected_sha256)
    try:
        model = LogisticModel.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise MemlabError(f"cannot read {what} model {path}: {type(exc).__name__}; {fix}") from None
    unknown = sorted(set(model.features) - set(known))
    if unknown or list(card.get("features", [])) != list(model.features):
        raise MemlabError(f"{what} model {path} reads other features ({unknown or 'card differs'}); {fix}")
    return model, card
