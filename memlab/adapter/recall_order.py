"""``memlab recall``'s order: what is true first, superseded memories after it, each marked with what replaced it.

A spec whose recall mode is ``exhaustive`` (``tuned``'s) returns superseded memories too, ranked by the retriever
alone, so a stale fact can outrank the one that replaced it. The command keeps the retriever's order within each
part and moves every hit that stopped being true (at ``--as-of``, else now) after the current ones. Only the
command's presentation changes: the benchmarks score the retriever's own ranking.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memlab.pipeline.recall import RecallHit
from memlab.pipeline.store import MemoryStore


@dataclass(frozen=True)
class Shown:
    """One hit as the command shows it.

    Attributes:
        hit: The recall hit.
        superseded_by: The memory that replaced it (``None`` while it is current, or when no successor is stored).
        valid_until: When it stopped being true (``None`` while it is current).
    """

    hit: RecallHit
    superseded_by: str | None = None
    valid_until: datetime | None = None

    @property
    def superseded(self) -> bool:
        """Whether the hit was no longer true at the time asked about."""
        return self.valid_until is not None

    def mark(self, store: MemoryStore) -> str:
        """``[superseded by ID, DATE: SUMMARY]`` for a superseded hit, ``''`` for a current one."""
        if not self.superseded:
            return ""
        when = self.valid_until.date().isoformat() if self.valid_until else "?"
        newer = store.memories.get(self.superseded_by) if self.superseded_by else None
        if newer is None:
            return f"[superseded {when}]"
        return f"[superseded by {newer.id}, {when}: {newer.summary}]"


def current_first(store: MemoryStore, hits: list[RecallHit], when: datetime) -> list[Shown]:
    """``hits`` with those valid at ``when`` first, then the superseded ones (retriever order kept in each part).

    A summary unit counts as current (it is a unit while one of its sources is still valid).
    """
    current: list[Shown] = []
    stale: list[Shown] = []
    for hit in hits:
        mid = hit.memory.id
        state = store.states.get(mid) if mid in store.memories else None
        if state is None or state.valid_until is None or when < state.valid_until:
            current.append(Shown(hit))
        else:
            stale.append(Shown(hit, state.superseded_by, state.valid_until))
    return current + stale
