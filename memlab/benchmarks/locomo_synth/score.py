"""Date accuracy against the generator's exact gold intervals (no parsing of the gold answer text).

A temporal prediction is correct when it normalises to an interval that lies inside the gold interval
and is not coarser (the LoCoMo benchmark's rule, applied to the exact gold). Metrics: ``synth_date_acc``
over every temporal item, ``synth_date_acc_<kind>`` per expression kind, ``synth_date_acc_distracted``
and ``synth_date_acc_undistracted`` (items with and without distractor turns), with their counts
``n_synth_temporal``, ``n_synth_temporal_<kind>``, ``n_synth_temporal_distracted`` and
``n_synth_temporal_undistracted``; an accuracy over no item is absent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from memlab.benchmarks.metrics import defined, mean


def qa_index(qid: str) -> int:
    """``locomo_3_qa17`` -> 17."""
    return int(qid.rsplit("_qa", 1)[1])


def gold_scores(rows: Sequence[dict[str, Any]], items: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Score temporal rows against gold ``items``; adds ``synth_gold_correct`` and ``synth_kind`` to each row."""
    from memlab.benchmarks.locomo.dates import Interval, parse_answer

    gold = {(i["sample_id"], int(i["qa_index"])): i for i in items}
    scored: list[tuple[dict[str, Any], float]] = []
    for row in rows:
        item = gold.get((row.get("conversation"), qa_index(str(row.get("qid", "_qa-1")))))
        if row.get("category") != 2 or item is None:
            continue
        target = Interval(date.fromisoformat(item["start"]), date.fromisoformat(item["end"]), item["grain"])
        predicted = parse_answer(row.get("prediction", ""))
        correct = float(predicted is not None and predicted.within(target))
        row.update(synth_gold_correct=bool(correct), synth_kind=item["kind"], synth_distractors=item["distractors"])
        scored.append((item, correct))
    metrics = {"n_synth_temporal": float(len(scored)), "synth_date_acc": mean(c for _, c in scored)}
    for kind in sorted({i["kind"] for i, _ in scored}):
        metrics[f"synth_date_acc_{kind}"] = mean(c for i, c in scored if i["kind"] == kind)
        metrics[f"n_synth_temporal_{kind}"] = float(sum(1 for i, _ in scored if i["kind"] == kind))
    for name, distracted in (("distracted", True), ("undistracted", False)):
        metrics[f"synth_date_acc_{name}"] = mean(c for i, c in scored if bool(i["distractors"]) is distracted)
        metrics[f"n_synth_temporal_{name}"] = float(sum(1 for i, _ in scored if bool(i["distractors"]) is distracted))
    return defined(metrics)
