"""The temporal kind: :class:`TemporalBase` is its one definition."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.core.types import TemporalRef


class TemporalBase(ABC):
    """Finds temporal expressions in text and resolves them against an anchor time.

    Contract: ``anchor`` is the memory's own timestamp, never the wall clock; every returned interval is
    half-open ``[start, end)`` with ``start < end`` (timezone of the anchor); spans index into ``text`` and do
    not overlap; unparseable text gives ``[]``, never an exception.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the resolver reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """Resolve every temporal expression in ``text`` against ``anchor``."""
