"""The retention kind: :class:`RetentionBase` is its one definition."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.core.types import Memory, MemoryState, RetentionScore

    #: What :meth:`RetentionBase.score_all` may be told: memory id -> ids it refers to (``None``: nothing).
    References = Mapping[str, Iterable[str]] | None


class RetentionBase(ABC):
    """Scores how strongly a memory should stay retrievable, and the tier that follows.

    Contract: ``score(...).overall`` is in [0, 1]; with everything else fixed it never rises as ``now`` moves
    later; the tier is monotone in ``overall`` (a higher score never gets a colder tier); it reads no clock
    (``now`` is the benchmark's time) and has no side effects. :meth:`score` is the one method a function must
    define; a function whose score depends on the other memories (a sliding window, a capacity cap) overrides
    :meth:`score_all`, and :meth:`score` then scores one memory as if it were the only one.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the function reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None
    #: ``True`` when :meth:`score_all` reads ``references`` (callers skip computing them otherwise).
    reads_references: ClassVar[bool] = False

    @abstractmethod
    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """Score ``memory`` in ``state`` at time ``now``."""

    def score_all(
        self, memories: Sequence[Memory], states: Sequence[MemoryState], now: datetime, *, references: References = None
    ) -> list[RetentionScore]:
        """Score every memory the consolidation run sees, one score per memory in order, the contract per item
        (``references``: memory id -> ids it refers to, for a function that keeps what a kept memory refers to);
        default: :meth:`score` of each memory alone.
        """
        return [self.score(memory, state, now) for memory, state in zip(memories, states, strict=True)]
