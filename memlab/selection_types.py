"""The value types of the SessionStart selection: :class:`Tier`, :class:`InjectionCandidate` and
:class:`SelectionContext` (with :data:`TIER_ORDER`).

They are part of :mod:`memlab.types`, which re-exports them (import them from there); they live in this
small module so that the SessionStart hook, which needs only them, does not create the other value types
on every session start.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime


class Tier(enum.StrEnum):
    """Retrieval tier of a memory, from a retention score.

    HOT and WARM are searched by default, COLD only in deep recall, ARCHIVED only in exhaustive recall.
    """

    HOT = "hot"
    WARM = "warm"
    COLD = "cold"
    ARCHIVED = "archived"


#: Token budget of the SessionStart block when a config or spec sets none (``pipeline.budget_tokens``).
DEFAULT_BUDGET_TOKENS = 2000

#: Tiers in order from most to least retrievable.
TIER_ORDER: tuple[Tier, ...] = (Tier.HOT, Tier.WARM, Tier.COLD, Tier.ARCHIVED)


@dataclass(frozen=True)
class InjectionCandidate:
    """Something the SessionStart selector may put into the injected block.

    Attributes:
        id: Memory or summary id.
        kind: ``summary`` or ``memory``.
        namespace: Namespace (summaries: the dominant one).
        text: The text that would be rendered.
        timestamp: Latest time the item speaks for.
        relevance: Similarity to the session context in [0, 1].
        recency: Recency factor in [0, 1].
        activation: Activation factor in [0, 1].
        confidence: Confidence in [0, 1].
        tier: The item's tier.
    """

    id: str
    kind: str
    namespace: str
    text: str
    timestamp: datetime
    relevance: float = 0.0
    recency: float = 0.0
    activation: float = 0.0
    confidence: float = 1.0
    tier: Tier = Tier.WARM


@dataclass(frozen=True)
class SelectionContext:
    """What the selector knows about the session it selects for.

    Attributes:
        now: The session's time (benchmark clock).
        query: Optional text describing the session (project name, branch, recent files).
        chars_per_token: Token estimate divisor (the seed uses 4).
    """

    now: datetime
    query: str | None = None
    chars_per_token: int = 4
