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


def test_the_tie_rule_does_not_depend_on_the_order_of_the_runs():
    import itertools

    from memlab.tracking.query import RunRecord, tie_key

    def record(i: int, judge: str, retention: str, tokens: float) -> RunRecord:
        tags = {"memlab.strategy.judge": f"{judge}@1", "memlab.strategy.retention": f"{retention}@1"}
        return RunRecord(f"id{i}", "ties", "FINISHED", 1000 * i, {}, {"injected_tokens": tokens}, tags)

    runs = [record(i, *row) for i, row in enumerate(TIED)]
    chosen = {min(order, key=tie_key).run_id for order in itertools.permutations(runs)}
    assert chosen == {"id3"}  # no group but none, then 400 tokens < 450


@pytest.mark.slow  # about 4 s: with the slow suite (CI runs it)
def test_the_simplest_configuration_wins_and_the_tie_is_printed(tmp_path, capsys):
    from memlab.cli import main

    uri = make_store(tmp_path, (3, 2, 1, 0))  # the simplest run first, so "newest wins" would pick another
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
