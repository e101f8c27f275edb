"""Newest first: the most recent items the budget allows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from memlab.core.selection_types import InjectionCandidate, SelectionContext
from memlab.strategies.selector.base import SelectorBase
from memlab.strategies.selector.packing import pack, unique
from memlab.text.tokens import item_tokens


class RecencySelector(SelectorBase):
    """Order by ``timestamp`` descending (ties by id), add while the budget allows (``skip`` an item that
    does not fit, or ``stop``), at most ``max_items``. The plain recency baseline: what a chat agent's
    context window keeps (squidbot's newest messages), with no relevance or frequency.

    With ``summaries_first`` the summaries come first, oldest first, then the memories newest first, and
    ``max_items`` counts memories only: squidbot's context, its running memory document (the summaries,
    appended in order) followed by the newest messages.

    Args:
        max_items: At most this many items (seed: 10 summaries at SessionStart; ``null`` = no limit).
        min_confidence: Candidates below this confidence are skipped (seed: 0.7).
        on_overflow: ``skip`` or ``stop``.
        summaries_first: Summaries (oldest first) before the memories; ``max_items`` counts memories.
    """

    name: ClassVar[str] = "recency"
    version: ClassVar[int] = 1

    def __init__(
        self,
        max_items: int | None = 10,
        min_confidence: float = 0.7,
        on_overflow: str = "skip",
        summaries_first: bool = False,
    ) -> None:
        self.max_items = max_items
        self.min_confidence = min_confidence
        self.on_overflow = on_overflow
        self.summaries_first = summaries_first

    def select(
        self, candidates: Sequence[InjectionCandidate], context: SelectionContext, budget_tokens: int
    ) -> list[InjectionCandidate]:
        """Newest first under the budget."""
        ranked = unique(candidates, lambda c: c.timestamp.timestamp(), self.min_confidence)
        if not self.summaries_first:
            return pack(ranked, budget_tokens, context.chars_per_token, self.max_items, self.on_overflow)
        document = sorted((c for c in ranked if c.kind == "summary"), key=lambda c: (c.timestamp, c.id))
        head = pack(document, budget_tokens, context.chars_per_token, None, self.on_overflow)
        used = sum(item_tokens(c.text, context.chars_per_token) for c in head)
        recent = [c for c in ranked if c.kind != "summary"]
        return head + pack(recent, budget_tokens - used, context.chars_per_token, self.max_items, self.on_overflow)
