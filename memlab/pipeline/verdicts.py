"""Verdicts on the store: how a judge's relation between two memories becomes an edge and state changes.

Shared by the batch judge phase (memlab/pipeline/phases.py), online mode (memlab/pipeline/online.py) and
propagation across restatements (memlab/pipeline/propagate.py), so all three write chains the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from memlab.core.types import RELATION_EDGE, Edge, Memory, Relation, Verdict
from memlab.pipeline.store import MemoryStore


def apply_verdict(store: MemoryStore, older: Memory, newer: Memory, verdict: Verdict, run_id: str) -> bool:
    """Record a judge's verdict as an edge and state change; returns whether an edge was added.

    SUPERSEDE sets ``superseded_by``/``valid_until`` on the older memory, keeping the earliest superseder
    when several newer memories supersede it (its validity ends at the first replacement). DUPLICATE sets
    ``duplicate_of`` on the newer memory (pointing at the earliest original).
    """
    edge_type = RELATION_EDGE.get(verdict.relation)
    if edge_type is None:
        return False
    edge = Edge(
        newer.id,
        older.id,
        edge_type,
        weight=verdict.confidence,
        reason=verdict.reason,
        created_at=newer.timestamp,
        run_id=run_id,
    )
    if not store.add_edge(edge):
        return False
    if verdict.relation is Relation.SUPERSEDE:
        state = store.state(older.id)
        if (
            state.valid_until is None
            or newer.timestamp < state.valid_until
            or (newer.timestamp == state.valid_until and newer.id < (state.superseded_by or ""))
        ):
            store.update_state(older.id, superseded_by=newer.id, valid_until=newer.timestamp)
    elif verdict.relation is Relation.DUPLICATE:
        state = store.state(newer.id)
        if state.duplicate_of is None:
            store.update_state(newer.id, duplicate_of=store.state(older.id).duplicate_of or older.id)
    return True


def withdraw_verdict(store: MemoryStore, older: Memory, newer: Memory) -> bool:
    """Withdraw the relation an earlier verdict gave ``(older, newer)``: its edges, and the states it set; returns
    whether there was one.

    A state is taken back where it names the pair (the older memory ``superseded_by`` the newer, the newer a
    ``duplicate_of`` the older or the older's original), also without an edge: the hook drops verdict edges before
    each run and keeps the states (memlab/adapter/derived.py). The older memory's supersession then comes from
    the SUPERSEDES edges left on it (the earliest superseder, as :func:`apply_verdict` keeps), the newer's duplicate
    mark from the DUPLICATES edges left on it (``None`` without one). A memory marked a duplicate of the newer one
    through it keeps its mark.
    """
    gone = sum(store.remove_edge((newer.id, older.id, edge_type)) for edge_type in RELATION_EDGE.values())
    withdrawn = gone > 0
    if store.state(older.id).superseded_by == newer.id:
        supersedes = RELATION_EDGE[Relation.SUPERSEDE]
        left = [
            store.memories[e.source] for e in store.edges_of(older.id) if e.type is supersedes and e.target == older.id
        ]
        first = min(left, key=lambda m: (m.timestamp, m.id), default=None)
        store.update_state(
            older.id,
            superseded_by=None if first is None else first.id,
            valid_until=None if first is None else first.timestamp,
        )
        withdrawn = True
    mark = store.state(newer.id).duplicate_of
    if mark is not None and mark in {older.id, store.state(older.id).duplicate_of}:
        duplicates = RELATION_EDGE[Relation.DUPLICATE]
        kept = [
            store.memories[e.target] for e in store.edges_of(newer.id) if e.type is duplicates and e.source == newer.id
        ]
        original = min(kept, key=lambda m: (m.timestamp, m.id), default=None)
        root = None if original is None else store.state(original.id).duplicate_of or original.id
        store.update_state(newer.id, duplicate_of=root)
        withdrawn = True
    return withdrawn


_WORD = re.compile(r"\w+")
#: Share of a summary's words its content must hold for the summary to be a title of the content.
TITLE_SHARE = 0.75


def is_title(summary: str, content: str) -> bool:
    """Whether ``summary`` only repeats words of ``content`` (at least :data:`TITLE_SHARE` of them; a last word
    cut off by an ellipsis counts when the content contains it as a prefix).
    """
    words = [w.lower() for w in _WORD.findall(summary)]
    if not words:
        return True
    present = {w.lower() for w in _WORD.findall(content)}
    cut = summary.rstrip().endswith(("...", "…"))
    hits = sum(w in present or (cut and k == len(words) - 1 and w in content.lower()) for k, w in enumerate(words))
    return hits >= TITLE_SHARE * len(words)


def exact_key(memory: Memory) -> str:
    """Whitespace-normalised text: memories with the same key are exact duplicates.

    Identical content is one memory whatever its summary when the summary only titles it (:func:`is_title`): the
    same note captured again under a marker line, a cut or a longer first line. A summary that says more than its
    content (a version number, a name the content lacks) keeps the memories apart.
    """
    return _exact_key(memory.summary, memory.content, memory.text)


def exact_keys(store: MemoryStore, memories: Iterable[Memory]) -> dict[str, str]:
    """Memory id -> :func:`exact_key`, each computed once per memory object and remembered in ``store.cache``.

    Why not the function's own cache alone: the admission and exact-deduplication passes read every memory's key
    several times per consolidation, and past the LRU's size (a 100k store) its cache misses on every call, which
    cost 11.7 s of a 100k episode's 81 s supersession phase (cProfile). A memory replaced under its id (a new
    object) gets its key again.
    """
    seen: dict[str, tuple[Memory, str]] = store.cache.setdefault("exact_keys", {})
    out: dict[str, str] = {}
    for memory in memories:
        hit = seen.get(memory.id)
        if hit is None or hit[0] is not memory:
            hit = seen[memory.id] = (memory, exact_key(memory))
        out[memory.id] = hit[1]
    return out


@lru_cache(maxsize=1 << 16)
def _exact_key(summary: str, content: str, text: str) -> str:
    if content and is_title(summary, content):
        return " ".join(content.split())
    return " ".join(text.split())
