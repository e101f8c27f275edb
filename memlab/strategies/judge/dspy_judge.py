"""LLM judge: the seed's supersession prompt or MycelicMemory's four-way prompt as a DSPy signature."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase

#: Default mapping of verbal confidences to numbers (the seed prompt answers high|medium|low).
CONFIDENCE_WORDS: dict[str, float] = {"high": 0.9, "medium": 0.6, "low": 0.3}


#: Values of ``merge``.
MERGES: tuple[str, ...] = ("join", "llm")


class DSPyJudge(JudgeBase):
    """Asks a language model through DSPy (``prompt: seed`` or ``fourway``,
    :mod:`memlab.llm.supersession_signatures`).

    * ``seed``: ``supersedes: true`` → SUPERSEDE, ``false`` → COEXIST (the seed prompt has no
      duplicate/merge answer).
    * ``fourway``: the classification as given (DUPLICATE / SUPERSEDE / MERGE / COEXIST).

    **Confidence.** Words map through ``confidence_map`` (default high 0.9, medium 0.6, low 0.3); numbers
    in [0, 1] are used as given (percentages such as ``85`` or ``85%`` are divided by 100); anything else
    counts as ``low``. A verdict below ``review_threshold`` (default 0.8, MycelicMemory's "flag for human
    review" level) is marked ``review:`` in its reason and kept in :attr:`review_`; the pipeline holds every
    verdict below ``pipeline.min_judge_confidence`` in ``store.review_queue`` instead of applying it, so run
    with ``pipeline.min_judge_confidence=0.8`` to route low-confidence LLM verdicts to review.

    **Failures.** Calls go through :class:`~memlab.llm.client.LLMClient` (cache, accounting, retries of
    malformed output: unparseable, unknown label, empty). A failure (unreachable endpoint, auth, server
    error, malformed output after the retries) stops the run with one line (``llm.on_error=fail``, the
    default); with ``llm.on_error=fallback`` the verdict is the stand-in COEXIST with confidence 0, the
    failure in the reason, counted in ``llm_fallbacks``. A missing LLM configuration (``llm=none``) is a
    configuration error: :class:`~memlab.core.errors.MemlabError` at first use.

    Args:
        llm: The ``llm`` config mapping (the conf passes ``${llm}``), given to :func:`memlab.llm.lm.make_lm`.
        prompt: ``seed`` or ``fourway``.
        review_threshold: Verdicts below this confidence are flagged for review.
        confidence_map: Verbal confidence → number.
        max_chars: Each memory is cut to this many characters in the prompt.
        merge: What the text of a MERGE's combined memory is (online mode, :meth:`merge_text`): ``join`` —
            both texts joined with ``"; "`` (the stand-in without an LLM); ``llm`` — MycelicMemory's merge
            prompt (:mod:`memlab.llm.mycelic_signatures`) writes one statement.
    """

    name: ClassVar[str] = "dspy"
    version: ClassVar[int] = 1

    def __init__(
        self,
        llm: Mapping[str, Any] | None = None,
        prompt: str = "fourway",
        review_threshold: float = 0.8,
        confidence_map: Mapping[str, float] | None = None,
        max_chars: int = 2000,
        merge: str = "join",
    ) -> None:
        self.llm = dict(llm or {})
        self.prompt = prompt
        self.review_threshold = review_threshold
        self.confidence_map = dict(confidence_map or CONFIDENCE_WORDS)
        self.max_chars = max_chars
        self.merge = merge
        self.signature_: Any = None
        self.client_: Any = None
        self.review_: list[dict[str, Any]] = []

    def _setup(self) -> None:
        if self.client_ is not None:
            return
        from memlab.core.errors import MemlabError
        from memlab.llm.client import LLMClient
        from memlab.llm.supersession_signatures import signature

        if not self.llm.get("model"):
            raise MemlabError("no LLM configured; pick one with llm=<option> (see `memlab list llm`) or set llm.model")
        self.signature_ = signature(self.prompt)
        self.client_ = LLMClient(self.llm, "judge", f"judge=dspy (prompt {self.prompt})", "COEXIST at confidence 0")

    def _describe(self, memory: Memory) -> str:
        text = " ".join((memory.text or "").split())[: self.max_chars]
        return f"[{memory.namespace}] recorded {memory.timestamp.isoformat()}: {text}"

    def confidence_value(self, raw: Any) -> float:
        """Map a model's confidence answer to [0, 1] (rules in the class docstring)."""
        if isinstance(raw, bool):
            return self.confidence_map.get("low", 0.3)
        if isinstance(raw, int | float):
            value = float(raw)
        else:
            text = str(raw or "").strip().lower().strip("\"'")
            if text in self.confidence_map:
                return float(self.confidence_map[text])
            match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(%?)", text)
            if not match:
                for word, number in self.confidence_map.items():
                    if re.search(rf"\b{re.escape(word)}\b", text):
                        return float(number)
                return float(self.confidence_map.get("low", 0.3))
            value = float(match.group(1)) / (100.0 if match.group(2) else 1.0)
        if value > 1.0:
            value = value / 100.0
        return float(min(1.0, max(0.0, value))) if value == value else 0.0

    def _verdict(self, result: Mapping[str, Any]) -> Verdict:
        """The verdict of the model's outputs (raises ``ValueError`` on an unknown label)."""
        if self.prompt == "seed":
            supersedes = result.get("supersedes")
            if isinstance(supersedes, str):
                supersedes = supersedes.strip().lower() in {"true", "yes", "1"}
            relation = Relation.SUPERSEDE if supersedes else Relation.COEXIST
            reason = str(result.get("reason") or "")
        else:
            label = str(result.get("classification") or "").strip().upper().strip(".\"' ")
            if label not in Relation.__members__:
                raise ValueError(f"malformed model output: unknown label {label[:40]!r}")
            relation = Relation[label]
            reason = str(result.get("reasoning") or "")
        return Verdict(relation, self.confidence_value(result.get("confidence")), reason[:500])

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Judge ``newer`` against ``older`` with one LM call."""
        self._setup()
        a, b = self._describe(older), self._describe(newer)
        inputs = (
            {"older_memory": a, "newer_memory": b} if self.prompt == "seed" else {"existing_fact": a, "new_fact": b}
        )
        verdict = self.client_.ask(self.signature_, inputs, self._verdict)
        if verdict is None:  # llm.on_error=fallback: the stated stand-in, counted by the client
            why = str(self.client_.last_.get("error", ""))[:300]
            return Verdict(Relation.COEXIST, 0.0, f"COEXIST stand-in (llm.on_error=fallback) after: {why}")
        if verdict.confidence < self.review_threshold and verdict.relation is not Relation.COEXIST:
            verdict = Verdict(verdict.relation, verdict.confidence, f"review: {verdict.reason}")
            self.review_.append(
                {
                    "older": older.id,
                    "newer": newer.id,
                    "relation": verdict.relation.value,
                    "confidence": verdict.confidence,
                }
            )
        return verdict

    def merge_text(self, older: Memory, newer: Memory) -> str | None:
        """The combined text of a MERGE from MycelicMemory's merge prompt (``merge: llm``); ``None`` with
        ``merge: join`` or when the call failed with ``llm.on_error=fallback`` (the joined texts stand in).
        """
        if self.merge not in MERGES:
            from memlab.core.errors import MemlabError

            raise MemlabError(f"unknown dspy judge merge '{self.merge}'; valid: {', '.join(MERGES)} (fix judge.merge)")
        if self.merge == "join":
            return None
        self._setup()
        from memlab.llm.mycelic_signatures import merged_text, signature

        inputs = {"existing_fact": self._describe(older), "new_fact": self._describe(newer)}
        return self.client_.ask(signature(), inputs, merged_text)
