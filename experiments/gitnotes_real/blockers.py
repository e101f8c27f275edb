"""Does a blocker's fix, recorded later in any namespace, supersede it? Candidates with and without knn_k_blockers.

On generated histories (validation seeds only; the real notes' ``blockers`` namespace is sealed): for each
``pipeline.knn_k_blockers`` value, the recall of the gold SUPERSEDE pairs whose older record is a blocker (split by
the namespace of the fix), the blockers still shown after their fix, and supersession_f1 over all pairs.

    python experiments/gitnotes_real/blockers.py [--seeds 1020 1021 1022] [--k 0 10] [--experiment project_history]
"""

from __future__ import annotations

import argparse
import json

from memlab.benchmarks.project_history.evaluate import (
    history_episode,
    predicted_relations,
    score_history,
    stale_since,
)
from memlab.benchmarks.project_history.evaluate_queries import make_answerer
from memlab.core.types import Relation
from memlab.data.project_history.generator import generate
from memlab.pipeline.episode import run_episode
from memlab.wiring.build import build_components
from memlab.wiring.config import compose


def one(seed: int, k: int, experiment: str) -> dict[str, float]:
    """The figures of one generated history (``seed``) with ``knn_k_blockers`` = ``k``."""
    cfg = compose([f"+experiment={experiment}", f"pipeline.knn_k_blockers={k}", f"seed={seed}"], tracking="none")
    components = build_components(cfg)
    data = cfg["dataset"]
    history = generate(seed, int(data["size"]), data["difficulty"], float(data["noise_ratio"]))
    outcome = run_episode(
        history_episode(history), components, make_answerer(history, components, stale_since(history))
    )
    result = score_history(history, outcome, None)
    space = {m.id: m.namespace for m in history.memories}
    predicted = predicted_relations(outcome.store)
    shown = {c.id for c in outcome.block.items}
    out: dict[str, float] = {"supersession_f1": result.metrics["supersession_f1"]}
    for where in ("blockers", "progress"):
        gold = [
            (r.older, r.newer)
            for r in history.relations
            if r.relation is Relation.SUPERSEDE and space[r.older] == "blockers" and space[r.newer] == where
        ]
        found = [p for p in gold if predicted.get(p) is Relation.SUPERSEDE]
        out[f"blocker_fixed_in_{where}"] = float(len(gold))
        out[f"blocker_fix_recall_{where}"] = len(found) / len(gold) if gold else float("nan")
        out[f"blocker_shown_after_fix_{where}"] = float(sum(o in shown for o, _ in gold))
    return out


def main() -> None:
    """Print one JSON line per ``knn_k_blockers`` value."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1020, 1021, 1022])
    ap.add_argument("--k", type=int, nargs="+", default=[0, 10])
    ap.add_argument("--experiment", default="project_history")
    args = ap.parse_args()
    for k in args.k:
        rows = [one(seed, k, args.experiment) for seed in args.seeds]
        mean = {key: sum(r[key] for r in rows) / len(rows) for key in rows[0]}
        print(json.dumps({"knn_k_blockers": k, "seeds": args.seeds, "per_seed": rows, "mean": mean}))


if __name__ == "__main__":
    main()
