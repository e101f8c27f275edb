"""What runs report of Astra's extras (insight extraction, identity anchor): the history benchmarks and LoCoMo.

The extras run after the tier phase when ``pipeline.insights`` or ``pipeline.identity_anchor`` is on (both off
by default; their rows in memlab/pipeline/steps.py); memlab/pipeline/insights.py and memlab/pipeline/anchor.py
hold the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memlab.pipeline.store import MemoryStore


def extras_metrics(store: MemoryStore) -> dict[str, float]:
    """The extras' metrics of one store (:func:`extras_metrics_all` of it)."""
    return extras_metrics_all([store])


def extras_metrics_all(stores: Sequence[MemoryStore]) -> dict[str, float]:
    """What Astra's extras did over the stores of a run (one per episode: a LoCoMo conversation, a history).

    Only when an extra ran (empty otherwise, so runs without them report nothing):

    * ``n_narratives``: summaries (narratives) in the stores at the end;
    * ``n_insights``: insights found (when ``pipeline.insights``);
    * ``n_anchor_updates``: consolidations that folded new narratives into the anchor, ``n_anchor_warnings`` and
      ``n_anchor_critical``: those whose drift crossed the warning or critical level (when
      ``pipeline.identity_anchor``); ``n_dissonance_checks``: those that ran a dissonance check
      (absent when ``pipeline.anchor_dissonance`` is off);
    * ``anchor_drift`` (the final drift from the origin, mean over the stores) and ``anchor_drift_max`` (the
      largest) — absent when no store's anchor has an origin (no narrative ever reached it: no drift exists).
    """
    anchored = [s for s in stores if s.anchor is not None]
    with_insights = [s for s in stores if s.insights is not None]
    if not anchored and not with_insights:
        return {}
    out: dict[str, float] = {"n_narratives": float(sum(len(s.summaries) for s in stores))}
    if with_insights:
        out["n_insights"] = float(sum(len(s.insights or {}) for s in with_insights))
    if anchored:
        logs = [[r for r in s.anchor.log if r["action"] != "no_origin"] for s in anchored]
        records = [r for log in logs for r in log]
        out["n_anchor_updates"] = float(sum(r["narratives"] > 0 for r in records))
        out["n_anchor_warnings"] = float(sum(r["action"] == "warning" for r in records))
        out["n_anchor_critical"] = float(sum(r["action"] == "critical" for r in records))
        if any("dissonance_level" in r for r in records):  # the check is on (else the count is undefined)
            out["n_dissonance_checks"] = float(sum("dissonant" in r for r in records))
        finals = [log[-1]["drift_from_origin"] for log in logs if log]
        if finals:
            out["anchor_drift"] = float(sum(finals) / len(finals))
            out["anchor_drift_max"] = float(max(r["drift_from_origin"] for r in records))
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
