"""The seed's SessionStart selector: weighted relevance/recency/activation, top N, token budget."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memlab.errors import MemlabError
from memlab.selection_types import InjectionCandidate, SelectionContext
from memlab.strategies.selector.base import SelectorBase
from memlab.text.tokens import item_tokens

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.selection_types)
if TYPE_CHECKING:
    from typing import ClassVar

#: prioritize_by -> (relevance, recency, activation) weights, as in the seed.
SEED_WEIGHTS: Mapping[str, tuple[float, float, float]] = {
    "relevance": (0.5, 0.3, 0.2),
    "recency": (0.3, 0.5, 0.2),
    "activation": (0.3, 0.2, 0.5),
}


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
        if self.prioritize_by not in SEED_WEIGHTS:
            raise MemlabError(f"unknown prioritize_by '{self.prioritize_by}'; valid: {', '.join(SEED_WEIGHTS)}")
        w_rel, w_rec, w_act = SEED_WEIGHTS[self.prioritize_by]
        return w_rel * c.relevance + w_rec * c.recency + w_act * c.activation

    def select(
        self, candidates: Sequence[InjectionCandidate], context: SelectionContext, budget_tokens: int
    ) -> list[InjectionCandidate]:
        """Select under the budget; see the class docstring."""
        best: dict[str, InjectionCandidate] = {}
        for c in candidates:
            if c.confidence < self.min_confidence:
                continue
            if c.id not in best or (self.score(c), c.text) > (self.score(best[c.id]), best[c.id].text):
                best[c.id] = c
        ranked = sorted(best.values(), key=lambda c: (-self.score(c), c.id))[: self.max_items]
        chosen: list[InjectionCandidate] = []
        used = 0
        for c in ranked:
            cost = item_tokens(c.text, context.chars_per_token)
            if used + cost > budget_tokens:
                if self.on_overflow == "stop":
                    break
                continue
            chosen.append(c)
            used += cost
        return chosen
