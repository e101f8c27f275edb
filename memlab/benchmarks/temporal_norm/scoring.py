"""Pure scoring of resolver output against Duckling records.

The prediction for a phrase is the returned reference that overlaps the phrase's gold span in the text the
resolver read (the sentence, or the phrase itself) on the most characters, preferring points over durations
(a duration is a length, not a time, so it is used only when nothing else overlaps); ties: the one with the
fewest characters outside the span, then the first. References that miss the span are ignored. A phrase
is *supported* when such a reference exists; *correct* when the chosen interval equals the expected one
exactly (both naive in the reference time's zone).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from memlab.benchmarks.metrics import ci_metrics, defined
from memlab.core.types import TemporalRef

CORRECT, WRONG, UNSUPPORTED = "correct", "wrong", "unsupported"


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def choose(refs: Sequence[TemporalRef], span: tuple[int, int] | None = None) -> TemporalRef | None:
    """The reference that stands for the phrase at ``span`` (None: anywhere; see the module docstring)."""
    if span is not None:
        refs = [r for r in refs if _overlap(r.span, span) > 0]
    if not refs:
        return None
    points = [r for r in refs if r.kind != "duration"] or list(refs)
    if span is None:
        return max(points, key=lambda r: (r.span[1] - r.span[0], -r.span[0]))

    def key(r: TemporalRef) -> tuple[int, int, int]:
        inside = _overlap(r.span, span)
        return inside, -(r.span[1] - r.span[0] - inside), -r.span[0]

    return max(points, key=key)


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


def summarise(statuses: Iterable[str]) -> dict[str, float | None]:
    """Acc (correct / all), acc_supported (correct / supported), coverage (supported / all), counts.

    A rate whose denominator is 0 is ``None`` (undefined): acc and coverage with no input, acc_supported
    when nothing is supported.
    """
    items = list(statuses)
    n = len(items)
    correct = sum(s == CORRECT for s in items)
    supported = sum(s != UNSUPPORTED for s in items)
    return {
        "acc": correct / n if n else None,
        "acc_supported": correct / supported if supported else None,
        "coverage": supported / n if n else None,
        "n": float(n),
        "n_correct": float(correct),
        "n_supported": float(supported),
    }


def metrics_for(rows: Sequence[dict[str, Any]], suffix: str = "") -> dict[str, float]:
    """``resolver_*`` metrics with ``suffix`` over prediction rows (each has ``status``); undefined ones absent."""
    s = summarise(r["status"] for r in rows)
    return defined(
        {
            f"resolver_acc{suffix}": s["acc"],
            f"resolver_acc_supported{suffix}": s["acc_supported"],
            f"resolver_coverage{suffix}": s["coverage"],
            f"n_evaluated{suffix}": s["n"],
            f"n_correct{suffix}": s["n_correct"],
            f"n_supported{suffix}": s["n_supported"],
        }
    )


def intervals(rows: Sequence[dict[str, Any]], suffix: str = "", seed: int = 0) -> dict[str, float]:
    """95% percentile-bootstrap intervals (``_ci_low`` / ``_ci_high``) of ``resolver_acc`` and
    ``resolver_acc_supported`` over prediction rows (1,000 resamples of the rows; fixed ``seed``); absent
    where the rate is undefined.
    """
    acc = [1.0 if r["status"] == CORRECT else 0.0 for r in rows]
    sup = [1.0 if r["status"] == CORRECT else 0.0 for r in rows if r["status"] != UNSUPPORTED]
    out: dict[str, float] = {}
    for name, values in (("resolver_acc", acc), ("resolver_acc_supported", sup)):
        out.update(ci_metrics(f"{name}{suffix}", values, seed=seed))
    return out
