"""Most value under the token budget: an exact 0/1 knapsack over the items' token costs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from memlab.core.errors import MemlabError
from memlab.core.selection_types import InjectionCandidate, SelectionContext
from memlab.strategies.selector.base import SelectorBase
from memlab.strategies.selector.packing import unique
from memlab.strategies.selector.seed_weighted import seed_score
from memlab.text.tokens import item_tokens


class KnapsackSelector(SelectorBase):
    """Choose the set of candidates whose total value is largest while their tokens fit the budget.

    ``value(c)`` is the seed's weighted score for ``prioritize_by``; the cost is
    :func:`~memlab.text.tokens.item_tokens` of the rendered text. Where greedy selectors fill the budget
    with the highest scores first (and waste it on one long item), this spends it where value per token
    is highest. Solved exactly by dynamic programming over integer token costs (``O(n · budget)`` time,
    ``n · budget`` bits for the choice table; candidates are processed in ``(value desc, id asc)`` order and
    an item is taken only on a strict improvement, so the optimum chosen among equal-value sets is
    deterministic and independent of the input order). With ``max_items`` set, the DP result is cut to
    the ``max_items`` highest-value items (no longer optimal under that extra constraint; ``null`` =
    no limit, the default). Items with value 0 are never taken. The output is ordered by value desc, id.

    Args:
        prioritize_by: ``relevance``, ``recency`` or ``activation`` (the seed's weight table).
        min_confidence: Candidates below this confidence are skipped (seed: 0.7).
        max_items: Cap on the number of items after the optimisation (``null`` = none).
        max_cells: Refuse ``n · (budget + 1)`` above this (the choice table's size).
    """

    name: ClassVar[str] = "knapsack"
    version: ClassVar[int] = 1

    def __init__(
        self,
        prioritize_by: str = "relevance",
        min_confidence: float = 0.7,
        max_items: int | None = None,
        max_cells: int = 200_000_000,
    ) -> None:
        self.prioritize_by = prioritize_by
        self.min_confidence = min_confidence
        self.max_items = max_items
        self.max_cells = max_cells

    def value(self, c: InjectionCandidate) -> float:
        """The seed's weighted score of ``c``."""
        return seed_score(c, self.prioritize_by)

    def select(
        self, candidates: Sequence[InjectionCandidate], context: SelectionContext, budget_tokens: int
    ) -> list[InjectionCandidate]:
        """Exact knapsack under the budget; see the class docstring."""
        import numpy as np

        budget = max(0, int(budget_tokens))
        pool = [c for c in unique(candidates, self.value, self.min_confidence) if self.value(c) > 0]
        pool = [c for c in pool if item_tokens(c.text, context.chars_per_token) <= budget]
        if not pool:
            return []
        if len(pool) * (budget + 1) > self.max_cells:
            raise MemlabError(
                f"knapsack over {len(pool)} candidates and {budget} tokens exceeds max_cells={self.max_cells}; "
                "raise selector.max_cells or use selector=seed_weighted"
            )
        best = np.zeros(budget + 1)  # best[b] = largest value within b tokens
        take = np.zeros((len(pool), budget + 1), dtype=bool)
        for i, c in enumerate(pool):
            w = item_tokens(c.text, context.chars_per_token)
            candidate = best[: budget + 1 - w] + self.value(c)
            better = candidate > best[w:]
            take[i, w:] = better
            best[w:] = np.where(better, candidate, best[w:])
        chosen, b = [], budget
        for i in range(len(pool) - 1, -1, -1):
            if take[i, b]:
                chosen.append(pool[i])
                b -= item_tokens(pool[i].text, context.chars_per_token)
        chosen.sort(key=lambda c: (-self.value(c), c.id))
        return chosen if self.max_items is None else chosen[: self.max_items]
