"""In-memory store of memories and everything consolidation derives from them.

The store holds memory metadata (:class:`~memlab.core.types.MemoryState`), summaries, edges, judged pairs,
embeddings and run records. Benchmarks use it directly; the git-notes adapter loads it from and saves it
to notes refs.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import datetime
from itertools import count
from typing import TYPE_CHECKING, Any

from memlab.core.types import ConsolidationResult, Edge, EdgeType, Memory, MemoryState, Summary

if TYPE_CHECKING:
    import numpy as np


_VERSIONS = count()


class Versioned(dict):
    """A dict whose ``version`` changes with every write, so that caches derived from it know when they are
    stale; versions come from one process-wide counter, so no two states of any two dicts share one.
    """

    __slots__ = ("version",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.version = next(_VERSIONS)

    def __setitem__(self, key: Any, value: Any) -> None:
        self.version = next(_VERSIONS)
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        self.version = next(_VERSIONS)
        super().__delitem__(key)

    def pop(self, *args: Any) -> Any:  # noqa: D102 - dict's
        self.version = next(_VERSIONS)
        return super().pop(*args)

    def popitem(self) -> Any:  # noqa: D102 - dict's
        self.version = next(_VERSIONS)
        return super().popitem()

    def setdefault(self, key: Any, default: Any = None) -> Any:  # noqa: D102 - dict's
        self.version = next(_VERSIONS)
        return super().setdefault(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:  # noqa: D102 - dict's
        self.version = next(_VERSIONS)
        super().update(*args, **kwargs)

    def clear(self) -> None:  # noqa: D102 - dict's
        self.version = next(_VERSIONS)
        super().clear()

    def __reduce__(self) -> tuple:
        return (type(self), (dict(self),))


class MemoryStore:
    """Memories plus derived state, keyed by id.

    Memories are never modified or removed; consolidation only changes their states and adds summaries
    and edges.
    """

    def __init__(self, memories: Iterable[Memory] = ()) -> None:
        self.memories: dict[str, Memory] = Versioned()
        self.states: dict[str, MemoryState] = Versioned()
        self.summaries: dict[str, Summary] = {}
        self.edges: dict[tuple[str, str, EdgeType], Edge] = Versioned()
        self.judged: set[tuple[str, str]] = set()
        self.embeddings: dict[str, np.ndarray] = {}
        self.text_vectors: dict[str, np.ndarray] = {}
        self.runs: list[ConsolidationResult] = []
        self.review_queue: list[dict] = []
        #: Online mode's operation records, in order (memlab/pipeline/online.py; JSON-ready dicts).
        self.audit: list[dict] = []
        #: Patterns found by insight extraction, by id, when the policy extracts them (memlab/pipeline/insights.py).
        self.insights: dict[str, Any] | None = None
        #: The identity anchor and its drift log when the policy keeps one (memlab/pipeline/anchor.py).
        self.anchor: Any = None
        self._order: tuple[int, list[Memory], list[datetime]] = (-1, [], [])
        #: Derived data kept between calls by the modules that compute it, each entry stored with what tells it
        #: is still current: the ``version`` it was computed from (recall's eligibility arrays, the edge index)
        #: or the memory object it was computed for (exact-duplicate keys, memlab/pipeline/verdicts.py).
        self.cache: dict[str, Any] = {}
        self.add(memories)

    # -- memories and states -------------------------------------------------------------------
    def add(self, memories: Iterable[Memory]) -> int:
        """Add memories not yet present (by id); returns how many were new."""
        added = 0
        for memory in memories:
            if memory.id in self.memories:
                continue
            self.memories[memory.id] = memory
            self.states[memory.id] = MemoryState(memory_id=memory.id)
            added += 1
        return added

    def __len__(self) -> int:
        return len(self.memories)

    def __iter__(self) -> Iterator[Memory]:
        return iter(self.ordered())

    def ordered(self, until: datetime | None = None) -> list[Memory]:
        """Memories in time order (ties by id), optionally only those recorded at or before ``until``."""
        version = getattr(self.memories, "version", None)
        if version is None or self._order[0] != version:  # sorted once per change of the memories
            order = sorted(self.memories.values(), key=lambda m: (m.timestamp, m.id))
            self._order = (-1 if version is None else version, order, [m.timestamp for m in order])
        _, order, stamps = self._order
        if until is None:
            return list(order)
        return order[: bisect_right(stamps, until)]

    def state(self, memory_id: str) -> MemoryState:
        """State of a memory."""
        return self.states[memory_id]

    def update_state(self, memory_id: str, **changes: object) -> MemoryState:
        """Replace fields of a memory's state; returns the new state."""
        new = replace(self.states[memory_id], **changes)
        self.states[memory_id] = new
        return new

    # -- edges ---------------------------------------------------------------------------------
    def add_edge(self, edge: Edge) -> bool:
        """Add an edge unless the same (source, target, type) exists; returns whether it was new."""
        key = (edge.source, edge.target, edge.type)
        if key in self.edges:
            return False
        cached = self.cache.get("edges_by_node")
        current = cached is not None and cached[0] == getattr(self.edges, "version", None)
        self.edges[key] = edge
        if current:  # the index follows the new edge instead of being rebuilt on the next lookup
            _index_edge(cached[1], edge)
            self.cache["edges_by_node"] = (self.edges.version, cached[1])
        return True

    def remove_edge(self, key: tuple[str, str, EdgeType]) -> bool:
        """Remove the edge ``(source, target, type)``; returns whether there was one."""
        return self.edges.pop(key, None) is not None

    def edges_of(self, node_id: str) -> list[Edge]:
        """Edges touching ``node_id`` (as source or target), in a stable order."""
        found = self._edges_by_node().get(node_id, [])
        return sorted(found, key=lambda e: (e.type.value, e.source, e.target))

    def _edges_by_node(self) -> dict[str, list[Edge]]:
        """Node id -> the edges touching it (as source or target); kept until the edges change.

        Without a version on :attr:`edges` (a plain dict put there from outside), built on every call.
        """
        version = getattr(self.edges, "version", None)
        cached = self.cache.get("edges_by_node")
        if version is not None and cached is not None and cached[0] == version:
            return cached[1]
        index: dict[str, list[Edge]] = {}
        for edge in self.edges.values():
            _index_edge(index, edge)
        if version is not None:
            self.cache["edges_by_node"] = (version, index)
        return index

    def retire_summary(self, summary_id: str) -> None:
        """Remove a summary and its CONSOLIDATES edges; its members no longer point at it."""
        self.summaries.pop(summary_id, None)
        for key in [k for k in self.edges if k[0] == summary_id and k[2] is EdgeType.CONSOLIDATES]:
            del self.edges[key]
        for mid, state in list(self.states.items()):
            if state.consolidated_into == summary_id:
                self.update_state(mid, consolidated_into=None)

    # -- validity and chains -------------------------------------------------------------------
    def valid_at(self, memory_id: str, when: datetime) -> bool:
        """Whether the memory was recorded by ``when`` and not yet superseded at ``when``."""
        memory = self.memories[memory_id]
        if memory.timestamp > when:
            return False
        until = self.states[memory_id].valid_until
        return until is None or when < until

    def chain(self, memory_id: str) -> list[str]:
        """The supersession chain through ``memory_id``, oldest first.

        Follows ``superseded_by`` forward and the unique predecessor backward; a predecessor is a memory
        whose ``superseded_by`` is the current one (the earliest such, by timestamp then id, when several
        point at it).
        """
        predecessors = self._predecessors()
        back: list[str] = []
        seen = {memory_id}
        cur = memory_id
        while cur in predecessors:
            prev = min(predecessors[cur], key=lambda i: (self.memories[i].timestamp, i))
            if prev in seen:
                break
            back.append(prev)
            seen.add(prev)
            cur = prev
        forward: list[str] = []
        cur = memory_id
        while (nxt := self.states[cur].superseded_by) and nxt not in seen:
            forward.append(nxt)
            seen.add(nxt)
            cur = nxt
        return [*reversed(back), memory_id, *forward]

    def _predecessors(self) -> dict[str, list[str]]:
        """Memory id -> ids whose ``superseded_by`` it is; kept until the states change."""
        version = getattr(self.states, "version", None)
        cached = self.cache.get("predecessors")
        if version is not None and cached is not None and cached[0] == version:
            return cached[1]
        predecessors: dict[str, list[str]] = {}
        for sid, state in self.states.items():
            if state.superseded_by:
                predecessors.setdefault(state.superseded_by, []).append(sid)
        if version is not None:
            self.cache["predecessors"] = (version, predecessors)
        return predecessors

    def current_of(self, memory_id: str) -> str:
        """The last member of the chain through ``memory_id`` (the memory that is true now)."""
        return self.chain(memory_id)[-1]


def _index_edge(index: dict[str, list[Edge]], edge: Edge) -> None:
    """Add ``edge`` under its source and, when different, its target."""
    index.setdefault(edge.source, []).append(edge)
    if edge.target != edge.source:
        index.setdefault(edge.target, []).append(edge)
