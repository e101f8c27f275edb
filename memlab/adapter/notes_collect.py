"""Memory records collected while notes are read: grouped by memory id, optionally only the newest ones held."""

from __future__ import annotations

import heapq
from datetime import datetime
from operator import attrgetter

from memlab.adapter.notes_format import RawMemory, memory_id
from memlab.core.types import Memory


class Collector:
    """Memory records grouped by memory id as notes are read; with ``cap`` only the newest ``cap`` memories (by
    their earliest copy) are held at any time, so a store of a million memories costs what the cap does.

    A record older than every memory held when the cap is full is counted and dropped at once; a newer one
    evicts the oldest memory held (a min-heap of earliest timestamps).
    """

    def __init__(self, cap: int | None = None) -> None:
        self.cap = cap or 0
        self.groups: dict[str, list[tuple[RawMemory, str]]] = {}
        self.first: dict[str, datetime] = {}
        self.heap: list[tuple[datetime, str]] = []
        self.records = 0
        self.dropped: set[str] = set()

    def add(self, raw: RawMemory, commit: str) -> None:
        """One memory record found on ``commit`` (earliest copies tracked only under a cap: nothing to evict else)."""
        self.records += 1
        mid = memory_id(raw.summary, raw.content)
        group = self.groups.get(mid)
        if group is None and self.cap and len(self.groups) >= self.cap:
            while self.first.get(self.heap[0][1]) != self.heap[0][0]:  # stale entries skipped
                heapq.heappop(self.heap)
            stamp, oldest = self.heap[0]
            if raw.timestamp <= stamp:
                self.dropped.add(mid)
                return
            del self.groups[oldest], self.first[oldest]
            self.dropped.add(oldest)
        if group is None:
            self.dropped.discard(mid)
            group = self.groups[mid] = []
        group.append((raw, commit))
        if self.cap and (mid not in self.first or raw.timestamp < self.first[mid]):
            self.first[mid] = raw.timestamp
            heapq.heappush(self.heap, (raw.timestamp, mid))

    def memories(self) -> list[Memory]:
        """One :class:`Memory` per id: earliest timestamp, its namespace and tags; copies counted; time order."""
        out = []
        for mid, items in self.groups.items():
            if len(items) > 1:
                items.sort(key=lambda t: (t[0].timestamp, t[0].namespace, t[1]))
                commits = sorted({c for _, c in items})
            else:
                commits = [items[0][1]]
            first = items[0][0]
            meta = {"occurrences": len(items), "commits": commits}
            out.append(Memory(mid, first.namespace, first.timestamp, first.summary, first.content, first.tags, meta))
        return sorted(out, key=attrgetter("timestamp", "id"))
