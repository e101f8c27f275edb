"""Astra's temporal continuity anchor: an identity embedding that follows the narratives, and its drift.

Astra ("Memory Consolidation Layer Specification", Temporal Continuity Anchor, and its ``TemporalAnchor``):
after each consolidation the live anchor moves towards the new narratives, ``updated = 0.9·live + 0.1·new``
(``anchor_weight_new``), and is normalised; ``drift`` is the cosine distance of the live anchor from the
origin anchor; a drift above 0.2 (``anchor_drift_warning``) logs a warning, above 0.4
(``anchor_drift_critical``) a critical one. memlab's rendering:

* the origin is the embedding of the first narratives the anchor sees (Astra's origin is an identity set
  up at initialisation; a project has none, so its first sessions stand for it);
* a narrative is folded in once its session has ended — once a memory recorded after its end is visible
  (the next session began; Astra consolidates a session when it ends). The narrative of the session still
  open at a consolidation may grow and be replaced at the next one, and would otherwise be folded again at
  each stage; the session open at the end of an episode is never folded;
* ``new`` is the normalised mean of the unit embeddings of the ended sessions' narratives (summaries) this
  consolidation adds (Astra's implementation embeds up to 10 narratives joined into one text; MiniLM reads at most 256
  word pieces, so joining would embed little more than the first);
* every consolidation is logged (``store.anchor.log``): narratives folded in, drift from the origin and
  from the previous anchor, and ``action`` — ``origin``, ``updated``, ``unchanged`` (no new narrative),
  ``warning`` or ``critical``;
* above ``anchor_dissonance`` (Astra's implementation: 0.3) a dissonance check runs
  (:func:`dissonance_check`): Astra asks its model whether the new experiences conflict with the identity; without
  a model memlab names the narratives that pulled the anchor away (those farther from the origin than the live
  anchor is), logs them (the record's ``dissonant``: their ids) and resolves the check by
  integrating them: the live anchor becomes the origin, so drift is measured from the identity the project has
  now and a later check fires only on new drift.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from memlab.pipeline.store import MemoryStore
from memlab.pipeline.units import summary_unit
from memlab.pipeline.vectors import StoreEmbedder
from memlab.wiring.components import Components

logger = logging.getLogger(__name__)


@dataclass
class IdentityAnchor:
    """The anchor of one store.

    Attributes:
        origin: The origin anchor (unit vector), ``None`` until the first narrative.
        live: The live anchor (unit vector).
        incorporated: Narrative ids already folded in.
        log: One record per consolidation (see the module docstring).
    """

    origin: np.ndarray | None = None
    live: np.ndarray | None = None
    incorporated: set[str] = field(default_factory=set)
    log: list[dict[str, Any]] = field(default_factory=list)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def drift(self) -> float:
        """The current drift from the origin (0.0 before the origin exists)."""
        return cosine_distance(self.live, self.origin) if self.origin is not None else 0.0


def unit(vector: np.ndarray) -> np.ndarray:
    """``vector`` scaled to length 1 (a zero vector stays zero)."""
    vector = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def cosine_distance(a: np.ndarray | None, b: np.ndarray | None) -> float:
    """``1 − cos(a, b)``; 0.0 when either is missing or zero (Astra's convention)."""
    if a is None or b is None:
        return 0.0
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0 or nb == 0:
        return 0.0
    return float(1.0 - float(np.dot(a, b)) / (na * nb))


def action_for(drift: float, warning: float, critical: float) -> str:
    """``critical`` above ``critical``, ``warning`` above ``warning``, else ``updated``."""
    if drift > critical:
        return "critical"
    return "warning" if drift > warning else "updated"


def fold(
    anchor: IdentityAnchor,
    vectors: Sequence[np.ndarray],
    *,
    weight: float = 0.1,
    warning: float = 0.2,
    critical: float = 0.4,
) -> dict[str, Any]:
    """Fold the embeddings of new narratives into ``anchor`` (in place); returns the log record's numbers."""
    previous = anchor.live
    first = anchor.origin is None and len(vectors) > 0
    if len(vectors):
        new = unit(np.mean([unit(v) for v in vectors], axis=0))
        if first:
            anchor.origin = anchor.live = previous = new
        else:
            anchor.live = unit((1.0 - weight) * anchor.live + weight * new)
    drift = anchor.drift
    if anchor.origin is None:
        action = "no_origin"
    else:
        action = action_for(drift, warning, critical)
        if action == "updated":
            action = "origin" if first else ("updated" if len(vectors) else "unchanged")
    return {
        "narratives": len(vectors),
        "drift_from_origin": round(drift, 6),
        "drift_from_previous": round(cosine_distance(anchor.live, previous), 6),
        "action": action,
    }


def dissonance_check(anchor: IdentityAnchor, level: float | None) -> list[str] | None:
    """When the drift passes ``level``: the narratives farther from the origin than the live anchor (ids in
    time order of folding), and the origin re-based on the live anchor; ``None`` when no check runs.
    """
    if level is None or anchor.origin is None or not anchor.drift > level:
        return None
    drift = anchor.drift
    dissonant = [i for i, v in anchor.vectors.items() if cosine_distance(v, anchor.origin) > drift]
    anchor.origin = anchor.live
    return dissonant


def update_anchor(store: MemoryStore, components: Components, now: datetime, run_id: str) -> dict[str, Any]:
    """Fold this consolidation's new narratives into ``store.anchor`` (created on first use) and log it."""
    settings = components.settings
    if store.anchor is None:
        store.anchor = IdentityAnchor()
    anchor: IdentityAnchor = store.anchor
    visible = store.ordered(until=now)
    latest = visible[-1].timestamp if visible else None
    new = sorted(
        (
            s
            for s in store.summaries.values()
            if s.id not in anchor.incorporated and latest is not None and s.temporal_end < latest
        ),
        key=lambda s: (s.temporal_end, s.id),
    )
    vectors: list[np.ndarray] = []
    if new:
        vectors = list(StoreEmbedder(store, components.embedder).encode([summary_unit(s).text for s in new]))
        anchor.incorporated.update(s.id for s in new)
        anchor.vectors.update((s.id, v) for s, v in zip(new, vectors, strict=True))
    record = {"run_id": run_id, "now": now.isoformat()}
    record.update(
        fold(
            anchor,
            vectors,
            weight=settings.anchor_weight_new,
            warning=settings.anchor_drift_warning,
            critical=settings.anchor_drift_critical,
        )
    )
    if settings.anchor_dissonance is not None:
        record["dissonance_level"] = settings.anchor_dissonance
    dissonant = dissonance_check(anchor, settings.anchor_dissonance)
    if dissonant is not None:
        record["dissonant"] = dissonant
    anchor.log.append(record)
    if record["action"] in ("warning", "critical"):
        logger.warning("identity anchor drift %.3f (%s) at %s", record["drift_from_origin"], record["action"], now)
    return record
