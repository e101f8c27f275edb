"""DSPy signatures of the supersession prompts (built lazily: importing this module does not import dspy).

* ``seed`` — the consolidation seed spec's ``SUPERSESSION_SYSTEM_PROMPT``: does the newer memory supersede
  the older one (contradicts / replaces / makes obsolete), be conservative, answer ``supersedes``,
  ``confidence`` (high|medium|low) and ``reason``.
* ``fourway`` — the four-way classification of MycelicMemory's consolidation pipeline
  (MycelicMemory/MycelicMemory, ``documentation/mermaid/07-memory-consolidation-pipeline.md``,
  "Classification Prompt Template"): the existing fact with its time, the new fact with its time, one of
  DUPLICATE / SUPERSEDE / MERGE / COEXIST, a confidence in [0, 1] and a brief reasoning. The wording here
  restates that template's definitions; it is not a verbatim copy.
"""

from __future__ import annotations

from functools import cache
from typing import Any

SEED_INSTRUCTIONS = (
    ("You are analyzing two memories from a software project to determine if the newer one supersedes the older.")
    + """

Supersession means the newer memory:
1. Directly contradicts the older (decision changed)
2. Replaces the older (updated version of same info)
3. Makes the older obsolete (topic no longer relevant)

Be conservative - only mark as superseded with clear evidence."""
)

FOURWAY_INSTRUCTIONS = """You are a memory analyst. Compare an existing fact (stored earlier) with a new fact
and classify how the new fact relates to the existing one:

DUPLICATE - the new fact states the same information as the existing fact, possibly in other words.
SUPERSEDE - the new fact updates or contradicts the existing fact, so the existing fact is now outdated.
MERGE - the new fact adds complementary detail to the existing fact; the two belong together.
COEXIST - the facts are related but distinct (for example different scopes, contexts or timeframes); keep both.

Give the classification, a confidence between 0.0 and 1.0, and a brief reasoning."""

#: Prompt names → builder of the signature class.
PROMPTS: tuple[str, ...] = ("seed", "fourway")


@cache
def signature(prompt: str) -> Any:
    """The DSPy signature class for ``prompt`` (``seed`` or ``fourway``)."""
    import dspy

    if prompt == "seed":

        class SeedSupersession(dspy.Signature):
            older_memory: str = dspy.InputField(desc="the older memory, with its namespace and time")
            newer_memory: str = dspy.InputField(desc="the newer memory, with its namespace and time")
            supersedes: bool = dspy.OutputField(desc="true if the newer memory supersedes the older one")
            confidence: str = dspy.OutputField(desc="high, medium or low")
            reason: str = dspy.OutputField(desc="explanation if supersedes is true, otherwise empty")

        return SeedSupersession.with_instructions(SEED_INSTRUCTIONS)
    if prompt == "fourway":

        class FourWaySupersession(dspy.Signature):
            existing_fact: str = dspy.InputField(desc="the existing fact (stored previously) and when it was stored")
            new_fact: str = dspy.InputField(desc="the new fact and when it was recorded")
            classification: str = dspy.OutputField(desc="one of DUPLICATE, SUPERSEDE, MERGE, COEXIST")
            confidence: str = dspy.OutputField(desc="a number between 0.0 and 1.0")
            reasoning: str = dspy.OutputField(desc="brief explanation")

        return FourWaySupersession.with_instructions(FOURWAY_INSTRUCTIONS)
    from memlab.core.errors import MemlabError

    raise MemlabError(f"unknown supersession prompt '{prompt}'; valid: {', '.join(PROMPTS)}")
