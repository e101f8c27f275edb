"""The selector kind: :class:`SelectorBase` is its one definition."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from typing import ClassVar

    from memlab.core.types import InjectionCandidate, SelectionContext


class SelectorBase(ABC):
    """Chooses what goes into the SessionStart block.

    Contract: the estimated tokens of the returned items (:func:`memlab.text.tokens.item_tokens` of each text
    with ``context.chars_per_token``) sum to at most ``budget_tokens``; no id appears twice; the result does not
    depend on the order of ``candidates`` (ties are broken by score descending, then id ascending);
    deterministic.
    """

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
