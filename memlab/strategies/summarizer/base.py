"""Base class of every summarizer."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.types import Memory, Summary


class SummarizerBase(ABC):
    """What every summarizer has (:class:`~memlab.protocols.Summarizer`): ``summarize`` takes the keyword
    ``superseded`` whether or not the summarizer reports outdated facts (one that does not ignores it).
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the summarizer reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """Summarise ``memories`` (one cluster, any order); ``superseded``: memory id -> id of its superseder."""
