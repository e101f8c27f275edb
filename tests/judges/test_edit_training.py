"""Edit-judge training on tiny feature rows: LORO threshold, counts over kept pairs, card, refusal of one repo."""

from __future__ import annotations

import numpy as np
import pytest

from memlab.core.errors import MemlabError
from memlab.strategies.judge.edit_features import FEATURES
from memlab.training import edit_judge as ej


def _file(repo: str, rows: list[float], labels: list[int], n_kept: int) -> ej.FilePairs:
    """Pairs whose only informative column is ``ratio`` (the others constant)."""
    matrix = np.zeros((len(rows), len(FEATURES)))
    matrix[:, FEATURES.index("ratio")] = rows
    pairs = [(f"o{k}", f"n{k}") for k in range(len(rows))]
    return ej.FilePairs(repo, "CLAUDE.md", pairs, matrix, np.array(labels), n_kept)


def test_counts_miss_kept_pairs_never_judged_and_skip_unlabelled() -> None:
    data = _file("a/b", [0.9, 0.8, 0.1, 0.95], [1, 0, 0, -1], n_kept=3)
    assert ej.counts(data, np.array([0.9, 0.8, 0.1, 0.95]), 0.5) == (1, 1, 2)  # the -1 pair is neither
    assert ej.f1(1, 1, 2) == pytest.approx(2 / 5) and ej.f1(0, 0, 0) is None


@pytest.mark.slow  # sklearn fits: a few seconds on a loaded machine
def test_train_separates_edits_and_picks_a_threshold_by_loro() -> None:
    data = [_file(f"r/{k}", [0.9, 0.85, 0.2, 0.1], [1, 1, 0, 0], n_kept=2) for k in range(3)]
    model, card = ej.train(data, ("ratio",))
    assert card["train_repos"] == ["r/0", "r/1", "r/2"] and card["kept_pairs"] == 6
    assert card["positives"] == 6 and card["negatives"] == 6 and card["loro_on_training_repos"]["f1"] == 1.0
    assert card["threshold"] in ej.GRID
    p = ej.probabilities(model, data[0], [FEATURES.index("ratio")])
    assert (p[:2] >= card["threshold"]).all() and (p[2:] < card["threshold"]).all()


def test_train_refuses_a_single_repository() -> None:
    with pytest.raises(MemlabError, match="at least two repositories"):
        ej.train([_file("a/b", [0.9, 0.1], [1, 0], 1)], ("ratio",))
