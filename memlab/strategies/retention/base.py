"""Base class of every retention function: the optional methods of the protocol, with their defaults."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.types import Memory, MemoryState, RetentionScore


class RetentionBase(ABC):
    """What every retention function has (:class:`~memlab.protocols.RetentionFunction`): ``score`` is the one
    method a function must define; :meth:`score_all` defaults to scoring each memory alone.
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
        self,
        memories: Sequence[Memory],
        states: Sequence[MemoryState],
        now: datetime,
        *,
        references: Mapping[str, Iterable[str]] | None = None,
    ) -> list[RetentionScore]:
        """Score every memory the run sees, in order (``references``: memory id -> ids it refers to, for a
        function that keeps what a kept memory refers to); default: :meth:`score` of each memory alone.
        """
        return [self.score(memory, state, now) for memory, state in zip(memories, states, strict=True)]
