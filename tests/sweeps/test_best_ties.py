"""`memlab best` breaks a tie by a stated rule that does not depend on the order the runs finished in: the simpler
configuration (fewer strategy groups that are not `none`, then fewer injected tokens), and prints the tie."""

from __future__ import annotations

import pytest

from tests.sweeps.helpers import log_run

#: (judge, retention, injected tokens): all three reach the same main metric.
TIED = [
    ("slot", "exponential", 300.0),
    ("none", "exponential", 500.0),
    ("none", "none", 450.0),
    ("none", "none", 400.0),
]


def make_store(folder, order) -> str:
    uri = f"sqlite:///{folder / 'mlruns.db'}"
    for i in order:
        judge, retention, tokens = TIED[i]
        log_run(
            uri, "ties", folder / str(i), strategies={"judge": judge, "retention": retention},
            params={"seed": 0, "pipeline.budget_tokens": int(tokens)}, correct=[1, 0],
            metrics={"injected_tokens": tokens},
        )  # fmt: skip
    log_run(uri, "ties", folder / "worse", strategies={"judge": "none", "retention": "none"}, params={}, correct=[0, 0])
    return uri


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0)])
def test_the_simplest_configuration_wins_whatever_the_order(tmp_path, capsys, order):
    from memlab.cli import main

    uri = make_store(tmp_path, order)
    assert main(["best", "--experiment", "ties", "--tracking-uri", uri]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert "current_truth_at_1=0.5" in first and "judge=none retention=none" in first
    assert "tie: 4 runs have current_truth_at_1=0.5; chose the simpler configuration" in out
    chosen = next(line for line in out.splitlines() if line.strip().startswith("chosen"))
    assert "0 groups not none, injected_tokens 400" in chosen  # fewest groups, then the cheaper of the two
    tied = [line for line in out.splitlines() if line.strip().startswith("tied")]
    assert len(tied) == 3
    assert "injected_tokens 450" in tied[0] and "1 groups not none" in tied[1] and "2 groups not none" in tied[2]
