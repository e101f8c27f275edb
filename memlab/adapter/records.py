"""Derived records <-> foundation types (states, summaries, edges, runs) as plain JSON objects."""

from __future__ import annotations

import math
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from memlab.core.types import (
    MAX_ACCESS_TIMES,
    ConsolidationResult,
    Edge,
    EdgeType,
    MemoryState,
    Summary,
    SummaryDecision,
    SupersededFact,
    Tier,
)

#: Fields of a ``mem-meta`` record that recall updates (consolidation keeps whatever is stored).
ACTIVATION_FIELDS: tuple[str, ...] = ("activation_count", "last_accessed", "access_times")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _dt(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def state_record(state: MemoryState) -> dict[str, Any]:
    """A memory's consolidation state as a ``mem-meta`` record (id = memory id)."""
    return {
        "id": state.memory_id,
        "tier": state.tier.value,
        "activation_count": state.activation_count,
        "last_accessed": _iso(state.last_accessed),
        "retention": round(float(state.retention), 6),
        "superseded_by": state.superseded_by,
        "valid_until": _iso(state.valid_until),
        "duplicate_of": state.duplicate_of,
        "consolidated_into": state.consolidated_into,
        "access_times": [t.isoformat() for t in state.access_times],
    }


def state_from(record: dict[str, Any]) -> MemoryState:
    """Inverse of :func:`state_record`."""
    return MemoryState(
        memory_id=record["id"],
        tier=Tier(record.get("tier", "hot")),
        activation_count=int(record.get("activation_count") or 0),
        last_accessed=_dt(record.get("last_accessed")),
        retention=float(record.get("retention", 1.0)),
        superseded_by=record.get("superseded_by"),
        valid_until=_dt(record.get("valid_until")),
        duplicate_of=record.get("duplicate_of"),
        consolidated_into=record.get("consolidated_into"),
        access_times=tuple(datetime.fromisoformat(t) for t in record.get("access_times") or ()),
    )


def bump_activation(record: dict[str, Any], now: datetime, keep: int) -> dict[str, Any]:
    """A ``mem-meta`` record after one more recall at ``now`` (the last ``keep`` access times kept)."""
    times = [*(record.get("access_times") or ()), now.isoformat()][-keep:]
    return {
        **{k: v for k, v in record.items() if k != "written_at"},
        "activation_count": int(record.get("activation_count") or 0) + 1,
        "last_accessed": now.isoformat(),
        "access_times": times,
    }


def merge_activation(best: dict[str, Any], found: list[dict[str, Any]]) -> dict[str, Any]:
    """``best`` (the newest record of a memory) with the activations of every record ``found`` for it: recalls
    that clones recorded apart are all counted, whatever their clocks or the order the records arrived in.
    """
    times = {t for r in found for t in r.get("access_times") or ()}
    top = max(found, key=lambda r: int(r.get("activation_count") or 0))
    extra = len(times - set(top.get("access_times") or ()))
    last = [r["last_accessed"] for r in found if r.get("last_accessed")]
    return {
        **best,
        "activation_count": int(top.get("activation_count") or 0) + extra,
        "last_accessed": max(last, key=datetime.fromisoformat) if last else None,
        "access_times": sorted(times, key=datetime.fromisoformat)[-MAX_ACCESS_TIMES:],
    }


def summary_record(summary: Summary) -> dict[str, Any]:
    """A summary as a ``mem-summaries`` record."""
    data = asdict(summary)
    data["temporal_start"] = _iso(summary.temporal_start)
    data["temporal_end"] = _iso(summary.temporal_end)
    return data


def summary_from(record: dict[str, Any]) -> Summary:
    """Inverse of :func:`summary_record`."""
    return Summary(
        id=record["id"],
        namespace=record["namespace"],
        summary=record["summary"],
        key_facts=tuple(record.get("key_facts") or ()),
        decisions=tuple(SummaryDecision(**d) for d in record.get("decisions") or ()),
        superseded_facts=tuple(SupersededFact(**f) for f in record.get("superseded_facts") or ()),
        temporal_start=_dt(record["temporal_start"]),
        temporal_end=_dt(record["temporal_end"]),
        source_ids=tuple(record.get("source_ids") or ()),
        confidence=float(record.get("confidence", 1.0)),
    )


def edge_record(edge: Edge) -> dict[str, Any]:
    """An edge as a ``mem-edges`` record (id = ``source>target>type``)."""
    return {
        "id": f"{edge.source}>{edge.target}>{edge.type.value}",
        "source": edge.source,
        "target": edge.target,
        "type": edge.type.value,
        "weight": float(edge.weight),
        "reason": edge.reason,
        "created_at": _iso(edge.created_at),
        "run_id": edge.run_id,
    }


def edge_from(record: dict[str, Any]) -> Edge:
    """Inverse of :func:`edge_record`."""
    return Edge(
        record["source"],
        record["target"],
        EdgeType(record["type"]),
        weight=float(record.get("weight", 1.0)),
        reason=record.get("reason") or "",
        created_at=_dt(record.get("created_at")),
        run_id=record.get("run_id"),
    )


def run_record(result: ConsolidationResult, extra: dict[str, Any]) -> dict[str, Any]:
    """A consolidation run as a ``mem-runs`` record (transitions counted, not listed)."""
    counts = result.counts()
    counts["id"] = counts.pop("run_id")
    counts["review"] = counts.pop("review_queue")
    return {**counts, **extra}


#: How far in the future a record's ``written_at`` may lie (clocks of other clones differ a little).
WRITTEN_AT_SKEW = timedelta(minutes=15)
#: Why a record dated beyond that is not read (yet).
FUTURE = "written_at lies in the future"
#: Largest magnitude of a stored score or count (beyond it a record is not one memlab wrote).
_LIMIT = 1e9
_MAX_LIST = 10_000


def _aware(value: datetime | None, name: str) -> None:
    if value is not None and (value.tzinfo is None or value.utcoffset() is None):
        raise ValueError(f"{name} has no time zone")


def _number(value: Any, name: str, low: float = -_LIMIT, high: float = _LIMIT) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} is not a number")
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"{name} out of range")


def _text(value: Any, name: str, optional: bool = True) -> None:
    if not (isinstance(value, str) or (optional and value is None)):
        raise ValueError(f"{name} is not text")


def _texts(value: Any, name: str) -> None:
    if value is not None and (not isinstance(value, list) or len(value) > _MAX_LIST):
        raise ValueError(f"{name} is not a list")
    for item in value or ():
        _text(item, name, optional=False)


def written_at(record: dict[str, Any], now: datetime) -> datetime:
    """A record's ``written_at``: an ISO time with a time zone, no later than ``now`` + :data:`WRITTEN_AT_SKEW`.

    Raises:
        ValueError: Missing, not an ISO time, naive, or in the future.
    """
    value = record.get("written_at")
    if not isinstance(value, str) or len(value) > 64:
        raise ValueError("written_at is missing")
    stamp = datetime.fromisoformat(value)
    _aware(stamp, "written_at")
    if stamp > now + WRITTEN_AT_SKEW:
        raise ValueError(FUTURE)
    return stamp


def validate(kind: str, record: dict[str, Any]) -> None:
    """Check one derived record of ``kind`` (``meta``, ``summaries``, ``edges``, ``runs``) field by field.

    Numbers finite and in range, datetimes with a time zone, tiers and edge types known, texts text.

    Raises:
        ValueError: The first problem found (any conversion error is turned into one).
    """
    try:
        if kind == "meta":
            state = state_from(record)
            _number(record.get("activation_count") or 0, "activation_count", 0)
            _number(record.get("retention", 1.0), "retention")
            for name in ("superseded_by", "duplicate_of", "consolidated_into"):
                _text(record.get(name), name)
            for name, value in (("last_accessed", state.last_accessed), ("valid_until", state.valid_until)):
                _aware(value, name)
            if len(state.access_times) > _MAX_LIST:
                raise ValueError("access_times is too long")
            for t in state.access_times:
                _aware(t, "access_times")
        elif kind == "summaries":
            summary = summary_from(record)
            for name in ("namespace", "summary"):
                _text(record.get(name), name, optional=False)
            _texts(record.get("key_facts"), "key_facts")
            _texts(record.get("source_ids"), "source_ids")
            _number(record.get("confidence", 1.0), "confidence", 0.0, 1.0)
            for decision in summary.decisions:
                _text(decision.decision, "decisions", optional=False)
            _aware(summary.temporal_start, "temporal_start")
            _aware(summary.temporal_end, "temporal_end")
        elif kind == "edges":
            edge = edge_from(record)
            for name in ("source", "target"):
                _text(record.get(name), name, optional=False)
            _number(record.get("weight", 1.0), "weight")
            _aware(edge.created_at, "created_at")
        else:
            for name, value in record.items():
                if isinstance(value, float) and not math.isfinite(value):
                    raise ValueError(f"{name} is not finite")
    except ValueError:
        raise
    except Exception as exc:  # KeyError, TypeError, OverflowError, ...: all the same to a reader
        raise ValueError(f"{type(exc).__name__}: {str(exc)[:80]}") from None
