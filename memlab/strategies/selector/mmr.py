"""Maximal marginal relevance: relevant items first, each next one penalised for repeating the chosen ones."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from memlab.core.selection_types import InjectionCandidate, SelectionContext
from memlab.strategies.selector.base import SelectorBase
from memlab.strategies.selector.packing import unique
from memlab.strategies.selector.seed_weighted import seed_score
from memlab.text.tokens import item_tokens, jaccard

_PREFIX = re.compile(r"^- \[[^\]]*\]\s*")


def text_tokens(text: str) -> frozenset[str]:
    """Content tokens of a rendered item (the ``- [namespace, date]`` prefix removed; stemmed, no stop words)."""
    from memlab.text.lexical import tokens

    return frozenset(tokens(_PREFIX.sub("", text)))


class MmrSelector(SelectorBase):
    """Maximal marginal relevance (Carbonell & Goldstein 1998), greedy under the token budget.

    ``rel(c)`` is the seed's weighted score for ``prioritize_by`` (relevance 0.5/0.3/0.2 over relevance,
    recency, activation); the redundancy of ``c`` is its largest similarity to an item already chosen,
    ``sim`` = Jaccard overlap of the content tokens of the rendered texts (candidates carry no vectors).
    Each step picks ``argmax λ·rel(c) − (1 − λ)·max_{s ∈ chosen} sim(c, s)`` (ties: higher ``rel``, then
    id), skipping items that no longer fit the budget, until ``max_items`` are chosen or nothing fits.

    Args:
        lambda_: Trade-off λ in [0, 1] (1 = pure relevance; 0.5, the common default).
        prioritize_by: Weights of ``rel``: ``relevance``, ``recency`` or ``activation`` (the seed's table).
        max_items: At most this many items (seed: 10).
        min_confidence: Candidates below this confidence are skipped (seed: 0.7).
    """

    name: ClassVar[str] = "mmr"
    version: ClassVar[int] = 1

    def __init__(
        self,
        lambda_: float = 0.5,
        prioritize_by: str = "relevance",
        max_items: int | None = 10,
        min_confidence: float = 0.7,
    ) -> None:
        self.lambda_ = lambda_
        self.prioritize_by = prioritize_by
        self.max_items = max_items
        self.min_confidence = min_confidence

    def relevance(self, c: InjectionCandidate) -> float:
        """The seed's weighted score of ``c``."""
        return seed_score(c, self.prioritize_by)

    def select(
        self, candidates: Sequence[InjectionCandidate], context: SelectionContext, budget_tokens: int
    ) -> list[InjectionCandidate]:
        """Greedy MMR under the budget; see the class docstring."""
        pool = unique(candidates, self.relevance, self.min_confidence)
        rel = [self.relevance(c) for c in pool]
        cost = [item_tokens(c.text, context.chars_per_token) for c in pool]
        toks = [text_tokens(c.text) for c in pool]
        redundancy = [0.0] * len(pool)
        open_ = [i for i in range(len(pool)) if cost[i] <= budget_tokens]
        chosen: list[InjectionCandidate] = []
        left = budget_tokens
        while open_ and (self.max_items is None or len(chosen) < self.max_items):
            # pool is sorted by (rel desc, id asc), so min over (−mmr, index) breaks ties by rel then id
            best = min(open_, key=lambda i: (-(self.lambda_ * rel[i] - (1 - self.lambda_) * redundancy[i]), i))
            chosen.append(pool[best])
            left -= cost[best]
            open_ = [i for i in open_ if i != best and cost[i] <= left]
            for i in open_:
                redundancy[i] = max(redundancy[i], jaccard(toks[i], toks[best]))
        return chosen
