"""DSPy signatures of the field's question-answering protocol: a reader and a "J" judge (built lazily).

Published memory systems (Mem0, Zep, LangMem, A-Mem ...) are compared on LoCoMo by a language model that
answers each question from the memory's context and a second call that grades the answer against the gold
one. The instructions below restate, in our own words, what Mem0's published evaluation asks of its reader
(``evaluation/prompts.py``: read every memory, trust the newest when they disagree, turn relative times into
absolute ones from the memory's date, keep the people apart, reason step by step, answer in a few words) and
of its judge (``evaluation/metrics/llm_judge.py``: CORRECT or WRONG, generous with longer answers that touch
the gold's topic and with other formats of the same date, a one-sentence reason first). They are not verbatim
copies; results from them are comparable with the published J in protocol, not in model or data.

Both signatures carry a ``reasoning`` output before the answer (the step-by-step reading and the one-sentence
reason the published prompts ask for), so a plain ``dspy.Predict`` — what
:class:`~memlab.llm.client.LLMClient` calls — keeps the chain of thought of the published protocol.

Importing this module does not import dspy.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

#: Bumped whenever a signature or its instructions change (recorded with the run's answers).
PROMPT_VERSION = 2

READER_INSTRUCTIONS = """You answer a question about a long conversation between two people. You see only \
memories taken from that conversation, each with the date it was recorded.

How to answer:
- Go through the memories of both people and look for direct evidence of the event or fact asked about.
- Use the dates. When memories disagree, the more recent one wins.
- A relative time ("last month", "three weeks ago") counts from the date of the memory that says it: a memory \
dated 10 March 2021 that mentions "two years ago" points to 2019. Answer with the absolute date, month or year, \
never with the relative phrase.
- Do not mix up the people named inside a memory with the two speakers.
- Reason step by step from the memories only, then give a precise, specific answer of no more than about six \
words."""

JUDGE_INSTRUCTIONS = """You grade a generated answer to a question that one person asked another about what \
they talked about before. Compare it with the gold (reference) answer and label it CORRECT or WRONG.

- The gold answer is short; the generated answer may be much longer. Be lenient: when it is about the same \
thing as the gold answer, it is CORRECT.
- For questions about time the gold answer names a day, month, year or period. When the generated answer \
points to the same day or period, it is CORRECT, also in another format ("7th of May" for "7 May 2023") or \
when it states the time relative to a date.
- Give your reason in one sentence, then exactly one label."""


@cache
def reader_signature() -> Any:
    """The reader: memories and a question in, reasoning and a short answer out."""
    import dspy

    class AnswerFromMemories(dspy.Signature):
        memories: str = dspy.InputField(desc="one memory per line: [date recorded] speaker: text")
        question: str = dspy.InputField()
        reasoning: str = dspy.OutputField(desc="step by step, from the memories only")
        answer: str = dspy.OutputField(desc="a precise answer of at most about six words")

    return AnswerFromMemories.with_instructions(READER_INSTRUCTIONS)


@cache
def judge_signature() -> Any:
    """The J judge: question, gold and generated answer in, a one-sentence reason and CORRECT or WRONG out."""
    import dspy

    class GradeAnswer(dspy.Signature):
        question: str = dspy.InputField()
        gold_answer: str = dspy.InputField()
        generated_answer: str = dspy.InputField()
        reasoning: str = dspy.OutputField(desc="one sentence")
        label: Literal["CORRECT", "WRONG"] = dspy.OutputField()

    return GradeAnswer.with_instructions(JUDGE_INSTRUCTIONS)
