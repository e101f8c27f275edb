"""Model files are trusted only through their cards: one set of rules for every model format memlab ships.

A card (``<name>.card.json`` beside the model file) carries the file's SHA-256, its format, the features and features
version it reads, what it was fitted on and how to re-make it. Imports neither numpy nor any model library: the
SessionStart hook reads cards (the admission model's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.core.sha import file_sha256


def card_path(model: Path) -> Path:
    """The card beside a model file: ``judge.json`` -> ``judge.card.json``."""
    return model.with_name(model.name.removesuffix(".json") + ".card.json")


def save_with_card(content: dict[str, Any], card: dict[str, Any], path: Path, card_format: str) -> tuple[Path, Path]:
    """Write a JSON model file and its card (``card_format``, with the file's SHA-256); returns both paths."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, separators=(",", ":")) + "\n", encoding="utf-8")
    card = {**card, "format": card_format, "model_file": path.name, "sha256": file_sha256(path)}
    cpath = card_path(path)
    cpath.write_text(json.dumps(card, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path, cpath


def read_card(
    path: Path, what: str, card_format: str, fix: str, features_version: int, expected_sha256: str | None = None
) -> dict[str, Any]:
    """The checked card of the model file ``path`` (of ``what``: ``learned judge``): the file exists, its card is a
    readable ``card_format`` card, the file's SHA-256 is the card's and ``expected_sha256`` (when given: pinned by a
    conf or a hook spec), and the features version is ``features_version`` (a card without one: version 1).

    Raises:
        MemlabError: One line naming the file, what is wrong and ``fix``.
    """
    if not path.is_file():
        raise MemlabError(f"{what} model not found: {path}; {fix}")
    cpath = card_path(path)
    try:
        card = json.loads(cpath.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise MemlabError(f"{what} model {path} has no readable card {cpath.name}; {fix}") from None
    if not isinstance(card, dict) or card.get("format") != card_format:
        raise MemlabError(f"{cpath} is not a {card_format} card; {fix}")
    digest = file_sha256(path)
    for label, wanted in (("its card", card.get("sha256")), ("the spec", expected_sha256)):
        if wanted is not None and wanted != digest:
            raise MemlabError(
                f"{what} model {path} does not match the SHA-256 in {label} ({str(wanted)[:12]}...); refusing to load "
                "it (for another model file, pin its SHA-256 or null: the judge's model_sha256)"
            )
    trained = card.get("features_version", 1)
    if trained != features_version:
        raise MemlabError(
            f"{what} model {path} was trained on features version {trained}, this memlab computes version "
            f"{features_version}; {fix} (a hook: export a run made with this memlab)"
        )
    return card
