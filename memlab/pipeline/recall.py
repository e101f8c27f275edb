"""Recall with tier filtering, validity (current-only / as-of) and activation tracking.

Modes follow the seed: ``reflexive`` searches hot memories, ``standard`` hot and warm, ``deep`` adds
cold, ``exhaustive`` everything, including superseded memories. Outside exhaustive mode superseded
memories are hidden (current-only retrieval) and duplicates collapse onto their original.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np

from memlab.components import Components
from memlab.errors import MemlabError
from memlab.pipeline.consolidate import embed_missing
from memlab.pipeline.store import MemoryStore
from memlab.types import MAX_ACCESS_TIMES, Memory, Tier

MODE_TIERS: dict[str, frozenset[Tier]] = {
    "reflexive": frozenset({Tier.HOT}),
    "standard": frozenset({Tier.HOT, Tier.WARM}),
    "deep": frozenset({Tier.HOT, Tier.WARM, Tier.COLD}),
    "exhaustive": frozenset(Tier),
}


@dataclass(frozen=True)
class RecallHit:
    """One recalled memory with its similarity score and tier."""

    memory: Memory
    score: float
    tier: Tier


def eligible(store: MemoryStore, mode: str, now: datetime, as_of: datetime | None = None) -> list[Memory]:
    """Memories a recall in ``mode`` may return at ``now`` (or as of ``as_of``), in time order.

    With ``as_of`` the tier filter is skipped (tiers describe the present) and exactly the memories valid
    at ``as_of`` are eligible, whatever the mode; otherwise the mode's tiers apply and, outside
    exhaustive mode, memories superseded by ``now`` and duplicates are left out.
    """
    if mode not in MODE_TIERS:
        raise MemlabError(f"unknown recall mode '{mode}'; valid: {', '.join(MODE_TIERS)}")
    if as_of is not None:
        return [m for m in store.ordered(until=as_of) if store.valid_at(m.id, as_of)]
    tiers = MODE_TIERS[mode]
    out = []
    for memory in store.ordered(until=now):
        state = store.state(memory.id)
        if state.tier not in tiers:
            continue
        if mode != "exhaustive":
            if not store.valid_at(memory.id, now):
                continue
            if state.duplicate_of and state.duplicate_of in store.memories:
                continue
        out.append(memory)
    return out


def recall(
    store: MemoryStore,
    components: Components,
    query: str,
    now: datetime,
    *,
    mode: str | None = None,
    limit: int | None = None,
    as_of: datetime | None = None,
    track: bool = True,
) -> list[RecallHit]:
    """Search the store by embedding similarity.

    Args:
        store: Consolidated store.
        components: Strategies (the embedder is used) and settings (default mode and limit).
        query: Query text.
        now: Benchmark clock.
        mode: Recall mode; defaults to ``components.settings.recall_mode``.
        limit: Results; defaults to ``components.settings.recall_limit``.
        as_of: Answer as of this time (only memories valid then).
        track: Increment activation counts of returned memories (``last_accessed = now``).

    Returns:
        Hits sorted by score descending, then memory id ascending.
    """
    mode = mode or components.settings.recall_mode
    limit = components.settings.recall_limit if limit is None else limit
    pool = eligible(store, mode, now, as_of)
    if not pool or limit <= 0:
        return []
    matrix = embed_missing(store, components, pool)
    qvec = np.asarray(components.embedder.encode([query])[0], dtype=np.float32)
    scores = matrix @ qvec
    order = sorted(range(len(pool)), key=lambda i: (-float(scores[i]), pool[i].id))[:limit]
    hits = [RecallHit(pool[i], float(scores[i]), store.state(pool[i].id).tier) for i in order]
    if track:
        for hit in hits:
            state = store.state(hit.memory.id)
            store.update_state(
                hit.memory.id,
                activation_count=state.activation_count + 1,
                last_accessed=now,
                access_times=(*state.access_times, now)[-MAX_ACCESS_TIMES:],
            )
    return hits
