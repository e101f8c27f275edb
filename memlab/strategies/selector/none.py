"""Inject nothing (the no-memory baseline)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from memlab.core.selection_types import InjectionCandidate, SelectionContext
from memlab.strategies.selector.base import SelectorBase


class NoSelector(SelectorBase):
    """Always selects nothing."""

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1

    def select(
        self, candidates: Sequence[InjectionCandidate], context: SelectionContext, budget_tokens: int
    ) -> list[InjectionCandidate]:
        """Always ``[]``."""
        return []
