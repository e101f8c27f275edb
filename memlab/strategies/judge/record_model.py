"""A logistic model over record features as plain JSON, read through its card (SHA-256 pinned, no pickle).

Model file (``memlab.logistic/1``): the feature names it reads, their standardisation (``mean``, ``scale``),
``coef`` and ``intercept``. Card beside it (``<name>.card.json``, ``memlab.record_judge/1``): the model's
SHA-256, features and features version, training repositories, the SUPERSEDE threshold and how it was chosen,
the leave-one-repository-out figures and the command that wrote it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.errors import MemlabError
from memlab.models.trees import card_path, sha256_of  # the learned judge's model files follow the same rules

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
        """P(SUPERSEDE) of one row of this model's features (in :attr:`features` order)."""
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


def save(model: LogisticModel, card: dict[str, Any], path: Path, card_format: str = CARD_FORMAT) -> tuple[Path, Path]:
    """Write the model and its card (with the model's SHA-256); returns both paths."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(model.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
    card = {**card, "format": card_format, "model_file": path.name, "sha256": sha256_of(path)}
    cpath = card_path(path)
    cpath.write_text(json.dumps(card, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path, cpath


def load(
    path: Path,
    *,
    known: Sequence[str],
    features_version: int,
    expected_sha256: str | None = None,
    card_format: str = CARD_FORMAT,
    what: str = "record judge",
) -> tuple[LogisticModel, dict[str, Any]]:
    """Read a model through its card (``card_format``; ``what``: the judge's name in messages): digest, features
    and version checked, nothing executed.

    Raises:
        MemlabError: Missing file or card, a digest that does not match, unknown features, another version,
            unreadable JSON.
    """
    fix = f"train one with `memlab train {what.replace(' ', '-')} --out FILE`"
    if not path.is_file():
        raise MemlabError(f"{what} model not found: {path}; {fix}")
    cpath = card_path(path)
    try:
        card = json.loads(cpath.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise MemlabError(f"{what} model {path} has no readable card {cpath.name}; {fix}") from None
    if not isinstance(card, dict) or card.get("format") != card_format:
        raise MemlabError(f"{cpath} is not a {card_format} card; {fix}")
    digest = sha256_of(path)
    for label, wanted in (("its card", card.get("sha256")), ("the conf", expected_sha256)):
        if wanted is not None and wanted != digest:
            raise MemlabError(
                f"{what} model {path} does not match the SHA-256 in {label} ({str(wanted)[:12]}...); refusing "
                "to load it (for another model file set judge.model_sha256 to its digest or null)"
            )
    if card.get("features_version") != features_version:
        raise MemlabError(
            f"{what} model {path} was trained on features version {card.get('features_version')}, this "
            f"memlab computes version {features_version}; {fix}"
        )
    try:
        model = LogisticModel.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise MemlabError(f"cannot read {what} model {path}: {type(exc).__name__}; {fix}") from None
    unknown = sorted(set(model.features) - set(known))
    if unknown or list(card.get("features", [])) != list(model.features):
        raise MemlabError(f"{what} model {path} reads other features ({unknown or 'card differs'}); {fix}")
    return model, card
