"""The block a perfect judge would give: the gold replacement for every candidate pair, the experiment's policy else.

    .venv/bin/python experiments/memory_files/oracle.py [--split dev] [extra overrides ...]

Each file runs through ``+experiment=memory_files`` with its judge replaced by one that answers SUPERSEDE for the
file's kept pairs (the gold rule, :func:`memlab.data.memory_files.memories.kept_pairs`: a removed fact and its
successor) and COEXIST for every other pair; the benchmark's own scorer scores the outcomes. What the judge cannot
fix is then left: facts removed without a successor (``other gone``), which the policy never sees go, and kept pairs
the candidates never reach. Prints the pooled rates as one JSON line.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase


class GoldJudge(JudgeBase):
    """SUPERSEDE for the gold pairs of the file in hand (memory ids), COEXIST otherwise."""

    name, version = "gold", 1

    def __init__(self) -> None:
        self.gold: set[tuple[str, str]] = set()

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """The gold relation of the pair."""
        if (older.id, newer.id) in self.gold:
            return Verdict(Relation.SUPERSEDE, 1.0, "gold: kept pair")
        return Verdict(Relation.COEXIST, 1.0, "gold: no kept pair")


def gold_metrics(overrides: list[str]) -> dict[str, float]:
    """The benchmark's metrics of ``+experiment=memory_files`` (with ``overrides``) under :class:`GoldJudge`."""
    from memlab.benchmarks.memory_files.benchmark import file_episode
    from memlab.data.memory_files.memories import kept_pairs
    from memlab.pipeline.episode import run_episode
    from memlab.wiring.build import build_components, build_node
    from memlab.wiring.config import compose

    cfg = compose(["+experiment=memory_files", "tracking=none", *overrides])
    judge = GoldJudge()
    components = replace(build_components(cfg), judge=judge)
    bench = build_node(cfg["dataset"], "dataset")
    data = bench.load(0)
    outcomes = []
    for mfile in data.files:
        episode, ids = file_episode(mfile)
        judge.gold = {(ids[o.id], ids[n.id]) for o, n in kept_pairs(mfile)}
        outcomes.append((run_episode(episode, components), ids))
    return bench.score(data, outcomes, components, 0).metrics


def main() -> None:
    """Run every chosen file with the gold judge and print the pooled rates."""
    from memlab.benchmarks.memory_files.benchmark import RATES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="dev")
    args, extra = parser.parse_known_args()
    metrics = gold_metrics([f"dataset.split={args.split}", *extra])
    pooled = {k: metrics.get(k) for k in (*RATES, "n_files", "n_repos")}
    print(json.dumps({"split": args.split, "judge": "gold", **pooled}))


if __name__ == "__main__":
    main()
