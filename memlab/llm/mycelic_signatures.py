"""DSPy signature of MycelicMemory's merge prompt (built lazily: importing this module does not import dspy).

When MycelicMemory's classifier answers MERGE, the two facts are handed back to the model, which writes them
as one coherent statement that keeps what each adds. The instructions below say that in memlab's own words;
they are not a copy of MycelicMemory's text. memlab stores the answer as the text of the combined memory
(memlab/pipeline/online.py); the originals stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

#: Bumped whenever the signature or the instructions change (part of the response cache key).
PROMPT_VERSION = 1

INSTRUCTIONS = """Two facts recorded in a software project complement each other. Combine them into one
coherent statement.

Guidelines:
- Keep every detail either fact adds; say each thing once.
- Where they differ in time, keep the newer fact's wording.
- Add nothing that neither fact says."""


@cache
def signature() -> Any:
    """The DSPy signature class of the merge."""
    import dspy

    class MergeFacts(dspy.Signature):
        existing_fact: str = dspy.InputField(desc="the existing fact and when it was stored")
        new_fact: str = dspy.InputField(desc="the new fact and when it was recorded")
        merged: str = dspy.OutputField(desc="one statement combining both facts")

    return MergeFacts.with_instructions(INSTRUCTIONS)


def merged_text(outputs: Mapping[str, Any]) -> str:
    """The merged statement (raises ``ValueError`` when empty)."""
    text = " ".join(str(outputs.get("merged") or "").split())
    if not text:
        raise ValueError("empty merged statement")
    return text
