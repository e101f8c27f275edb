"""DSPy signature of squidbot's consolidation prompt (built lazily: importing this module does not import dspy).

squidbot (Athemis/squidbot's memory-consolidation design) keeps a running memory document: when the
conversation outgrows its window, the messages that leave the context are handed to the model, which writes
what is worth remembering from them as a section appended to the document (the document is only ever
appended to; the raw log stays as it is). The instructions below say that in memlab's own words; they are
not a copy of squidbot's text. The answer maps onto the summary fields: ``section`` is the summary text,
``facts_to_remember`` the key facts, ``outdated`` the superseded facts, ``source_ids`` the cited messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

#: Bumped whenever the signature or the instructions change (part of the response cache key).
PROMPT_VERSION = 1

INSTRUCTIONS = """These messages are leaving the agent's context window. Write what should be remembered from
them as one section to append to the agent's running memory document.

Guidelines:
- Keep facts, decisions, preferences and commitments that later work will need; drop chatter.
- Rewrite in your own words and merge statements that say the same thing.
- When a later message changes an earlier one, keep the newer version and list the older one as outdated.
- Use only the messages given; cite the ids of the messages the section draws on."""


@cache
def signature() -> Any:
    """The DSPy signature class of squidbot's consolidation."""
    import dspy

    class WindowConsolidation(dspy.Signature):
        memories: str = dspy.InputField(desc="the messages leaving the window: [id] (namespace, time) text")
        known_supersessions: str = dspy.InputField(desc="supersessions already judged: old id -> new id, or none")
        section: str = dspy.OutputField(desc="a short Markdown section to append to the memory document")
        facts_to_remember: list[str] = dspy.OutputField(desc="the facts still true, one per item")
        outdated: list[dict[str, str]] = dspy.OutputField(
            desc='outdated facts as {"original_fact": ..., "superseded_by": ..., "source_memory_id": ...}'
        )
        source_ids: list[str] = dspy.OutputField(desc="ids of the messages the section draws on")

    return WindowConsolidation.with_instructions(INSTRUCTIONS)


def summary_fields(outputs: Mapping[str, Any]) -> dict[str, Any]:
    """The answer in the summary's fields (what the ``dspy`` summarizer validates)."""
    return {
        "summary": outputs.get("section"),
        "key_facts": outputs.get("facts_to_remember"),
        "decisions": [],
        "superseded_facts": outputs.get("outdated"),
        "source_ids": outputs.get("source_ids"),
    }
