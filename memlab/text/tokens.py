"""Token estimate shared by selectors and the block renderer (the seed's 4 characters per token)."""

from __future__ import annotations

import math

#: Characters per token (the seed's estimate).
CHARS_PER_TOKEN = 4


def item_tokens(text: str, chars_per_token: int = 4) -> int:
    """Tokens one injected item costs: its characters plus the newline that separates it, rounded up.

    Summing this over the selected items and adding the block's fixed overhead bounds the whole block's
    ``len(block) // chars_per_token``, so a selector that respects it keeps the block inside the budget.
    """
    return math.ceil((len(text) + 1) / chars_per_token)


def word_list(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of ``text`` in order: a long word list written as one string."""
    return tuple(text.split())


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """``|a ∩ b| / |a ∪ b|`` (0 for two empty sets)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0
