"""Pairwise evaluation of a judge on candidate pairs: ``relation_f1_{duplicate,supersede,merge,coexist}``.

Pairs and labels as for training (:func:`~memlab.training.judge.candidate_pairs`:
kNN candidates plus gold pairs; SUPERSEDE includes the transitive closure of the gold chains; pairs absent
from the gold are COEXIST). This scores the judge alone, on the pairs the pipeline would show it, unlike
``supersession_f1`` which scores the chains the whole pipeline builds.

Usage::

    python -m memlab.training.judge_eval --judge slot --seeds 0-2 [--override judge.x=y ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from memlab.errors import MemlabError
from memlab.types import Relation


def relation_f1(gold: list[str], predicted: list[str]) -> dict[str, float]:
    """One-vs-rest F1 per relation (``relation_f1_<name>``) and the pair count; 0.0 for a class never seen."""
    out: dict[str, float] = {}
    for rel in Relation:
        tp = sum(g == p == rel.value for g, p in zip(gold, predicted, strict=True))
        n_pred = sum(p == rel.value for p in predicted)
        n_gold = sum(g == rel.value for g in gold)
        f1 = 2 * tp / (n_pred + n_gold) if n_pred + n_gold else 0.0
        out[f"relation_f1_{rel.value.lower()}"] = f1
    out["n_pairs"] = float(len(gold))
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints the scores as JSON."""
    parser = argparse.ArgumentParser(prog="judge_eval", description=__doc__.splitlines()[0])
    parser.add_argument("--judge", required=True, help="judge option (conf/judge/<name>.yaml)")
    parser.add_argument("--seeds", default="0-2", help="evaluation seeds (keep them < 1000)")
    parser.add_argument("--dataset", default="generator", choices=["generator", "builtin"])
    parser.add_argument("--size", type=int, default=400)
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "tfidf"])
    parser.add_argument("--override", action="append", default=[], help="extra Hydra override, e.g. judge.x=y")
    args = parser.parse_args(argv)
    from memlab.training.judge import candidate_pairs, make_embedder, make_history, parse_seeds

    try:
        judge = _build_judge(args.judge, args.override)
        emb = make_embedder(args.embedder)
        gold: list[str] = []
        pred: list[str] = []
        for seed in parse_seeds(args.seeds):
            if hasattr(judge, "eval_seed"):
                judge.eval_seed = seed
                judge.model_ = None  # re-check the seed rule for each evaluation seed
            history = make_history(args.dataset, seed, args.size)
            observe = getattr(judge, "observe", None)
            if callable(observe):  # as the pipeline does: the whole store before its pairs
                observe(list(history.memories))
            for older, newer, sim, label in candidate_pairs(history, emb):
                gold.append(label)
                pred.append(judge.judge(older, newer, sim).relation.value)
    except MemlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"judge": args.judge, "seeds": args.seeds, "dataset": args.dataset, **relation_f1(gold, pred)}))
    return 0


def _build_judge(option: str, overrides: list[str]) -> Any:
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from memlab.build import build
    from memlab.conf_resolvers import register
    from memlab.paths import CONF_DIR

    register()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=[f"judge={option}", "tracking=none", *overrides])
    return build(OmegaConf.to_container(cfg.judge, resolve=True), "judge")


if __name__ == "__main__":
    sys.exit(main())
