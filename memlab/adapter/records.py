"""Derived records <-> foundation types (states, summaries, edges, runs) as plain JSON objects."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Any

from memlab.types import (
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
