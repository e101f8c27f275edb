"""experiments/memory_files/loro.py's competition study: exact counts on a tiny file."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memlab.training.edit_judge import FilePairs
from tests.support.scripts import load_script

LORO = load_script(Path(__file__).parents[2] / "experiments/memory_files/loro.py", "memory_files_loro")
# newer n1 is read as the edit of o1 (gold) and o2 (not); o2's gold successor n2 is the weaker of its two readings
PAIRS = [("o1", "n1"), ("o2", "n1"), ("o2", "n2"), ("o3", "n3")]
DATA = FilePairs("acme/app", "CLAUDE.md", PAIRS, np.zeros((4, 1)), np.array([1, 0, 1, 0]), n_kept=3)
P = np.array([0.9, 0.8, 0.7, 0.4])


def test_each_pair_alone_counts_every_pair_past_the_threshold():
    assert LORO.compete(DATA, P, 0.5, None) == (2, 1, 1)


def test_one_older_fact_per_newer_drops_the_weaker_reading_of_n1():
    assert LORO.compete(DATA, P, 0.5, "newer") == (2, 0, 1)


def test_mutual_best_also_drops_o2s_weaker_successor():
    assert LORO.compete(DATA, P, 0.5, "both") == (1, 0, 2)


def test_the_threshold_is_chosen_under_the_rule():
    from functools import partial

    from memlab.training.edit_judge import best_threshold

    # under "newer", 0.45 keeps o3/n3 out: (2, 0, 1), F1 0.8; any lower grid value lets it in: (2, 1, 1)
    assert best_threshold([DATA], [P], partial(LORO.compete, mode="newer")) == (0.45, 0.8)
    # each pair alone: 0.75 drops o2/n2 with o2/n1, (1, 1, 2); 0.45 is best at (2, 1, 1)
    assert best_threshold([DATA], [P]) == (0.45, 2 * 2 / (2 * 2 + 1 + 1))
