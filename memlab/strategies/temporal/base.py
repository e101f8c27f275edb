"""Base class of every temporal resolver."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.types import TemporalRef


class TemporalBase(ABC):
    """What every temporal resolver has (:class:`~memlab.protocols.TemporalResolver`); it has no optional method."""

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the resolver reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """Resolve every temporal expression in ``text`` against ``anchor``."""
