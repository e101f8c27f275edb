"""Each job of a sweep against the best one, paired over the items both answered (from their ``predictions.jsonl``).

A comparison says whether a difference is distinguishable: its paired 95% bootstrap interval excludes 0
(:func:`memlab.benchmarks.stats.paired_test`). A job whose items do not reproduce its logged metric (a pair-level
F1, say) gets no comparison.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memlab.benchmarks.items import item_values
from memlab.benchmarks.stats import PairedResult, paired_test
from memlab.sweeps.table import ranked
from memlab.tracking.query import run_records


def job_items(row: Any, uri: str | None, folder: Path) -> dict[object, tuple[float, float]]:
    """The job's per-item ``(value, weight)`` of its main metric (empty when it has none)."""
    if row.value is None or row.value != row.value or not row.main_metric:
        return {}
    records = run_records(row.run_id, uri, folder)
    return {} if records is None else item_values(records, row.main_metric, row.value)


def paired_vs_best(rows: Sequence[Any], uri: str | None) -> dict[str, PairedResult]:
    """Run id -> the job minus the best job (``#1``), for every other job with items shared with it."""
    ordered = ranked(list(rows))
    if len(ordered) < 2:
        return {}
    with tempfile.TemporaryDirectory(prefix="memlab-sweep-items-") as tmp:
        best = job_items(ordered[0], uri, Path(tmp))
        if not best:
            return {}
        out = {}
        for row in ordered[1:]:
            if row.main_metric != ordered[0].main_metric:
                continue
            res = paired_test(best, job_items(row, uri, Path(tmp)))
            if res is not None:
                out[row.run_id] = res
    return out
