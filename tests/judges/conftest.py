"""Shared fixtures of the judge tests: memories and a tiny learned model (TF-IDF, builtin seeds 1000-1001)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_trained():
    """A learned-judge classifier and card trained on builtin seeds 1000-1001 with the TF-IDF embedder."""
    from memlab.training.judge import train

    return train([1000, 1001], dataset="builtin", embedder="tfidf")


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory, tiny_trained) -> Path:
    """:func:`tiny_trained` saved as JSON trees with its card."""
    from memlab.training.judge import save

    model, card = tiny_trained
    path, _ = save(model, card, tmp_path_factory.mktemp("learned") / "tiny.json")
    return path
