"""Per-item values of a metric, read from a run's ``predictions.jsonl`` (one record per evaluated item).

Each benchmark writes its own record shape; :data:`SPECS` says, for the metrics reports use, which
records count and what each contributes (``value`` over ``weight``: an accuracy is ``correct`` over 1, a
precision counts only supported items). A metric not listed falls back to a record field of the same
name. :func:`item_values` returns nothing unless the items reproduce the metric the run logged, so a
report never shows an interval computed from the wrong items.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Record = Mapping[str, Any]
#: Fields that identify an item across configurations of one benchmark (first present wins).
KEY_FIELDS: tuple[str, ...] = ("qid", "query_id", "question_id", "index", "id")


@dataclass(frozen=True)
class ItemSpec:
    """How one metric decomposes over items: ``sum(value) / sum(weight)`` over the records ``where`` keeps."""

    where: Callable[[Record], bool]
    value: Callable[[Record], float]
    weight: Callable[[Record], float] = lambda r: 1.0


def _kind(kind: str) -> ItemSpec:
    return ItemSpec(lambda r: r.get("kind") == kind and "correct" in r, lambda r: float(r["correct"]))


def _read(kind: str | None) -> ItemSpec:
    def where(r: Record) -> bool:
        return "reader_correct" in r and (kind is None or r.get("kind") == kind)

    return ItemSpec(where, lambda r: float(r["reader_correct"]))


def _evaluated(r: Record) -> bool:
    return bool(r.get("evaluated")) and "status" in r


def _locomo_dates(datelike: bool) -> ItemSpec:
    def where(r: Record) -> bool:
        return r.get("category") == 2 and "date_correct" in r and (bool(r.get("gold_datelike")) or not datelike)

    return ItemSpec(where, lambda r: float(r["date_correct"]))


SPECS: dict[str, ItemSpec] = {
    "current_truth_at_1": _kind("current"),
    "as_of_acc": _kind("as_of"),
    "when_acc": _kind("when"),
    "history_acc": _kind("history"),
    "reader_acc": _read(None),
    "reader_acc_current": _read("current"),
    "reader_acc_as_of": _read("as_of"),
    "reader_acc_when": _read("when"),
    "resolver_acc": ItemSpec(_evaluated, lambda r: float(r["status"] == "correct")),
    "resolver_coverage": ItemSpec(_evaluated, lambda r: float(r["status"] != "unsupported")),
    "resolver_acc_supported": ItemSpec(
        _evaluated, lambda r: float(r["status"] == "correct"), lambda r: float(r["status"] != "unsupported")
    ),
    "temporal_date_acc": _locomo_dates(False),
    "temporal_date_acc_datelike": _locomo_dates(True),
    "synth_date_acc": ItemSpec(lambda r: "synth_gold_correct" in r, lambda r: float(r["synth_gold_correct"])),
}


def spec_for(metric: str) -> ItemSpec:
    """The metric's spec, or the same-name record field."""
    return SPECS.get(metric) or ItemSpec(
        lambda r: isinstance(r.get(metric), int | float) and not isinstance(r.get(metric), bool),
        lambda r: float(r[metric]),
    )


def item_key(record: Record, position: int) -> object:
    """The item's identity (``conversation`` joined when present, so ids that repeat per conversation differ)."""
    for name in KEY_FIELDS:
        if name in record:
            return (record.get("conversation"), record[name])
    return ("#", position)


def item_values(
    records: Sequence[Record], metric: str, logged: float | None, tolerance: float = 1e-6
) -> dict[object, tuple[float, float]]:
    """``{item key: (value, weight)}`` for ``metric``, or ``{}`` when the items do not reproduce ``logged``."""
    spec = spec_for(metric)
    out: dict[object, tuple[float, float]] = {}
    for position, record in enumerate(records):
        try:
            if spec.where(record):
                out[item_key(record, position)] = (spec.value(record), spec.weight(record))
        except (KeyError, TypeError, ValueError):
            return {}
    total = sum(w for _, w in out.values())
    if not out or not total or logged is None:
        return {}
    return out if abs(sum(v for v, _ in out.values()) / total - logged) <= tolerance else {}
