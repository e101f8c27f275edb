"""Base class of every reader."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.types import Answer, Memory


class ReaderBase(ABC):
    """What every reader has (:class:`~memlab.protocols.Reader`); it has no optional method.

    ``reads`` is ``False`` only for ``reader=none``: a benchmark then logs no reader metric.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: Whether the reader answers at all (``reader=none``: no).
    reads: ClassVar[bool] = True
    #: The model file the reader reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def answer(self, question: str, context: Sequence[Memory], now: datetime) -> Answer:
        """Answer ``question`` from ``context`` as of ``now``."""
