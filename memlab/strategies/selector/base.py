"""Base class of every injection selector."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.selection_types)
if TYPE_CHECKING:
    from typing import ClassVar

    from memlab.types import InjectionCandidate, SelectionContext


class SelectorBase(ABC):
    """What every selector has (:class:`~memlab.protocols.InjectionSelector`); it has no optional method."""

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the selector reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def select(
        self,
        candidates: Sequence[InjectionCandidate],
        context: SelectionContext,
        budget_tokens: int,
    ) -> list[InjectionCandidate]:
        """Select and order candidates for injection."""
