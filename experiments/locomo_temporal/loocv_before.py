"""The "before" column: the temporal answerer of an earlier commit, scored with the same fold logic on the same
cached contexts (the rows ``loocv.py`` cached), over the settings grid that answerer had.

    PYTHONPATH=$PWD python experiments/locomo_temporal/loocv_before.py .cache/locomo_loocv/tuned-<hash>.jsonl

The old module is read with ``git show <commit>:memlab/benchmarks/locomo/answerer.py`` (default: b231ae8, the
answerer before issue 17) and executed in memory; nothing of it is kept in the tree.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memlab.benchmarks.locomo.contexts import units_from_records  # noqa: E402
from memlab.benchmarks.locomo.cv import MemoResolver, expand_grid, loocv  # noqa: E402
from memlab.benchmarks.locomo.dates import date_correct  # noqa: E402
from memlab.benchmarks.metrics import bootstrap_ci  # noqa: E402
from memlab.strategies.temporal.rules import RulesResolver  # noqa: E402

#: The old answerer's knobs (its experiment used top_n=5, expression_bonus=5, min_confidence=0.5, month_bonus=0).
OLD_GRID = {"top_n": [3, 5], "expression_bonus": [2.0, 5.0], "min_confidence": [0.0, 0.5], "month_bonus": [0.0, 1.0]}


def old_answerer(commit: str) -> types.ModuleType:
    """The answerer module as it was at ``commit``."""
    source = subprocess.run(
        ["git", "show", f"{commit}:memlab/benchmarks/locomo/answerer.py"], cwd=ROOT, check=True, capture_output=True
    ).stdout.decode()
    module = types.ModuleType("old_answerer")
    sys.modules["old_answerer"] = module  # dataclasses look their module up
    exec(compile(source, f"{commit}:answerer.py", "exec"), module.__dict__)
    return module


def main(argv: list[str] | None = None) -> int:
    """Print the old answerer's plain figure at its experiment's setting and its LOOCV estimate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=Path, help="cached prediction rows (JSON lines) of a locomo_temporal run")
    parser.add_argument("--commit", default="b231ae8")
    args = parser.parse_args(argv)
    old = old_answerer(args.commit)
    rows = [json.loads(line) for line in args.rows.read_text().splitlines()]
    rows = [r for r in rows if r["category"] == 2 and "context_units" in r and not r.get("flagged")]
    groups = {r["qid"]: r["conversation"] for r in rows if r["gold_datelike"]}
    units = {r["qid"]: units_from_records(r["context_units"]) for r in rows}
    resolver = MemoResolver(RulesResolver())
    points = expand_grid(OLD_GRID)
    values = []
    for point in points:
        config = old.AnswerConfig(**point)
        out = {}
        for r in rows:
            if r["qid"] in groups:
                ans = old.answer_temporal(r["question"], units[r["qid"]], resolver, config)
                out[r["qid"]] = float(date_correct(ans.text if ans else "", r["gold"]))
        values.append(out)
    shipped = points.index({"top_n": 5, "expression_bonus": 5.0, "min_confidence": 0.5, "month_bonus": 0.0})
    folds, pooled = loocv(values, groups)
    low, high = bootstrap_ci([pooled[q] for q in sorted(pooled)], seed=0)
    convs = sorted(set(groups.values()))
    plain = {c: sum(values[shipped][q] for q in groups if groups[q] == c) / sum(1 for q in groups if groups[q] == c)
             for c in convs}  # fmt: skip
    print(
        f"old answerer ({args.commit}) at its experiment's setting: {sum(values[shipped].values()) / len(groups):.3f}"
    )
    print("  per conversation: " + ", ".join(f"{c} {v:.3f}" for c, v in plain.items()))
    print(f"LOOCV over its grid ({len(points)} settings): {sum(pooled.values()) / len(pooled):.3f} "
          f"(95% CI {low:.3f}–{high:.3f})")  # fmt: skip
    print("  per fold: " + ", ".join(f"{f.heldout} {f.heldout_score:.3f} ({points[f.chosen]})" for f in folds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
