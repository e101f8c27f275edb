"""A/B of ``pipeline.propagate_supersession`` with the experiment's settings on one generated history.

Usage: PYTHONPATH=. python experiments/project_history/propagate_ab.py SEED DIFFICULTY [OVERRIDE ...]
(e.g. ``1 default judge=slot``: the overrides apply to both runs).
"""

import sys

from memlab.benchmarks.base import DatasetCard
from memlab.benchmarks.project_history.evaluate import evaluate_history
from memlab.data.project_history.generator import generate
from memlab.wiring.build import build_components
from memlab.wiring.config import compose

KEYS = (
    "supersession_f1",
    "supersession_precision",
    "supersession_recall",
    "stale_rate_injected",
    "current_coverage_injected",
    "current_truth_at_1",
    "as_of_acc",
    "history_acc",
)


def main(argv: list[str]) -> None:
    """Evaluate with propagation off and on; print the metrics."""
    seed, difficulty, extra = int(argv[0]), argv[1], argv[2:]
    for flag in ("false", "true"):
        components = build_components(
            compose(["+experiment=project_history", *extra, f"+pipeline.propagate_supersession={flag}"])
        )
        card = DatasetCard("t", "1", "0", "-", "-", "supersession_f1")
        metrics = evaluate_history(generate(seed, 400, difficulty), components, card).metrics
        print(f"propagate={flag}", {k: round(metrics[k], 3) for k in KEYS})


if __name__ == "__main__":
    main(sys.argv[1:])
