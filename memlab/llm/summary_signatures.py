"""DSPy signature of the seed's cluster-summary prompt (built lazily: importing this module does not import dspy).

The git-notes-memory consolidation spec (``SUMMARY_SYSTEM_PROMPT`` in its architecture document) asks a
model to consolidate related memories of a software project into a short summary, the key facts, the
decisions with rationale and outcome, and the facts that newer memories made outdated. The instructions
below restate that prompt; they are not a verbatim copy. The temporal range and the source ids, which the
spec's ``MemorySummary`` also holds, are taken from the memories the model cites (``source_ids``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

#: Bumped whenever the signature or the instructions change (part of the response cache key).
PROMPT_VERSION = 1

SUMMARY_INSTRUCTIONS = """You consolidate related memories recorded during a software project into one summary.

Guidelines:
- Keep the key decisions and why they were made.
- Note outcomes and lessons learned.
- Point out information that later memories made outdated or replaced.
- Be concise but complete, and keep what is actionable.
- Use only the memories given; cite the ids of the memories the summary draws on."""


@cache
def signature() -> Any:
    """The DSPy signature class of the cluster summary."""
    import dspy

    class ClusterSummary(dspy.Signature):
        memories: str = dspy.InputField(desc="the related memories, one per line: [id] (namespace, time) text")
        known_supersessions: str = dspy.InputField(desc="supersessions already judged: old id -> new id, or none")
        summary: str = dspy.OutputField(desc="a 2-3 sentence summary")
        key_facts: list[str] = dspy.OutputField(desc="facts that are still true")
        decisions: list[dict[str, str]] = dspy.OutputField(
            desc='decisions as {"decision": ..., "rationale": ..., "outcome": ...}'
        )
        superseded_facts: list[dict[str, str]] = dspy.OutputField(
            desc='outdated facts as {"original_fact": ..., "superseded_by": ..., "source_memory_id": ...}'
        )
        source_ids: list[str] = dspy.OutputField(desc="ids of the memories the summary draws on")

    return ClusterSummary.with_instructions(SUMMARY_INSTRUCTIONS)


def summary_fields(outputs: Mapping[str, Any]) -> dict[str, Any]:
    """The answer's summary fields (the signature's outputs are already named after them)."""
    return {f: outputs.get(f) for f in ("summary", "key_facts", "decisions", "superseded_facts", "source_ids")}
