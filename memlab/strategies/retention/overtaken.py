"""Overtaken: a memory the store has grown well past leaves the block (COLD), whatever its age in days.

Built for memory files (CLAUDE.md, AGENTS.md, memory banks), where a fact leaves the file without a kept successor
more often than it is replaced (development repositories: 611 retired and 880 paired below the gold's cut, against
951 kept pairs; ``reports/memory_files.md``), and such facts are 7-11% of every judge's block, which no judge can
see. What predicts that a fact is gone is not its age in days but how much of
the file was written after it: on the development repositories, a logistic model over eight history features
(commits since, share of the facts written after it, the size of its own and of later commits, its best token
overlap with a later fact, its length, whether it came with the first commit, the store's size), fitted leave one
repository out, ranked the facts no better than the share alone (``experiments/memory_files/README.md``,
"Facts gone without a successor"). So the option is that share with a cut, a trade of coverage for precision
chosen by the researcher. It is an instrument, not a policy: on the sealed repositories the trade is much worse
than on the development ones (at 0.5, block precision +0.013 for 3.6 points of coverage; the README has the
frontier on both), so no experiment selects it.

A memory is COLD, not ARCHIVED: it leaves the SessionStart block and standard recall but stays in deep recall.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, MemoryState, RetentionScore, Tier
from memlab.strategies.retention.base import RetentionBase

if TYPE_CHECKING:
    from memlab.strategies.retention.base import References


class OvertakenRetention(RetentionBase):
    """Score ``1 - s``, where ``s`` is the share of the scored memories recorded strictly after the memory (a
    memory recorded with others at one time is not overtaken by them); HOT while ``s ≤ max_later_share``, COLD
    beyond. The score depends on the other memories, so the pipeline calls :meth:`score_all`; :meth:`score`
    scores one memory as if it were the only one (HOT, score 1). It reads no clock: ``now`` changes nothing.

    Args:
        max_later_share: The share of the store recorded after a memory from which it is COLD (1: never).
    """

    name: ClassVar[str] = "overtaken"
    version: ClassVar[int] = 1

    def __init__(self, max_later_share: float = 0.5) -> None:
        self.max_later_share = max_later_share

    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """One memory alone: nothing was recorded after it."""
        return self.score_all([memory], [state], now)[0]

    def score_all(
        self, memories: Sequence[Memory], states: Sequence[MemoryState], now: datetime, *, references: References = None
    ) -> list[RetentionScore]:
        """Each memory's share of later memories against the cut."""
        if not 0.0 <= self.max_later_share <= 1.0:
            raise MemlabError(f"overtaken needs 0 <= max_later_share <= 1, got {self.max_later_share}; "
                              "fix retention.max_later_share")  # fmt: skip
        times = sorted(m.timestamp for m in memories)
        out = []
        for memory in memories:
            later = (len(times) - bisect.bisect_right(times, memory.timestamp)) / len(times)
            tier = Tier.HOT if later <= self.max_later_share else Tier.COLD
            out.append(RetentionScore(1.0 - later, tier, recency=1.0 - later))
        return out
