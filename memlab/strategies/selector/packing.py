"""Shared by selectors: one candidate per id (order-independent), confidence filter, greedy budget packing."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from memlab.core.errors import MemlabError
from memlab.core.selection_types import InjectionCandidate
from memlab.text.tokens import item_tokens

OVERFLOW: tuple[str, ...] = ("skip", "stop")


def candidate_key(c: InjectionCandidate) -> tuple:
    """Every field of a candidate, comparable: the larger key wins among candidates sharing an id."""
    return (c.text, c.timestamp, c.relevance, c.recency, c.activation, c.confidence, c.kind, c.namespace, c.tier.value)


def unique(
    candidates: Iterable[InjectionCandidate], score: Callable[[InjectionCandidate], float], min_confidence: float
) -> list[InjectionCandidate]:
    """Drop candidates under ``min_confidence``; of several with one id keep the best ``(score, key)``.

    The result is sorted by ``(score desc, id asc)`` and does not depend on the input order.
    """
    best: dict[str, InjectionCandidate] = {}
    for c in candidates:
        if c.confidence < min_confidence:
            continue
        kept = best.get(c.id)
        if kept is None or (score(c), candidate_key(c)) > (score(kept), candidate_key(kept)):
            best[c.id] = c
    return sorted(best.values(), key=lambda c: (-score(c), c.id))


def pack(
    ranked: Sequence[InjectionCandidate],
    budget_tokens: int,
    chars_per_token: int,
    max_items: int | None = None,
    on_overflow: str = "skip",
) -> list[InjectionCandidate]:
    """Take ``ranked`` in order while the budget allows: ``skip`` an item that does not fit (a shorter one
    may), or ``stop`` at it; at most ``max_items`` items (``None`` = no limit).
    """
    if on_overflow not in OVERFLOW:
        raise MemlabError(f"unknown on_overflow '{on_overflow}'; valid: {', '.join(OVERFLOW)}")
    chosen: list[InjectionCandidate] = []
    used = 0
    for c in ranked:
        if max_items is not None and len(chosen) >= max_items:
            break
        cost = item_tokens(c.text, chars_per_token)
        if used + cost > budget_tokens:
            if on_overflow == "stop":
                break
            continue
        chosen.append(c)
        used += cost
    return chosen
