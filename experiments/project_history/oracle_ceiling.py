"""Ceiling of the pipeline with a perfect judge: the gold relation for every candidate pair it is shown.

Usage: PYTHONPATH=. python experiments/project_history/oracle_ceiling.py EMBEDDER K SIZE DIFFICULTY [SEED]
(e.g. ``minilm 20 400 default 9``). What it measures is what candidate generation (k nearest neighbours),
recall and injection lose when the judge makes no mistake.
"""

import sys
from dataclasses import replace

from memlab.benchmarks.base import DatasetCard
from memlab.benchmarks.project_history import history_metrics as hm
from memlab.benchmarks.project_history.evaluate import evaluate_history
from memlab.core.types import Relation, Verdict
from memlab.data.project_history.generator import generate
from memlab.strategies.judge.base import JudgeBase
from memlab.wiring.build import build_components
from memlab.wiring.config import compose

KEYS = (
    "supersession_recall",
    "supersession_f1",
    "stale_rate_injected",
    "current_coverage_injected",
    "current_truth_at_1",
    "as_of_acc",
    "when_acc",
    "history_acc",
    "stale_rate_top5",
    "relation_f1_duplicate",
    "relation_f1_merge",
    "relation_f1_coexist",
)


def main(argv: list[str]) -> None:
    """Evaluate the oracle judge and print the metrics."""
    emb, k, size, difficulty = argv[0], int(argv[1]), int(argv[2]), argv[3]
    seed = int(argv[4]) if len(argv) > 4 else 9
    history = generate(seed, size, difficulty)
    gold = hm.gold_labels([(r.older, r.newer, r.relation) for r in history.relations])

    class Oracle(JudgeBase):
        name, version = "oracle", 1

        def judge(self, older, newer, similarity=None):
            return Verdict(gold.get((older.id, newer.id), Relation.COEXIST), 1.0, "gold")

    overrides = [f"embedder={emb}", "clusterer=none", "selector=current_facts", f"pipeline.knn_k={k}"]
    built = build_components(compose([*overrides, "pipeline.min_pair_similarity=0.0"]))
    components = replace(built, judge=Oracle())
    metrics = evaluate_history(history, components, DatasetCard("t", "1", "0", "-", "-", "supersession_f1")).metrics
    print(emb, k, size, difficulty, seed, {key: round(metrics[key], 3) for key in KEYS})


if __name__ == "__main__":
    main(sys.argv[1:])
