"""The seed's SessionStart selector: weighted relevance/recency/activation, top N, token budget."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memlab.core.errors import MemlabError
from memlab.core.selection_types import InjectionCandidate, SelectionContext
from memlab.strategies.selector.base import SelectorBase
from memlab.strategies.selector.packing import pack, unique

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from typing import ClassVar

#: prioritize_by -> (relevance, recency, activation) weights, as in the seed.
SEED_WEIGHTS: Mapping[str, tuple[float, float, float]] = {
    "relevance": (0.5, 0.3, 0.2),
    "recency": (0.3, 0.5, 0.2),
    "activation": (0.3, 0.2, 0.5),
}


def seed_score(c: InjectionCandidate, prioritize_by: str) -> float:
    """The seed's weighted score of ``c``: ``w·(relevance, recency, activation)`` with ``prioritize_by``'s weights."""
    if prioritize_by not in SEED_WEIGHTS:
        raise MemlabError(f"unknown prioritize_by '{prioritize_by}'; valid: {', '.join(SEED_WEIGHTS)}")
    w_rel, w_rec, w_act = SEED_WEIGHTS[prioritize_by]
    return w_rel * c.relevance + w_rec * c.recency + w_act * c.activation


class SeedWeightedSelector(SelectorBase):
    """Drop candidates under ``min_confidence``; score ``w·(relevance, recency, activation)`` with the
    weights of ``prioritize_by``; order by score desc, id asc; keep the first ``max_items``; add them in
    order while the budget allows.

    Args:
        prioritize_by: ``relevance``, ``recency`` or ``activation``.
        min_confidence: Candidates below this confidence are skipped (seed: 0.7).
        max_items: At most this many items (seed: 10 summaries).
        on_overflow: ``stop`` at the first item that does not fit (the seed), or ``skip`` it and try the next.
    """

    name: ClassVar[str] = "seed_weighted"
    version: ClassVar[int] = 1

    def __init__(
        self,
        prioritize_by: str = "relevance",
        min_confidence: float = 0.7,
        max_items: int = 10,
        on_overflow: str = "stop",
    ) -> None:
        self.prioritize_by = prioritize_by
        self.min_confidence = min_confidence
        self.max_items = max_items
        self.on_overflow = on_overflow

    def score(self, c: InjectionCandidate) -> float:
        """Weighted score of one candidate."""
        return seed_score(c, self.prioritize_by)

    def select(
        self, candidates: Sequence[InjectionCandidate], context: SelectionContext, budget_tokens: int
    ) -> list[InjectionCandidate]:
        """Select under the budget; see the class docstring."""
        ranked = unique(candidates, self.score, self.min_confidence)[: self.max_items]
        return pack(ranked, budget_tokens, context.chars_per_token, on_overflow=self.on_overflow)
