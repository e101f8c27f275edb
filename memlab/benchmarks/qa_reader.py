"""The reader protocol's language-model calls: an LLM reader answers from the selected context, a J judge grades.

The model comes from the run's ``llm`` group through :func:`memlab.llm.lm.make_lm` (its response cache and
any accounting it applies); the prompts are :mod:`memlab.llm.qa_signatures`. Each question gets one reader
call and, with the judge on, one judge call; the row records the answer, its F1 and BLEU-1
(:mod:`memlab.benchmarks.qa_metrics`), the verdict, and each call's wall seconds and tokens (tokens only when
the server reported usage for a call made in this run: a response served from the cache reports none).

Output the adapter cannot parse is counted, never raised: a reader answer that cannot be read is an empty
answer (``reader_malformed``; F1, BLEU-1 and J 0, the judge is not asked), a verdict that cannot be read
leaves J undefined for that question. Any other failure (server down, authentication) stops the run with
one line.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from memlab.benchmarks.qa_metrics import bleu1, qa_f1
from memlab.errors import MemlabError
from memlab.llm.qa_signatures import PROMPT_VERSION
from memlab.types import Memory


def render_memories(units: Sequence[Memory]) -> str:
    """The context as the reader sees it: one line per unit, ``[7 May 2023] Speaker: text``, in time order."""
    ordered = sorted(units, key=lambda m: (m.timestamp, m.id))
    return "\n".join(f"[{m.timestamp.day} {m.timestamp:%B %Y}] {' '.join(m.text.split())}" for m in ordered)


class QaReader:
    """An LLM reader and (optionally) an LLM judge over one ``llm`` configuration.

    Args:
        llm_cfg: The resolved ``llm`` config (``model``, ``api_base`` ...).
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
        self.lm_: Any = None
        self.reader_: Any = None
        self.judge_: Any = None

    def _build(self) -> None:
        if self.lm_ is None:
            import dspy

            from memlab.llm.lm import make_lm
            from memlab.llm.qa_signatures import judge_signature, reader_signature

            self.lm_ = make_lm(self.llm_cfg)
            self.reader_ = dspy.ChainOfThought(reader_signature())
            self.judge_ = dspy.ChainOfThought(judge_signature())

    def _call(self, program: Any, what: str, **inputs: str) -> tuple[Any, dict[str, Any]]:
        """``(prediction or None when unparseable, {<what>_seconds, <what>_prompt_tokens, ...})``."""
        import dspy
        from dspy.utils.exceptions import AdapterParseError

        start = time.perf_counter()
        with dspy.track_usage() as tracker, dspy.context(lm=self.lm_):
            try:
                out = program(**inputs)
            except AdapterParseError:
                out = None
            except MemlabError:
                raise
            except Exception as exc:  # server down, auth, bad endpoint: stop the run in one line
                first = (str(exc).strip().splitlines() or [""])[0][:200]
                raise MemlabError(
                    f"{self.option}: the {what} call to {self.llm_cfg.get('model')} at "
                    f"{self.llm_cfg.get('api_base') or 'its default endpoint'} failed ({type(exc).__name__}: {first}); "
                    "start the server or fix llm.model / llm.api_base / the API key"
                ) from None
        cost: dict[str, Any] = {f"{what}_seconds": time.perf_counter() - start}
        usage = [u for u in tracker.get_total_tokens().values() if u]
        prompt = sum(int(u.get("prompt_tokens") or 0) for u in usage)
        completion = sum(int(u.get("completion_tokens") or 0) for u in usage)
        cost[f"{what}_prompt_tokens"] = prompt if usage else None
        cost[f"{what}_completion_tokens"] = completion if usage else None
        return out, cost

    def read(self, question: str, gold: object, units: Sequence[Memory]) -> dict[str, Any]:
        """The row fields of one question: answer, F1, BLEU-1, verdict and costs."""
        self._build()
        out, row = self._call(self.reader_, "reader", memories=render_memories(units), question=question)
        text = getattr(out, "answer", None) if out is not None else None
        answer = " ".join(text.split())[:300] if isinstance(text, str) else ""
        row.update(reader_answer=answer, reader_malformed=not answer, qa_prompt_version=PROMPT_VERSION)
        row.update(reader_f1=qa_f1(answer, gold), reader_bleu1=bleu1(answer, gold))
        if not self.judge:
            return row
        if not answer:  # nothing to grade: an unanswered question is wrong
            row["j_correct"] = 0.0
            return row
        inputs = {"question": question, "gold_answer": str(gold), "generated_answer": answer}
        verdict, cost = self._call(self.judge_, "judge", **inputs)
        label = getattr(verdict, "label", None) if verdict is not None else None
        label = label if label in ("CORRECT", "WRONG") else None
        row.update(cost, judge_label=label, j_correct=None if label is None else float(label == "CORRECT"))
        return row
