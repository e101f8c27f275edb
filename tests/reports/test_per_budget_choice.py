"""experiments/presets/per_budget.py: `tuned` keeps its selector at a budget unless another is distinctly better."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.reports import budgets as bg
from tests.support.scripts import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "experiments" / "presets" / "per_budget.py"


def per_budget():
    return load_script(SCRIPT, "memlab_per_budget")


def point(name: str, correct: list[int]) -> bg.Point:
    p = bg.Point(name, 250, [], {("0", f"q{i}"): (float(c), 1.0) for i, c in enumerate(correct)})
    p.value = sum(correct) / len(correct)
    return p


def test_the_incumbent_stays_unless_an_option_is_distinguishably_better():
    module = per_budget()
    n = 40
    same = point("current_facts", [1] * 20 + [0] * 20)
    slightly = point("knapsack", [1] * 22 + [0] * 18)  # two questions more: not distinguishable
    chosen, paired = module.choose({"current_facts": same, "knapsack": slightly})
    assert chosen == "current_facts" and paired["knapsack"].diff == pytest.approx(2 / n)
    assert paired["knapsack"].ci_low <= 0
    much = point("mmr", [1] * 36 + [0] * 4)  # sixteen more: distinguishable, and the best
    chosen, paired = module.choose({"current_facts": same, "knapsack": slightly, "mmr": much})
    assert chosen == "mmr" and paired["mmr"].ci_low > 0
    lines = module.table({"current_facts": same, "mmr": much}, "mmr", paired)
    assert lines[2] == "| `current_facts` | 0.500 | – | – |  |"
    assert lines[3].startswith("| `mmr` | 0.900 | – | +0.400 [+0.") and lines[3].endswith("] | yes |")
