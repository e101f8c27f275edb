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


def error_classes(rows: list[dict], answer, top_n: int) -> dict[str, dict[str, int]]:
    """Per conversation, misses on date-like gold by class: the evidence turn is not among the units read
    (``not_read``), another unit was chosen (``wrong_unit``), the evidence turn was chosen but dated or written
    wrong (``wrong_date``); ``correct`` otherwise.
    """
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        if not r["gold_datelike"]:
            continue
        units = units_from_records(r["context_units"])
        read = {u.meta.get("dia_id") for u in units[:top_n]}
        ans = answer(r["question"], units)
        by_id = {u.id: u.meta.get("dia_id") for u in units}
        if ans is not None and date_correct(ans.text, r["gold"]):
            kind = "correct"
        elif not read & set(r["evidence"]):
            kind = "not_read"
        elif ans is None or by_id.get(ans.source) not in r["evidence"]:
            kind = "wrong_unit"
        else:
            kind = "wrong_date"
        counts = out.setdefault(r["conversation"], {"correct": 0, "not_read": 0, "wrong_unit": 0, "wrong_date": 0})
        counts[kind] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the old answerer's plain figure at its experiment's setting and its LOOCV estimate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=Path, help="cached prediction rows (JSON lines) of a locomo_temporal run")
    parser.add_argument("--commit", default="b231ae8")
    parser.add_argument("--classes", action="store_true", help="also print the error classes, old and current")
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
    if args.classes:
        from memlab.benchmarks.locomo.answerer import AnswerConfig, answer_temporal

        now, then = AnswerConfig(), config_at(old, points[shipped])
        answerers = {
            f"before ({args.commit})": (lambda q, u: old.answer_temporal(q, u, resolver, then), then.top_n),
            "after (defaults)": (lambda q, u: answer_temporal(q, u, resolver, now), now.top_n),
        }
        header = [
            "answerer",
            "conversation",
            "correct",
            "evidence not read",
            "other unit chosen",
            "evidence unit, date wrong",
        ]
        print("\n| " + " | ".join(header) + " |")
        print("|---|---|---|---|---|---|")
        for label, (answer, top_n) in answerers.items():
            classes = error_classes(rows, answer, top_n)
            total = {k: sum(c[k] for c in classes.values()) for k in next(iter(classes.values()))}
            for conv, c in [*sorted(classes.items()), ("all", total)]:
                print(
                    f"| {label} | {conv} | {c['correct']} | {c['not_read']} | {c['wrong_unit']} | {c['wrong_date']} |"
                )
    return 0


def config_at(module: types.ModuleType, point: dict):
    """The old module's ``AnswerConfig`` at ``point``."""
    return module.AnswerConfig(**point)


if __name__ == "__main__":
    sys.exit(main())
