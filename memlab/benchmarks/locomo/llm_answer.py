"""LLM answers for every category through DSPy (model from the ``llm`` group, responses cached)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from memlab.core.errors import MemlabError
from memlab.core.types import Memory


def _context(memories: Sequence[Memory]) -> str:
    ordered = sorted(memories, key=lambda m: (m.timestamp, str(m.meta.get("dia_id", m.id))))
    return "\n".join(f"[{m.timestamp.day} {m.timestamp:%B %Y}] {m.text}" for m in ordered)


class LlmAnswerer:
    """Answers a question from retrieved turns with a DSPy ``Predict`` over a small signature.

    Calls go through :class:`memlab.llm.client.LLMClient` (cache, accounting under ``llm.answerer.*``,
    retries of malformed output). A failure stops the run with one line (``llm.on_error=fail``, the default);
    with ``llm.on_error=fallback`` the answer is empty and ``malformed=True`` (counted in ``llm_fallbacks``).
    :attr:`last_` holds the last answer's calls, tokens and whether it came from the cache.

    Args:
        llm_cfg: The resolved ``llm`` config (passed to :func:`memlab.llm.lm.make_lm`).
        seed: Run seed (recorded; DSPy caching makes repeated runs identical).
    """

    def __init__(self, llm_cfg: Mapping[str, Any], seed: int = 0) -> None:
        if not llm_cfg or not llm_cfg.get("model"):
            raise MemlabError("dataset.llm_answer=true needs an LLM: pick llm=local|openai|ollama (llm=none has none)")
        self.llm_cfg = dict(llm_cfg)
        self.seed = seed
        self.client_: Any = None
        self.program_: Any = None

    def _program(self) -> Any:
        if self.program_ is None:
            import dspy

            from memlab.llm.client import LLMClient

            class AnswerFromMemory(dspy.Signature):
                """Answer the question about the conversation from the dated excerpts. Give a short answer
                (a few words or a date like '7 May 2023'); resolve relative dates against each excerpt's date.
                If the excerpts do not contain the answer, answer 'Not mentioned'.
                """

                excerpts: str = dspy.InputField()
                today: str = dspy.InputField()
                question: str = dspy.InputField()
                answer: str = dspy.OutputField()

            self.client_ = LLMClient(self.llm_cfg, "answerer", "dataset.llm_answer", "an empty answer")
            self.program_ = AnswerFromMemory
        return self.program_

    @property
    def last_(self) -> dict[str, Any]:
        """Calls, tokens and cache hit of the last answer (empty before the first)."""
        return dict(self.client_.last_) if self.client_ is not None else {}

    def answer(self, question: str, memories: Sequence[Memory], now: datetime) -> tuple[str, bool]:
        """``(answer, malformed)`` for ``question`` given the retrieved ``memories``."""
        program = self._program()

        def parse(outputs: Mapping[str, Any]) -> str:
            text = outputs.get("answer")
            if not isinstance(text, str) or not text.strip():
                raise ValueError("empty answer")
            return " ".join(text.split())[:300]

        inputs = {"excerpts": _context(memories), "today": f"{now.day} {now:%B %Y}", "question": question}
        text = self.client_.ask(program, inputs, parse)
        return ("", True) if text is None else (text, False)
