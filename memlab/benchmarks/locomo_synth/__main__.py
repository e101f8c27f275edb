"""``python -m memlab.benchmarks.locomo_synth --seed 0 --out FILE``: write a generated LoCoMo-format file."""

from __future__ import annotations

import argparse
import json
import sys

from memlab.core.errors import MemlabError
from memlab.data.locomo_synth.config import SynthConfig
from memlab.data.locomo_synth.expressions import KINDS
from memlab.data.locomo_synth.io import write


def parse_mix(text: str) -> dict[str, float]:
    """``yesterday=2,last_month=1`` -> weights (kinds not listed are not used)."""
    mix = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, weight = part.partition("=")
        try:
            mix[name.strip()] = float(weight) if weight else 1.0
        except ValueError:
            raise MemlabError(f"bad weight in --mix entry '{part}'; use kind=number") from None
    return mix


def build_parser() -> argparse.ArgumentParser:
    """The CLI's argument parser."""
    p = argparse.ArgumentParser(prog="python -m memlab.benchmarks.locomo_synth", description=__doc__)
    p.add_argument("--out", required=True, help="output JSON path (the gold goes to <stem>.gold.json beside it)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--conversations", type=int, default=5, dest="n_conversations")
    p.add_argument("--sessions", type=int, default=10, dest="n_sessions")
    p.add_argument("--turns", type=int, default=16, dest="turns_per_session", help="turns per session")
    p.add_argument("--events", type=int, default=2, dest="events_per_session", help="dated events per session")
    p.add_argument("--distractors", type=float, default=0.5, dest="distractor_rate", help="distractor probability")
    p.add_argument("--adversarial", type=int, default=3, dest="n_adversarial", help="category-5 items per conversation")
    p.add_argument(
        "--split", type=float, default=0.3, dest="split_rate", help="share of mentions split over a follow-up"
    )
    p.add_argument("--mix", default=None, help=f"expression weights kind=w,...; kinds: {', '.join(KINDS)}")
    return p


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, write the file and its gold, print a one-line summary."""
    args = vars(build_parser().parse_args(argv))
    out = args.pop("out")
    mix = args.pop("mix")
    try:
        if mix is not None:
            args["expression_mix"] = parse_mix(mix)
        cfg = SynthConfig.from_mapping(args)
        path, gold_path = write(cfg, out)
    except MemlabError as exc:
        print(f"locomo_synth: error: {exc}", file=sys.stderr)
        return 2
    data = json.loads(path.read_text(encoding="utf-8"))
    n_qa = sum(len(c["qa"]) for c in data)
    n_temporal = sum(q["category"] == 2 for c in data for q in c["qa"])
    print(f"wrote {path} ({len(data)} conversations, {n_qa} questions, {n_temporal} temporal) and {gold_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
