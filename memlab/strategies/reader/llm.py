"""``reader=llm``: a language model answers from the context, through DSPy (:class:`memlab.llm.client.LLMClient`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cache
from typing import Any, ClassVar

from memlab.core.types import Answer, Memory
from memlab.strategies.reader.base import ReaderBase
from memlab.text.tokens import CHARS_PER_TOKEN

#: Bumped whenever the signature or its instructions change (the cache keys on the prompt text too).
PROMPT_VERSION = 2

INSTRUCTIONS = """You answer a question about a software project from its memory: notes, summaries of notes, \
session narratives or a running document, each line with an id and the date it was recorded.

- Answer from these lines only. When lines disagree about what holds, the more recently recorded one wins; a \
line saying a thing was replaced, dropped or moved away from means the old value no longer holds.
- A question about a past time ("as of 2025-01-19") asks what held then.
- A question asking when something happened is answered with the date (YYYY-MM-DD) the text gives the event, \
else the date of the line that records it.
- Answer in a few words: the value or the date alone. Name the ids of the lines you read it from.
- If the lines do not say, answer with an empty answer and no ids."""


@cache
def reader_signature() -> Any:
    """The signature (built lazily: importing this module does not import dspy)."""
    import dspy

    class AnswerFromContext(dspy.Signature):
        context: str = dspy.InputField(desc="one line per unit: [id] (date recorded) text")
        question: str = dspy.InputField()
        now: str = dspy.InputField(desc="the date the question is asked")
        answer: str = dspy.OutputField(desc="the value or date alone, a few words; empty if the lines do not say")
        unit_ids: str = dspy.OutputField(desc="ids of the lines the answer comes from, comma-separated")

    AnswerFromContext.__doc__ = INSTRUCTIONS
    return AnswerFromContext


class LLMReader(ReaderBase):
    """Asks a language model for the answer, given the context's units as dated lines.

    Malformed output (no ``answer`` field) is retried (``llm.malformed_retries``) and then follows ``llm.on_error``:
    ``fail`` stops the run with one line; ``fallback`` answers with the empty answer (counted by the run's LLM
    ledger under the group ``reader``). Ids the model names that are not context ids are dropped.

    Args:
        llm: The ``llm`` config (``model``, ``api_base``, ``cache`` ...; conf: ``${llm}``).
        cache_dir: Response cache folder (``None``: ``llm.cache_dir``); ``llm.cache=false`` turns it off.
        max_context_tokens: The context's size in tokens (4 characters each, as the selector's budget counts):
            units are shown whole, in retrieval order, until the next would pass it; that one is shown cut to what
            is left and the rest are not shown. A bound on the whole context, not on each unit: a design whose
            units are long documents (squidbot's sections, Astra's narratives) is read as far as any other.
        max_units: Units shown, in retrieval order (0: all).
    """

    name: ClassVar[str] = "llm"
    version: ClassVar[int] = 2

    def __init__(
        self,
        llm: Mapping[str, Any] | None = None,
        cache_dir: str | None = None,
        max_context_tokens: int = 4000,
        max_units: int = 0,
    ) -> None:
        self.llm = dict(llm or {})
        self.cache_dir = cache_dir
        self.max_context_tokens = max_context_tokens
        self.max_units = max_units
        self.client_: Any = None

    def _setup(self) -> None:
        if self.client_ is not None:
            return
        if not self.llm.get("model"):
            from memlab.core.errors import MemlabError

            raise MemlabError("reader=llm has no LLM configured; pick one with llm=<option> or use reader=extractive")
        from memlab.llm.client import LLMClient

        self.client_ = LLMClient(self.llm, "reader", "reader=llm", "the empty answer", cache_dir=self.cache_dir)

    def render(self, units: Sequence[Memory]) -> str:
        """The units as prompt lines, in retrieval order, within ``max_context_tokens``."""
        text = "\n".join(f"[{u.id}] ({u.timestamp.date().isoformat()}) {' '.join(u.text.split())}" for u in units)
        return text[: self.max_context_tokens * CHARS_PER_TOKEN].rstrip("\n")

    def answer(self, question: str, context: Sequence[Memory], now: datetime) -> Answer:
        """The model's answer (the empty answer for an empty context, without a call)."""
        units = list(context)[: self.max_units] if self.max_units > 0 else list(context)
        if not units:
            return Answer("", (), 0.0)
        self._setup()
        known = [u.id for u in units]

        def parse(outputs: dict[str, Any]) -> Answer:
            text = outputs.get("answer")
            if not isinstance(text, str):
                raise ValueError("no answer field")
            text = " ".join(text.split())[:300]
            named = {s.strip(" []") for s in str(outputs.get("unit_ids") or "").split(",")}
            ids = tuple(i for i in known if i in named) if text else ()
            return Answer(text, ids, 1.0 if text else 0.0)

        inputs = {"context": self.render(units), "question": question, "now": now.date().isoformat()}
        value = self.client_.ask(reader_signature(), inputs, parse)
        return value if value is not None else Answer("", (), 0.0)
