r"""Validation of learned-judge model variants on the run's pipeline, with cached pair features.

Every variant is trained on the pairs of the default training seeds (1000-1019, 1030-1059, 1070-1169; the pairs
the default model trains on: ``learned_train.candidate_pairs`` at k = 20 / 0.2) and scored on validation seeds
(never training seeds, never evaluation seeds < 1000) through ``evaluate_history``, the code path of
``python -m memlab +experiment=project_history``. Pair features are computed once per seed and cached, so
variants that differ only in the classifier or in which feature columns they use cost one fit each.

    PYTHONPATH=$PWD python experiments/judges/validate_models.py --variants v5,v6 \
        --seeds 1020-1029,1060-1069 --cache /tmp/memlab-validate

The pipeline settings, the selector and the tentative-SUPERSEDE threshold are those of
``+experiment=project_history`` (``--knn-k-namespace``, ``--knn-k-slot``, ``--slot-min-confidence``,
``--slot-apply`` and ``--supersede-threshold`` override them; ``-1`` for the threshold means the most probable
class only). Prints one line per (variant, seed) and the mean per variant. Variants (``VARIANTS``), each on the
features of the current code (the text parsing they share changed with model v6, so ``v4`` and ``v5`` are those
models' classifiers and columns, not their exact figures): ``v4`` the model v4 classifier (depth 6) on the
first 43 columns, without the alternatives tables; ``v5_no_alt`` the v5 classifier (depth 4, 40 pairs per
leaf) on those 43 columns; ``v5`` the v5 classifier on the first 47 columns, without the two-hop attribute
similarities; ``v6`` the default model (all columns; models v6 and v7 differ in the parsing, not the columns).
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from memlab.benchmarks.base import DatasetCard
from memlab.benchmarks.project_history.evaluate import evaluate_history
from memlab.core.types import Verdict
from memlab.data.project_history.generator import generate
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.learned import verdict_from_proba
from memlab.strategies.judge.pair_features import FEATURES, pair_features
from memlab.strategies.judge.slot_profiles import SlotProfiles
from memlab.training.judge import (
    build_model,
    candidate_pairs,
    make_embedder,
    parse_seeds,
)

N_NO_ALT = FEATURES.index("profile_alt_max")  # the 43 columns of model v4
N_V5 = FEATURES.index("profile_attr_sim2")  # the 47 columns of model v5


def _v4_model():
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(
        max_iter=200, max_depth=6, learning_rate=0.1, early_stopping=False, random_state=0
    )


#: name -> (classifier factory, number of leading feature columns used)
VARIANTS = {
    "v4": (_v4_model, N_NO_ALT),
    "v5_no_alt": (build_model, N_NO_ALT),
    "v5": (build_model, N_V5),
    "v6": (build_model, len(FEATURES)),
}
KEYS = (
    "supersession_f1",
    "supersession_precision",
    "supersession_recall",
    "stale_rate_injected",
    "current_coverage_injected",
    "current_truth_at_1",
)


def training_rows(seed: int, cache: Path, embedder) -> tuple[np.ndarray, np.ndarray]:
    """Pair features and labels of one training seed's candidate pairs, cached under ``cache``."""
    path = cache / f"train_{seed}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    history = generate(seed, 400)
    profiles = SlotProfiles.from_memories(history.memories)
    pairs = candidate_pairs(history, embedder, 20, 0.2)
    x = np.asarray([pair_features(o, n, s, profiles) for o, n, s, _ in pairs], dtype=float)
    y = np.asarray([label for *_, label in pairs])
    path.write_bytes(pickle.dumps((x, y)))
    return x, y


class TableJudge(JudgeBase):
    """The learned judge's reading of a pair, from a fitted classifier and cached feature rows."""

    name = "learned"
    version = 0

    def __init__(self, model, columns: int, rows: dict, supersede_threshold: float | None = None) -> None:
        self.model, self.columns, self.rows = model, columns, rows
        self.supersede_threshold = supersede_threshold
        self.profiles = None
        keys = list(rows)
        probs = model.predict_proba(np.asarray([rows[k] for k in keys], dtype=float)[:, :columns]) if keys else []
        self.proba = dict(zip(keys, probs, strict=True))

    def observe(self, memories) -> None:
        """Rebuild the slot profiles from the memories seen so far."""
        self.profiles = SlotProfiles.from_memories(memories)

    def judge(self, older, newer, similarity=None) -> Verdict:
        """The verdict on a pair, from its cached class probabilities (computed and cached if new)."""
        key = (older.id, newer.id)
        if key not in self.proba:
            self.rows[key] = pair_features(older, newer, similarity, self.profiles)
            self.proba[key] = self.model.predict_proba(np.asarray([self.rows[key][: self.columns]]))[0]
        return verdict_from_proba(self.proba[key], self.model.classes_, self.supersede_threshold)


def components() -> tuple:
    """The experiment's components (judge ``none``) and its tentative-SUPERSEDE threshold."""
    from memlab.wiring.build import build_components
    from memlab.wiring.config import compose

    cfg = compose(["+experiment=project_history", "judge=none"])
    return build_components(cfg), cfg.get("learned_supersede_threshold")


def main(argv: list[str] | None = None) -> int:
    """Fit each variant on the training seeds, score it on the validation seeds and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="v5,v6")
    parser.add_argument("--seeds", default="1020-1029,1060-1069")
    parser.add_argument("--train-seeds", default="1000-1019,1030-1059,1070-1169")
    parser.add_argument("--knn-k-namespace", type=int, default=None)
    parser.add_argument("--knn-k-slot", type=int, default=None)
    parser.add_argument("--slot-apply", action="store_true", help="slot-only pairs may add edges")
    parser.add_argument("--slot-min-confidence", type=float, default=None)
    parser.add_argument("--supersede-threshold", type=float, default=None)
    parser.add_argument("--cache", default="/tmp/memlab-validate")
    args = parser.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    train_seeds, seeds = parse_seeds(args.train_seeds), parse_seeds(args.seeds)
    if set(train_seeds) & set(seeds) or min(seeds) < 1000:
        print("validation seeds must be >= 1000 and outside the training seeds", file=sys.stderr)
        return 2
    embedder = make_embedder("minilm")
    base, threshold = components()
    if args.knn_k_namespace is not None:
        base = replace(base, settings=replace(base.settings, knn_k_namespace=args.knn_k_namespace))
    if args.knn_k_slot is not None:
        base = replace(base, settings=replace(base.settings, knn_k_slot=args.knn_k_slot))
    if args.slot_min_confidence is not None:
        base = replace(base, settings=replace(base.settings, knn_slot_min_confidence=args.slot_min_confidence))
    if args.slot_apply:
        base = replace(base, settings=replace(base.settings, knn_slot_review=False))
    if args.supersede_threshold is not None:
        threshold = None if args.supersede_threshold < 0 else args.supersede_threshold
    card = DatasetCard("project_history", "1", "-", "generated (MIT)", "validate_models", "supersession_f1")
    results: dict[str, list[dict[str, float]]] = {}
    for name in args.variants.split(","):
        factory, columns = VARIANTS[name]
        model_path = cache / f"model_{name}_{columns}_{train_seeds[0]}-{train_seeds[-1]}_{len(train_seeds)}.pkl"
        if model_path.exists():
            model = pickle.loads(model_path.read_bytes())
        else:
            parts = [training_rows(s, cache, embedder) for s in train_seeds]
            x = np.concatenate([p[0] for p in parts])[:, :columns]
            model = factory().fit(x, np.concatenate([p[1] for p in parts]))
            model_path.write_bytes(pickle.dumps(model))
        for seed in seeds:
            rows_path = cache / f"pipeline_{seed}.pkl"
            rows = pickle.loads(rows_path.read_bytes()) if rows_path.exists() else {}
            judge = TableJudge(model, columns, rows, threshold)
            result = evaluate_history(generate(seed, 400), replace(base, judge=judge), card)
            rows_path.write_bytes(pickle.dumps(judge.rows))
            results.setdefault(name, []).append(result.metrics)
            print(name, seed, " ".join(f"{k} {result.metrics[k]:.3f}" for k in KEYS), flush=True)
    for name, ms in results.items():
        print("MEAN", name, len(ms), " ".join(f"{k} {np.mean([m[k] for m in ms]):.4f}" for k in KEYS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
