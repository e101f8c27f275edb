"""Write a generated history file: ``python -m memlab.benchmarks.project_history --seed 0 --size 500 --out F``."""

from __future__ import annotations

import argparse
import contextlib
import sys

from memlab.core.errors import MemlabError


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, generate, write; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m memlab.benchmarks.project_history",
        description="Write a seeded project history in the memlab.project_history/1 JSON format.",
    )
    parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    parser.add_argument("--size", type=int, default=500, help="number of memories (default 500)")
    parser.add_argument("--difficulty", default="default", help="easy, default, hard or a number in [0, 1]")
    parser.add_argument("--noise-ratio", type=float, default=0.3, help="fraction of noise memories (default 0.3)")
    parser.add_argument("--style", default="classic", help="phrasing family or families joined by '+'")
    parser.add_argument("--hard-negatives", type=float, default=0.0, help="share of hard-negative events")
    parser.add_argument("--out", required=True, help="output JSON file")
    args = parser.parse_args(argv)
    from memlab.data.project_history.generator import generate

    try:
        difficulty = args.difficulty
        with contextlib.suppress(ValueError):
            difficulty = float(difficulty)
        history = generate(args.seed, args.size, difficulty, args.noise_ratio, args.style, args.hard_negatives)
        path = history.write(args.out)
    except MemlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"wrote {path}: {len(history.memories)} memories, {len(history.relations)} gold relations, "
        f"{len(history.queries)} queries, sha256 {history.sha256()[:12]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
