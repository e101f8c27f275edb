"""A hard capacity: the newest ``capacity`` memories stay in context, older ones are archived (FIFO)."""

from __future__ import annotations

from typing import ClassVar

from memlab.core.errors import MemlabError
from memlab.strategies.retention.window import WindowRetention


class FifoCapRetention(WindowRetention):
    """First in, first out: the ``capacity`` newest memories (by timestamp, then id) are HOT (score 1),
    every older one ARCHIVED (score 0). This is the "hard prune" a chat agent does before it learns to
    summarise (squidbot's history limit before its consolidation design) and the usual buffer baseline;
    unlike ``sliding_window`` it has no hysteresis (the window is full at every size).

    Args:
        capacity: Memories kept (default 100, squidbot's consolidation trigger, so that the two options
            differ only in what happens to the overflow).
    """

    name: ClassVar[str] = "fifo_cap"
    version: ClassVar[int] = 1

    def __init__(self, capacity: int = 100) -> None:
        self.capacity = capacity

    def kept(self, n: int) -> int:
        """The newest ``capacity``."""
        if self.capacity < 0:
            raise MemlabError(f"fifo_cap needs capacity >= 0, got {self.capacity}; fix retention.capacity")
        return self.capacity
