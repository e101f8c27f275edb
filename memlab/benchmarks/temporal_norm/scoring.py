"""Pure scoring of resolver output against Duckling records.

The prediction for a phrase is the returned reference covering the most characters of the phrase (ties:
the first), preferring points over durations (a duration is a length, not a time, so it is used only when
nothing else was returned). A phrase is *supported* when the resolver returned anything; *correct* when
the chosen interval equals the expected one exactly (both naive in the reference time's zone).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from memlab.types import TemporalRef

CORRECT, WRONG, UNSUPPORTED = "correct", "wrong", "unsupported"


def choose(refs: Sequence[TemporalRef]) -> TemporalRef | None:
    """The reference that stands for the whole phrase (see the module docstring)."""
    if not refs:
        return None
    points = [r for r in refs if r.kind != "duration"] or list(refs)
    return max(points, key=lambda r: (r.span[1] - r.span[0], -r.span[0]))


def local(t: datetime, ref_time: datetime) -> datetime:
    """``t`` as a naive datetime in ``ref_time``'s zone."""
    if t.tzinfo is not None and ref_time.tzinfo is not None:
        t = t.astimezone(ref_time.tzinfo)
    return t.replace(tzinfo=None)


def status(ref: TemporalRef | None, start: datetime, end: datetime, ref_time: datetime) -> str:
    """``correct``, ``wrong`` or ``unsupported`` for one phrase."""
    if ref is None:
        return UNSUPPORTED
    ok = local(ref.start, ref_time) == start and local(ref.end, ref_time) == end
    return CORRECT if ok else WRONG


def summarise(statuses: Iterable[str]) -> dict[str, float]:
    """Acc (correct / all), acc_supported (correct / supported), coverage (supported / all), counts.

    Empty input gives zeros (never a division by zero); acc_supported is 0 when nothing is supported.
    """
    items = list(statuses)
    n = len(items)
    correct = sum(s == CORRECT for s in items)
    supported = sum(s != UNSUPPORTED for s in items)
    return {
        "acc": correct / n if n else 0.0,
        "acc_supported": correct / supported if supported else 0.0,
        "coverage": supported / n if n else 0.0,
        "n": float(n),
        "n_correct": float(correct),
        "n_supported": float(supported),
    }


def metrics_for(rows: Sequence[dict[str, Any]], suffix: str = "") -> dict[str, float]:
    """``resolver_*`` metrics with ``suffix`` over prediction rows (each has ``status``)."""
    s = summarise(r["status"] for r in rows)
    return {
        f"resolver_acc{suffix}": s["acc"],
        f"resolver_acc_supported{suffix}": s["acc_supported"],
        f"resolver_coverage{suffix}": s["coverage"],
        f"n_evaluated{suffix}": s["n"],
        f"n_correct{suffix}": s["n_correct"],
        f"n_supported{suffix}": s["n_supported"],
    }
