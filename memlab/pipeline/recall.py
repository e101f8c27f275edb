"""Recall: the units a query may see (tiers, validity, summaries), ranked by the policy's retriever.

Modes follow the seed: ``reflexive`` searches hot memories, ``standard`` hot and warm, ``deep`` adds
cold, ``exhaustive`` everything, including superseded memories. Outside exhaustive mode superseded
memories are hidden (current-only retrieval) and duplicates collapse onto their original. A cluster
summary is a unit of its own (``meta["kind"] == "summary"``, ``meta["sources"]``: the memories it cites)
while at least one of its sources is still valid, whatever the sources' tiers (memlab/pipeline/units.py). The
``retriever`` strategy ranks the eligible units; recall returns the best ``limit`` and, with ``track``, counts
them as accessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np

from memlab.core.errors import MemlabError
from memlab.core.types import MAX_ACCESS_TIMES, Memory, Tier
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.units import is_summary, summary_unit
from memlab.pipeline.vectors import StoreEmbedder
from memlab.strategies.retriever.base import Pool
from memlab.wiring.components import Components

MODE_TIERS: dict[str, frozenset[Tier]] = {
    "reflexive": frozenset({Tier.HOT}),
    "standard": frozenset({Tier.HOT, Tier.WARM}),
    "deep": frozenset({Tier.HOT, Tier.WARM, Tier.COLD}),
    "exhaustive": frozenset(Tier),
}


@dataclass(frozen=True)
class RecallHit:
    """One recalled unit (a memory, or a summary as a unit) with its retrieval score, rank and tier."""

    memory: Memory
    score: float
    tier: Tier
    rank: int = 0

    @property
    def is_summary(self) -> bool:
        """Whether the unit is a cluster summary."""
        return is_summary(self.memory)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)
_NEVER = np.iinfo(np.int64).max
_TIER_CODE = {tier: i for i, tier in enumerate(Tier)}


def _micros(when: datetime) -> int:
    """Microseconds since the epoch (exact; a naive datetime raises TypeError)."""
    return (when - _EPOCH) // _US


def _order_positions(store: MemoryStore, pool: Pool) -> dict[str, int]:
    """Memory id -> its index in ``pool.order``, computed once per version of the memories."""
    cached = store.cache.get("order_positions")
    if cached is not None and cached[0] == pool.order_key:
        return cached[1]
    positions = {m.id: i for i, m in enumerate(pool.order)}
    store.cache["order_positions"] = (pool.order_key, positions)
    return positions


def _arrays(store: MemoryStore) -> tuple | None:
    """The store's memories in time order with their times, validity ends, tier codes and duplicate flags as
    arrays, computed once per version of the memories and states; ``None`` when the store's dicts are not
    versioned or its times are naive.
    """
    key = (getattr(store.memories, "version", None), getattr(store.states, "version", None))
    if None in key:
        return None
    cached = store.cache.get("recall")
    if cached is not None and cached[0] == key:
        return cached[1]
    order = store.ordered()
    states = [store.states[m.id] for m in order]
    try:
        stamps = np.fromiter((_micros(m.timestamp) for m in order), dtype=np.int64, count=len(order))
        ends = np.fromiter(
            (_NEVER if s.valid_until is None else _micros(s.valid_until) for s in states),
            dtype=np.int64,
            count=len(order),
        )
    except TypeError:  # naive datetimes
        arrays = None
    else:
        tiers = np.fromiter((_TIER_CODE[s.tier] for s in states), dtype=np.int64, count=len(order))
        dups = np.fromiter(
            (bool(s.duplicate_of) and s.duplicate_of in store.memories for s in states), dtype=bool, count=len(order)
        )
        arrays = (order, stamps, ends, tiers, dups)
    store.cache["recall"] = (key, arrays)
    return arrays


def _eligible_vectorised(store: MemoryStore, mode: str, now: datetime, as_of: datetime | None) -> list[Memory] | None:
    """:func:`eligible` over the cached arrays (the same memories in the same order); ``None``: not possible."""
    arrays = _arrays(store)
    if arrays is None:
        return None
    order, stamps, ends, tiers, dups = arrays
    try:
        t = _micros(as_of if as_of is not None else now)
    except TypeError:
        return None
    if as_of is not None:
        mask = (stamps <= t) & (t < ends)
    else:
        mask = (stamps <= t) & np.isin(tiers, [_TIER_CODE[x] for x in MODE_TIERS[mode]])
        if mode != "exhaustive":
            mask &= (t < ends) & ~dups
    return Pool(order, np.flatnonzero(mask), store.memories.version)  # type: ignore[attr-defined]


def eligible(store: MemoryStore, mode: str, now: datetime, as_of: datetime | None = None) -> list[Memory]:
    """Memories a recall in ``mode`` may return at ``now`` (or as of ``as_of``), in time order.

    With ``as_of`` the tier filter is skipped (tiers describe the present) and exactly the memories valid
    at ``as_of`` are eligible, whatever the mode; otherwise the mode's tiers apply and, outside
    exhaustive mode, memories superseded by ``now`` and duplicates are left out.
    """
    if mode not in MODE_TIERS:
        raise MemlabError(f"unknown recall mode '{mode}'; valid: {', '.join(MODE_TIERS)}")
    fast = _eligible_vectorised(store, mode, now, as_of)
    if fast is not None:
        return fast
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


def units(
    store: MemoryStore, mode: str, now: datetime, as_of: datetime | None = None, *, summaries: bool = True
) -> list[Memory]:
    """Eligible memories plus, with ``summaries``, the summaries at least one of whose sources is still valid
    (whatever its tier: a summary is how a cold or archived memory stays reachable); time order.
    """
    pool = eligible(store, mode, now, as_of)
    if not summaries or not store.summaries:
        return pool
    when = as_of or now
    extra = [
        summary_unit(s)
        for s in store.summaries.values()
        if s.temporal_end <= when
        and any(i in store.memories and (mode == "exhaustive" or store.valid_at(i, when)) for i in s.source_ids)
    ]
    return sorted([*pool, *extra], key=lambda m: (m.timestamp, m.id))


def recall_many(
    store: MemoryStore,
    components: Components,
    queries: Sequence[str],
    now: datetime,
    *,
    mode: str | None = None,
    limit: int | None = None,
    as_of: datetime | None = None,
    track: bool = True,
) -> list[list[RecallHit]]:
    """:func:`recall` for several queries asked at one moment over one pool (one index, one batch)."""
    settings = components.settings
    mode = mode or settings.recall_mode
    limit = settings.recall_limit if limit is None else limit
    pool = units(store, mode, now, as_of, summaries=settings.recall_summaries)
    if not pool or limit <= 0 or not queries:
        return [[] for _ in queries]
    retriever = components.retriever
    embedder = StoreEmbedder(store, components.embedder)
    rankings = retriever.rank_many(list(queries), pool, now, embedder, limit=limit)  # RetrieverBase: rank each
    find = _finder(store, pool)
    out: list[list[RecallHit]] = []
    for ranking in rankings:
        hits: list[RecallHit] = []
        seen: set[str] = set()
        for unit_id, score in ranking:
            unit = find(unit_id)
            if unit is None or unit_id in seen:
                continue  # a retriever may only rank the candidates, once each (Retriever contract)
            seen.add(unit_id)
            tier = Tier.WARM if is_summary(unit) else store.state(unit_id).tier
            hits.append(RecallHit(unit, float(score), tier, len(hits)))
            if len(hits) >= limit:
                break
        if track:
            mark_accessed(store, hits, now)
        out.append(hits)
    return out


def _finder(store: MemoryStore, pool: list[Memory]):
    """``unit id -> the pool's unit with that id, or None``; for a :class:`Pool`, without a dict of the pool."""
    if not isinstance(pool, Pool):
        return {m.id: m for m in pool}.get
    index = _order_positions(store, pool)
    member = np.zeros(len(pool.order), dtype=bool)
    member[pool.positions] = True
    order = pool.order

    def find(unit_id: str) -> Memory | None:
        i = index.get(unit_id)
        return order[i] if i is not None and member[i] else None

    return find


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
    """Search the store with the policy's retriever.

    Args:
        store: Consolidated store.
        components: Strategies (retriever, embedder) and settings (default mode and limit).
        query: Query text.
        now: Benchmark clock.
        mode: Recall mode; defaults to ``components.settings.recall_mode``.
        limit: Results; defaults to ``components.settings.recall_limit``.
        as_of: Answer as of this time (only memories valid then).
        track: Increment activation counts of returned memories (``last_accessed = now``).

    Returns:
        Hits best first, as the retriever ranked them.
    """
    return recall_many(store, components, [query], now, mode=mode, limit=limit, as_of=as_of, track=track)[0]


def mark_accessed(store: MemoryStore, hits: Sequence[RecallHit], now: datetime) -> None:
    """Count the returned memories as accessed at ``now`` (summaries carry no access state)."""
    for hit in hits:
        if hit.is_summary or hit.memory.id not in store.states:
            continue
        state = store.state(hit.memory.id)
        store.update_state(
            hit.memory.id,
            activation_count=state.activation_count + 1,
            last_accessed=now,
            access_times=(*state.access_times, now)[-MAX_ACCESS_TIMES:],
        )
