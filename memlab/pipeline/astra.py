"""What runs report of Astra's extras (insight extraction, identity anchor).

The extras run after the tier phase when ``pipeline.insights`` or ``pipeline.identity_anchor`` is on (both off
by default; their rows in memlab/pipeline/steps.py); memlab/pipeline/insights.py and memlab/pipeline/anchor.py
hold the rules.
"""

from __future__ import annotations

from typing import Any

from memlab.pipeline.store import MemoryStore


def extras_metrics(store: MemoryStore) -> dict[str, float]:
    """``anchor_drift`` (final drift from the origin) and ``anchor_drift_max`` when the store keeps an anchor;
    ``n_insights`` when it extracts insights. Empty when neither extra ran.
    """
    out: dict[str, float] = {}
    if store.anchor is not None:
        drifts = [r["drift_from_origin"] for r in store.anchor.log]
        out["anchor_drift"] = float(drifts[-1]) if drifts else 0.0
        out["anchor_drift_max"] = float(max(drifts)) if drifts else 0.0
    if store.insights is not None:
        out["n_insights"] = float(len(store.insights))
    return out


def extras_info(store: MemoryStore) -> dict[str, Any]:
    """The anchor's log and its warnings, and the insights, for the run's ``result.json``."""
    out: dict[str, Any] = {}
    if store.anchor is not None:
        log = store.anchor.log
        out["anchor_log"] = list(log)
        out["anchor_warnings"] = [
            f"identity anchor drift {r['drift_from_origin']:.3f} ({r['action']}) at {r['now']} (run {r['run_id']})"
            for r in log
            if r["action"] in ("warning", "critical")
        ]
    if store.insights is not None:
        out["insights"] = [i.to_dict() for i in sorted(store.insights.values(), key=lambda i: (i.end, i.id))]
    return out
