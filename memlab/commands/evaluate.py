"""``memlab eval judge``: score a judge alone on the candidate pairs the pipeline would show it.

Pairwise ``relation_f1_{duplicate,supersede,merge,coexist}`` on generated (or the built-in) histories, with
pairs and labels as for training (:mod:`memlab.training.judge_eval`). Unlike ``supersession_f1`` of a run,
this scores the judge without the rest of the policy. Keep evaluation seeds below 1000, and use the
validation seeds (1020-1029, 1060-1069) while choosing a model.
"""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab eval``."""
    parser.add_argument("what", choices=["judge"], help="what to evaluate")
    parser.add_argument("--judge", default="learned", help="judge option (conf/judge/<name>.yaml)")
    parser.add_argument("--model", default=None, help="with --judge learned: a model file (default: the shipped one)")
    parser.add_argument("--seeds", default="0-2", help="evaluation seeds (keep them < 1000)")
    parser.add_argument("--dataset", default="generator", choices=["generator", "builtin"])
    parser.add_argument("--size", type=int, default=400)
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "tfidf"])
    parser.add_argument("--k", type=int, default=20, help="nearest neighbours per memory (as pipeline.knn_k)")
    parser.add_argument("--min-similarity", type=float, default=0.2, help="cosine floor of a candidate pair")
    parser.add_argument("--override", action="append", default=[], help="extra Hydra override, e.g. judge.x=y")


def run(args: argparse.Namespace) -> int:
    """Print the scores as JSON."""
    from memlab.training.judge_eval import evaluate

    overrides = list(args.override)
    if args.model:
        overrides.append(f"judge.model_path={args.model}")
    scores = evaluate(
        args.judge,
        args.seeds,
        dataset=args.dataset,
        size=args.size,
        embedder=args.embedder,
        k=args.k,
        min_similarity=args.min_similarity,
        overrides=overrides,
    )
    print(json.dumps({"judge": args.judge, "seeds": args.seeds, "dataset": args.dataset, **scores}))
    return 0
