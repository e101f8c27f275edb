"""The reader protocol's language-model calls: an LLM reader answers from the selected context, a J judge grades.

Both go through :class:`memlab.llm.client.LLMClient` (the response cache, the run's LLM ledger, retries of
malformed output, ``llm.on_error``): the reader's calls count under the group ``reader`` (``llm.reader.*``),
the judge's under ``judge_qa`` (``llm.judge_qa.*``; ``judge`` is the relation judge's). The prompts are
:mod:`memlab.llm.qa_signatures`. Each question gets one reader ask and, with the judge on, one judge ask; the
row records the answer, its F1 and BLEU-1 (:mod:`memlab.benchmarks.qa_metrics`), the verdict, and per ask
whether it came from the cache (``reader_cache_hit``), the calls it took (``reader_calls``) and, when the model
answered in this run, its wall seconds and tokens (``reader_seconds``, ``reader_prompt_tokens``,
``reader_completion_tokens``; a cached answer has none: it cost nothing).

Failures follow ``llm.on_error``. ``fail`` (the default): an unreachable endpoint, an auth error or output that
stays malformed after ``llm.malformed_retries`` stops the run with one line. ``fallback``: a reader that gave
no answer leaves an empty answer (``reader_malformed``; F1, BLEU-1 and J 0, the judge is not asked), a judge
that gave no verdict leaves J undefined for that question (``judge_label`` ``None``, counted in
``n_judge_malformed``); the line of the failure is kept in the row (``reader_error``, ``judge_error``) and the
ledger counts the fallback.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from memlab.benchmarks.qa_metrics import bleu1, qa_f1
from memlab.core.errors import MemlabError
from memlab.core.types import Memory
from memlab.llm.qa_signatures import PROMPT_VERSION

#: The ledger groups of the protocol's calls.
READER_GROUP = "reader"
JUDGE_GROUP = "judge_qa"
LABELS: tuple[str, ...] = ("CORRECT", "WRONG")


def render_memories(units: Sequence[Memory]) -> str:
    """The context as the reader sees it: one line per unit, ``[7 May 2023] Speaker: text``, in time order."""
    ordered = sorted(units, key=lambda m: (m.timestamp, m.id))
    return "\n".join(f"[{m.timestamp.day} {m.timestamp:%B %Y}] {' '.join(m.text.split())}" for m in ordered)


def parse_answer(outputs: Mapping[str, Any]) -> str:
    """The reader's answer, whitespace collapsed, at most 300 characters.

    Raises:
        ValueError: No answer (malformed output).
    """
    text = outputs.get("answer")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("no answer")
    return " ".join(text.split())[:300]


def parse_label(outputs: Mapping[str, Any]) -> str:
    """The judge's verdict, ``CORRECT`` or ``WRONG``.

    Raises:
        ValueError: Any other label (malformed output).
    """
    label = str(outputs.get("label") or "").strip().upper()
    if label not in LABELS:
        raise ValueError(f"label {outputs.get('label')!r} is not CORRECT or WRONG")
    return label


class QaReader:
    """An LLM reader and (optionally) an LLM judge over one ``llm`` configuration.

    Args:
        llm_cfg: The resolved ``llm`` config (``model``, ``api_base``, ``on_error``, ``cache`` ...).
        judge: Also grade every answer with the J judge.
        option: The option that enabled the reader (named in errors).
    """

    def __init__(self, llm_cfg: Mapping[str, Any], judge: bool = True, option: str = "dataset.llm_reader=true") -> None:
        if not llm_cfg or not llm_cfg.get("model"):
            raise MemlabError(
                f"{option} needs an LLM: pick llm=local|openai|ollama or set llm.model (llm=none has none)"
            )
        self.llm_cfg = dict(llm_cfg)
        self.judge = judge
        self.option = option
        self.reader_: Any = None
        self.judge_: Any = None

    def _build(self) -> None:
        if self.reader_ is None:
            from memlab.llm.client import LLMClient

            stand_in = "an empty answer (F1, BLEU-1 and J 0, counted as n_reader_malformed)"
            self.reader_ = LLMClient(self.llm_cfg, READER_GROUP, f"{self.option} (reader)", stand_in)
            stand_in = "no verdict (J undefined for the question, counted as n_judge_malformed)"
            self.judge_ = LLMClient(self.llm_cfg, JUDGE_GROUP, f"{self.option} (J judge)", stand_in)

    @staticmethod
    def _ask(
        client: Any, what: str, signature: Any, inputs: Mapping[str, str], parse: Callable[[dict[str, Any]], str]
    ) -> tuple[str | None, dict[str, Any]]:
        """``(parsed value or None after a fallback, the row's <what>_* fields of this ask)``."""
        start = time.perf_counter()
        value = client.ask(signature, inputs, parse)
        seconds = time.perf_counter() - start
        last = client.last_
        row: dict[str, Any] = {f"{what}_cache_hit": bool(last.get("cache_hit")), f"{what}_calls": last.get("calls", 0)}
        if value is None:
            row[f"{what}_error"] = last.get("error")
        elif last.get("calls"):  # answered by the model in this run: its latency and tokens
            row[f"{what}_seconds"] = seconds
            row[f"{what}_prompt_tokens"] = last.get("prompt_tokens")
            row[f"{what}_completion_tokens"] = last.get("completion_tokens")
        return value, row

    def read(self, question: str, gold: object, units: Sequence[Memory]) -> dict[str, Any]:
        """The row fields of one question: answer, F1, BLEU-1, verdict and costs.

        Raises:
            LLMFailure: A call failed and ``llm.on_error=fail``.
        """
        from memlab.llm.qa_signatures import judge_signature, reader_signature

        self._build()
        inputs = {"memories": render_memories(units), "question": question}
        answer, row = self._ask(self.reader_, "reader", reader_signature(), inputs, parse_answer)
        answer = answer or ""
        row.update(reader_answer=answer, reader_malformed=not answer, qa_prompt_version=PROMPT_VERSION)
        row.update(reader_f1=qa_f1(answer, gold), reader_bleu1=bleu1(answer, gold))
        if not self.judge:
            return row
        if not answer:  # nothing to grade: an unanswered question is wrong
            row["j_correct"] = 0.0
            return row
        inputs = {"question": question, "gold_answer": str(gold), "generated_answer": answer}
        label, cost = self._ask(self.judge_, "judge", judge_signature(), inputs, parse_label)
        row.update(cost, judge_label=label, j_correct=None if label is None else float(label == "CORRECT"))
        return row
