"""squidbot's sliding window: past ``trigger`` messages, everything but the newest ``keep`` leaves context."""

from __future__ import annotations

from typing import ClassVar

from memlab.core.errors import MemlabError
from memlab.strategies.retention.window import WindowRetention


class SlidingWindowRetention(WindowRetention):
    """squidbot's consolidation trigger (Athemis/squidbot, ``docs/plans/2026-02-23-memory-consolidation-design.md``):
    nothing happens while the conversation holds at most ``trigger`` messages; once it holds more, every
    message but the newest ``keep`` is summarised into the memory document and leaves the context.

    Rendered as tiers: with ``n ≤ trigger`` memories every memory is HOT (score 1); with ``n > trigger``
    the ``keep`` newest (by timestamp, then id) are HOT (score 1) and the rest ARCHIVED (score 0) —
    archived, never deleted, as squidbot never modifies its raw log. The summary itself is the
    summarizer's job (``summarizer=running_document``).

    Not rendered: squidbot's later consolidation cursor (a revision that summarises only the messages
    after the last consolidation) — here the window is recomputed from the whole store at each run, which
    gives the same context (the newest ``keep``) without the repeated summaries the cursor fixed.

    Args:
        trigger: Messages above this count trigger consolidation (squidbot: 100).
        keep: Newest messages kept verbatim after consolidation (squidbot: 20).
    """

    name: ClassVar[str] = "sliding_window"
    version: ClassVar[int] = 1

    def __init__(self, trigger: int = 100, keep: int = 20) -> None:
        self.trigger = trigger
        self.keep = keep

    def kept(self, n: int) -> int:
        """All ``n`` up to ``trigger`` memories; beyond, the newest ``keep``."""
        if not 0 <= self.keep <= self.trigger:
            raise MemlabError(
                f"sliding_window needs 0 <= keep <= trigger, got keep={self.keep}, trigger={self.trigger}; "
                "fix retention.keep or retention.trigger"
            )
        return n if n <= self.trigger else self.keep
