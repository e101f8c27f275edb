"""LLM answers for every category through DSPy (model from the ``llm`` group, responses cached)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from memlab.errors import MemlabError
from memlab.types import Memory


def _context(memories: Sequence[Memory]) -> str:
    lines = []
    for m in sorted(memories, key=lambda m: (m.timestamp, str(m.meta.get("dia_id", m.id)))):
        lines.append(f"[{m.timestamp.day} {m.timestamp:%B %Y}] {m.text}")
    return "\n".join(lines)


class LlmAnswerer:
    """Answers a question from retrieved turns with a DSPy ``Predict`` over a small signature.

    Malformed or failed model output gives an empty answer and ``malformed=True``, never an exception.

    Args:
        llm_cfg: The resolved ``llm`` config (passed to :func:`memlab.llm.lm.make_lm`).
        seed: Run seed (recorded; DSPy caching makes repeated runs identical).
    """

    def __init__(self, llm_cfg: Mapping[str, Any], seed: int = 0) -> None:
        if not llm_cfg or not llm_cfg.get("model"):
            raise MemlabError("dataset.llm_answer=true needs an LLM: pick llm=local|openai|ollama (llm=none has none)")
        self.llm_cfg = dict(llm_cfg)
        self.seed = seed
        self.lm_: Any = None
        self.program_: Any = None

    def _program(self) -> Any:
        if self.program_ is None:
            import dspy

            from memlab.llm.lm import make_lm

            class AnswerFromMemory(dspy.Signature):
                """Answer the question about the conversation from the dated excerpts. Give a short answer
                (a few words or a date like '7 May 2023'); resolve relative dates against each excerpt's date.
                If the excerpts do not contain the answer, answer 'Not mentioned'.
                """

                excerpts: str = dspy.InputField()
                today: str = dspy.InputField()
                question: str = dspy.InputField()
                answer: str = dspy.OutputField()

            self.lm_ = make_lm(self.llm_cfg)
            self.program_ = dspy.Predict(AnswerFromMemory)
        return self.program_

    def answer(self, question: str, memories: Sequence[Memory], now: datetime) -> tuple[str, bool]:
        """``(answer, malformed)`` for ``question`` given the retrieved ``memories``."""
        program = self._program()
        import dspy

        try:
            with dspy.context(lm=self.lm_):
                out = program(excerpts=_context(memories), today=f"{now.day} {now:%B %Y}", question=question)
            text = getattr(out, "answer", None)
        except Exception:  # malformed output, parse failure, server error: no answer, counted
            return "", True
        if not isinstance(text, str) or not text.strip():
            return "", True
        return " ".join(text.split())[:300], False
