"""DSPy signatures of Astra's session narrative and insight prompts (built lazily: no dspy import at load).

Astra ("Memory Consolidation Layer Specification") consolidates each session into a narrative with four
parts — what happened, the emotional arc of the session, its key interactions and the threads left
unresolved — and later reads recent narratives for recurring patterns (its insight extractor: a pattern
statement and a category). The instructions below say that in memlab's own words; they are not a copy of
Astra's text. The narrative maps onto the summary fields: ``narrative`` and ``emotional_arc`` make the
summary text, key interactions and unresolved threads the key facts (prefixed ``Key interaction:`` and
``Unresolved:``, as ``summarizer=session_narrative`` writes them), ``source_ids`` the cited items.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

#: Bumped whenever a signature or its instructions change (part of the response cache key).
PROMPT_VERSION = 1

NARRATIVE_INSTRUCTIONS = """The items below are one working session, in time order. Tell the session as a short
narrative for the agent's long-term memory.

Guidelines:
- Say what happened and what came of it, in a few sentences.
- Describe the emotional arc: how the tone moved over the session (for example from frustration to relief).
- Name the key interactions that mattered most.
- List the threads left unresolved: open questions, blockers, promises not yet kept.
- Use only the items given; cite the ids of the items the narrative draws on."""

INSIGHT_INSTRUCTIONS = """The narratives below come from recent sessions and were grouped because they resemble
each other. State the recurring pattern they show, as one sentence the agent can learn from.

Guidelines:
- Describe what repeats across the sessions, not any single one.
- Pick one category: ontological, relational, capability, preference or process.
- Use only the narratives given."""

CATEGORIES: tuple[str, ...] = ("ontological", "relational", "capability", "preference", "process")


@cache
def narrative_signature() -> Any:
    """The DSPy signature class of Astra's session narrative."""
    import dspy

    class SessionNarrative(dspy.Signature):
        memories: str = dspy.InputField(desc="the session's items, one per line: [id] (namespace, time) text")
        known_supersessions: str = dspy.InputField(desc="supersessions already judged: old id -> new id, or none")
        narrative: str = dspy.OutputField(desc="what happened in the session, 2-4 sentences")
        emotional_arc: str = dspy.OutputField(desc="how the tone moved over the session, one sentence")
        key_interactions: list[str] = dspy.OutputField(desc="the interactions that mattered most")
        unresolved_threads: list[str] = dspy.OutputField(desc="open questions, blockers and promises left open")
        source_ids: list[str] = dspy.OutputField(desc="ids of the items the narrative draws on")

    return SessionNarrative.with_instructions(NARRATIVE_INSTRUCTIONS)


#: The signature the summarizer asks (``summarizer.prompt=astra``): the session narrative.
signature = narrative_signature


@cache
def insight_signature() -> Any:
    """The DSPy signature class of Astra's insight (one pattern over a cluster of narratives)."""
    import dspy

    class RecurringPattern(dspy.Signature):
        narratives: str = dspy.InputField(desc="the narratives, one per line: [id] (start..end) text")
        pattern: str = dspy.OutputField(desc="the recurring pattern, one sentence")
        category: str = dspy.OutputField(desc="one of: " + ", ".join(CATEGORIES))

    return RecurringPattern.with_instructions(INSIGHT_INSTRUCTIONS)


def _items(raw: Any) -> list[str]:
    items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return [" ".join(str(i).split()) for i in items if isinstance(i, str | int | float) and str(i).strip()]


def summary_fields(outputs: Mapping[str, Any]) -> dict[str, Any]:
    """The narrative in the summary's fields (see the module docstring)."""
    narrative = outputs.get("narrative")
    arc = outputs.get("emotional_arc")
    text = narrative if isinstance(narrative, str) else ""
    if text.strip() and isinstance(arc, str) and arc.strip():
        text = f"{text.strip()} Emotional arc: {' '.join(arc.split())}"
    facts = [f"Key interaction: {i}" for i in _items(outputs.get("key_interactions"))]
    facts += [f"Unresolved: {i}" for i in _items(outputs.get("unresolved_threads"))]
    return {
        "summary": text,
        "key_facts": facts,
        "decisions": [],
        "superseded_facts": [],
        "source_ids": outputs.get("source_ids"),
    }


def insight_fields(outputs: Mapping[str, Any]) -> tuple[str, str]:
    """``(pattern, category)`` from an insight answer; raises ``ValueError`` when malformed."""
    pattern = " ".join(str(outputs.get("pattern") or "").split())
    category = " ".join(str(outputs.get("category") or "").split()).lower()
    if not pattern:
        raise ValueError("empty pattern")
    if category not in CATEGORIES:
        raise ValueError(f"category {category!r} not one of {', '.join(CATEGORIES)}")
    return pattern, category
