"""SessionStart selector for current facts: decisions first, newest first, one compact line each."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from memlab.core.selection_types import InjectionCandidate, SelectionContext
from memlab.strategies.selector.base import SelectorBase
from memlab.text.tokens import item_tokens, word_list

#: Default namespace priority: facts that stay true first, chatter last.
DEFAULT_PRIORITY: tuple[str, ...] = word_list(
    """decisions blockers patterns learnings research reviews elicitation inception retrospective progress"""
)
_ITEM_RE = re.compile(r"^- \[([^\]]*)\] (.*)$", re.DOTALL)


class CurrentFactsSelector(SelectorBase):
    """Pack as many current facts as the budget allows, rendered compactly.

    The candidates are already current (the pipeline hides superseded memories and duplicates); this
    selector decides which of them to show and how long each line is. Candidates are ordered by namespace
    priority, then newest first, then id; summaries are skipped unless ``include_summaries`` (they mix
    sources of different ages). Of several candidates with one id the newest (then the larger text) is
    kept, so the choice does not depend on input order. Each line keeps its ``[namespace, date]`` prefix
    and the text up to the first ``" — "`` (the memory's summary), cut to ``max_chars``; identical lines
    are kept once. Items that do not fit are skipped (the next, shorter one may fit).

    Args:
        priority: Namespaces in priority order (others come after, in name order).
        max_items: At most this many items.
        max_chars: Longest rendered line.
        include_summaries: Also consider cluster summaries.
        min_confidence: Candidates below this confidence are skipped.
    """

    name: ClassVar[str] = "current_facts"
    version: ClassVar[int] = 1

    def __init__(
        self,
        priority: Sequence[str] = DEFAULT_PRIORITY,
        max_items: int = 200,
        max_chars: int = 160,
        include_summaries: bool = False,
        min_confidence: float = 0.0,
    ) -> None:
        self.priority = tuple(priority)
        self.max_items = max_items
        self.max_chars = max_chars
        self.include_summaries = include_summaries
        self.min_confidence = min_confidence

    def compact(self, text: str) -> str:
        """``- [ns, date] summary`` cut to ``max_chars`` (an ellipsis marks a cut)."""
        match = _ITEM_RE.match(text)
        if match:
            head, body = match.groups()
            text = f"- [{head}] {body.split(' — ', 1)[0]}"
        text = " ".join(text.split())
        if len(text) > self.max_chars:
            text = text[: max(1, self.max_chars - 1)].rstrip() + "…"
        return text

    def select(
        self, candidates: Sequence[InjectionCandidate], context: SelectionContext, budget_tokens: int
    ) -> list[InjectionCandidate]:
        """Select under the budget; see the class docstring."""
        rank = {ns: i for i, ns in enumerate(self.priority)}
        pool: dict[str, InjectionCandidate] = {}
        for c in candidates:
            if c.confidence < self.min_confidence or (c.kind == "summary" and not self.include_summaries):
                continue
            kept = pool.get(c.id)
            if kept is None or (c.timestamp, c.text) > (kept.timestamp, kept.text):
                pool[c.id] = c
        ordered = sorted(
            pool.values(),
            key=lambda c: (rank.get(c.namespace, len(rank)), c.namespace, -c.timestamp.timestamp(), c.id),
        )
        chosen: list[InjectionCandidate] = []
        seen: set[str] = set()
        used = 0
        for c in ordered:
            if len(chosen) >= self.max_items:
                break
            text = self.compact(c.text)
            if text in seen:
                continue
            cost = item_tokens(text, context.chars_per_token)
            if used + cost > budget_tokens:
                continue
            seen.add(text)
            chosen.append(c.replace(text=text))
            used += cost
        return chosen
