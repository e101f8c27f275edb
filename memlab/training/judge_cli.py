"""Train the learned supersession judge.

Usage::

    python -m memlab.training.judge_cli --seeds 1000-1019,1030-1059 --size 400 --out models/judge

Writes ``learned_judge.joblib`` (model and card) and ``learned_judge.json`` (features, training seeds,
class counts, cross-validated scores). Training seeds must be >= 1000; evaluate on seeds below 1000.
Use the model with ``judge=learned judge.model_path=<out>/learned_judge.joblib``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from memlab.errors import MemlabError


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit code."""
    parser = argparse.ArgumentParser(prog="train_learned", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds", default="1000-1019,1030-1059,1070-1169", help="training seeds, e.g. 1000-1019 (all >= 1000)"
    )
    parser.add_argument("--size", type=int, default=400, help="memories per generated history")
    parser.add_argument("--dataset", default="generator", choices=["generator", "builtin"])
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "tfidf"])
    parser.add_argument("--k", type=int, default=8, help="nearest neighbours per memory (as pipeline.knn_k)")
    parser.add_argument(
        "--min-similarity",
        type=float,
        default=0.3,
        help="cosine floor of a candidate pair (as pipeline.min_pair_similarity)",
    )
    parser.add_argument(
        "--k-namespace", type=int, default=0, help="neighbours within the namespace (as pipeline.knn_k_namespace)"
    )
    parser.add_argument("--out", required=True, type=Path, help="output folder")
    args = parser.parse_args(argv)
    from memlab.training.judge import parse_seeds, save, train

    try:
        model, card = train(
            parse_seeds(args.seeds),
            dataset=args.dataset,
            size=args.size,
            embedder=args.embedder,
            k=args.k,
            min_similarity=args.min_similarity,
            k_namespace=args.k_namespace,
        )
        model_path, card_path = save(model, card, args.out)
    except MemlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"model": str(model_path), "card": str(card_path), "cv": card["cv"]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
