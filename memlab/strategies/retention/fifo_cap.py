"""A hard capacity: the newest ``capacity`` memories stay in context, older ones are archived (FIFO)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import ClassVar

from memlab.errors import MemlabError
from memlab.strategies.retention.base import RetentionBase
from memlab.strategies.retention.window import keep_newest
from memlab.types import Memory, MemoryState, RetentionScore


class FifoCapRetention(RetentionBase):
    """First in, first out: the ``capacity`` newest memories (by timestamp, then id) are HOT (score 1),
    every older one ARCHIVED (score 0). This is the "hard prune" a chat agent does before it learns to
    summarise (squidbot's history limit before its consolidation design) and the usual buffer baseline;
    unlike ``sliding_window`` it has no hysteresis (the window is full at every size).

    The cap depends on the other memories, so the pipeline calls :meth:`score_all`; :meth:`score` scores
    one memory as if it were the only one (HOT when ``capacity ≥ 1``).

    Args:
        capacity: Memories kept (default 100, squidbot's consolidation trigger, so that the two options
            differ only in what happens to the overflow).
    """

    name: ClassVar[str] = "fifo_cap"
    version: ClassVar[int] = 1

    def __init__(self, capacity: int = 100) -> None:
        self.capacity = capacity

    def _check(self) -> None:
        if self.capacity < 0:
            raise MemlabError(f"fifo_cap needs capacity >= 0, got {self.capacity}; fix retention.capacity")

    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """One memory alone: HOT unless ``capacity`` is 0."""
        self._check()
        return keep_newest([memory], self.capacity)[0]

    def score_all(
        self,
        memories: Sequence[Memory],
        states: Sequence[MemoryState],
        now: datetime,
        *,
        references: Mapping[str, Iterable[str]] | None = None,
    ) -> list[RetentionScore]:
        """The newest ``capacity`` HOT, the rest ARCHIVED."""
        self._check()
        return keep_newest(memories, self.capacity)
