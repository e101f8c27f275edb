"""A query's context: recalled units, chosen by the policy's selector under the token budget.

Recall ranks the eligible units (:mod:`memlab.pipeline.recall`); each hit becomes a selector candidate
whose relevance is its reciprocal rank ``1 / (1 + rank)`` (retrieval scores compare only within one
ranking, so the rank is what carries over); the selector chooses under ``pipeline.budget_tokens``; the
context is what it chose, in retrieval order. Answerers read only the context. A selector that shortens
lines (``current_facts``) is budgeted by the shortened text; the answerer still reads the whole unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memlab.core.types import InjectionCandidate, Memory, SelectionContext
from memlab.pipeline.inject import contested, memory_candidate, summary_candidate
from memlab.pipeline.recall import RecallHit
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.units import sources_of
from memlab.text.tokens import item_tokens
from memlab.wiring.components import Components


@dataclass(frozen=True)
class ContextItem:
    """One selected unit.

    Attributes:
        unit: The memory, or the summary as a unit (:func:`memlab.pipeline.units.summary_unit`).
        rank: Its retrieval rank (0 = best).
        score: Its retrieval score.
        text: The line the selector budgeted.
    """

    unit: Memory
    rank: int
    score: float
    text: str


@dataclass(frozen=True)
class QueryContext:
    """What a query saw: the recall hits and the selected context (retrieval order)."""

    hits: tuple[RecallHit, ...]
    items: tuple[ContextItem, ...]
    tokens: int

    @property
    def ranked_ids(self) -> list[str]:
        """Unit ids as recall ranked them."""
        return [h.memory.id for h in self.hits]

    @property
    def unit_ids(self) -> list[str]:
        """Ids of the selected units, in retrieval order."""
        return [i.unit.id for i in self.items]

    def memory_ids(self) -> list[str]:
        """Memory ids the context speaks for (a summary counts as its sources), first occurrence order."""
        seen: dict[str, None] = {}
        for item in self.items:
            for mid in sources_of(item.unit):
                seen.setdefault(mid, None)
        return list(seen)


def hit_candidate(
    store: MemoryStore, components: Components, hit: RecallHit, now: datetime, doubt: dict[str, float]
) -> InjectionCandidate:
    """A recall hit as a selector candidate (relevance: reciprocal rank)."""
    relevance = 1.0 / (1.0 + hit.rank)
    if hit.is_summary and hit.memory.id in store.summaries:
        return summary_candidate(store.summaries[hit.memory.id], now, relevance)
    return memory_candidate(store, components, hit.memory, now, relevance, doubt)


def select_context(
    store: MemoryStore,
    components: Components,
    hits: Sequence[RecallHit],
    now: datetime,
    query: str | None = None,
    *,
    past: bool = False,
    as_of: datetime | None = None,
) -> QueryContext:
    """The selector's choice among ``hits`` under ``pipeline.budget_tokens``, in retrieval order.

    With ``past`` (a question about past events) no candidate is marked down for a pending doubt that it is
    still current (:func:`~memlab.pipeline.inject.contested`): whether a fact was replaced does not change when it
    happened. With ``as_of`` (a question about what was current at that earlier time) only the doubts raised by
    then count: a fact contested by a later note was not in doubt at ``as_of``.
    """
    doubt = {} if past else contested(store, now if as_of is None else min(now, as_of))
    pool = [hit_candidate(store, components, h, now, doubt) for h in hits]
    context = SelectionContext(now=now, query=query)
    chosen = components.selector.select(pool, context, components.settings.budget_tokens)
    by_id = {h.memory.id: h for h in hits}
    text_of = {c.id: c.text for c in chosen}
    picked = sorted((by_id[c.id] for c in chosen if c.id in by_id), key=lambda h: h.rank)
    items = tuple(ContextItem(h.memory, h.rank, h.score, text_of[h.memory.id]) for h in picked)
    tokens = sum(item_tokens(c.text, context.chars_per_token) for c in chosen)
    return QueryContext(tuple(hits), items, tokens)
