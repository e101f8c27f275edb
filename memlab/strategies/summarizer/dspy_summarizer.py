"""LLM cluster summary: the seed's summary prompt as a DSPy signature, validated, cached, with a fallback."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Summary, SummaryDecision, SupersededFact
from memlab.strategies.summarizer.base import SummarizerBase
from memlab.strategies.summarizer.extract import dominant_namespace, summary_id, superseded_facts

FALLBACKS: tuple[str, ...] = ("extractive", "none")
#: ``prompt`` -> the module of memlab/llm asked: its ``signature()`` and ``summary_fields(outputs)``.
PROMPTS: dict[str, str] = {
    "seed": "memlab.llm.summary_signatures",
    "squidbot": "memlab.llm.squidbot_signatures",
    "astra": "memlab.llm.astra_signatures",
}


def prompt_parts(prompt: str) -> tuple[Any, Any]:
    """``(signature class, outputs -> summary fields)`` of a ``prompt`` (see :data:`PROMPTS`)."""
    if prompt not in PROMPTS:
        raise MemlabError(f"unknown dspy summarizer prompt '{prompt}'; valid: {', '.join(PROMPTS)}")
    import importlib

    module = importlib.import_module(PROMPTS[prompt])
    return module.signature(), module.summary_fields


def _texts(raw: Any, limit: int) -> list[str]:
    """A model's list-of-strings answer as clean strings (a bare string counts as one item)."""
    items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    out = []
    for item in items:
        text = " ".join(str(item).split())[:limit] if isinstance(item, str | int | float) else ""
        if text and text not in out:
            out.append(text)
    return out


class DSPySummarizer(SummarizerBase):
    """Asks a language model for the seed's ``MemorySummary`` of one cluster
    (:mod:`memlab.llm.summary_signatures`: summary, key facts, decisions, superseded facts, source ids).

    The memories go to the model in time order as ``[id] (namespace, time) text`` lines (each cut to
    ``max_chars``), with the already judged supersessions of the optional ``superseded`` mapping (see
    :class:`~.base.SummarizerBase`). The answer is validated: cited ids outside the cluster are
    dropped (none left → the summary cites the whole cluster); ``confidence`` is the fraction of the
    model's cited ids that are members; decisions need a non-empty ``decision``; superseded facts must
    name a member as ``source_memory_id`` (the mapping's facts are added for members the model missed);
    the temporal range spans the cited members; the id is the hash of the cited ids.

    **Failures.** Calls go through :class:`~memlab.llm.client.LLMClient`: malformed output (unparseable, an
    empty summary, wrong types) is asked again (``llm.malformed_retries``); a failure (unreachable endpoint,
    auth, server error, malformed output after the retries) stops the run with one line
    (``llm.on_error=fail``, the default). With ``llm.on_error=fallback`` the summary is the ``fallback``
    (``extractive``: the extractive summary of the cluster; ``none``: no summary), counted in
    ``llm_fallbacks`` and recorded in :attr:`failures_`. A missing LLM configuration (``llm=none``) is a
    configuration error (:class:`~memlab.core.errors.MemlabError`).

    **Prompts.** ``prompt`` picks the design whose prompt is asked: ``seed`` (the git-notes-memory cluster
    summary, :mod:`memlab.llm.summary_signatures`), ``squidbot`` (the section squidbot appends to its memory
    document when messages leave the window, :mod:`memlab.llm.squidbot_signatures`) or ``astra`` (Astra's
    session narrative — what happened, emotional arc, key interactions, unresolved threads —
    :mod:`memlab.llm.astra_signatures`). With ``astra`` the summarizer also writes Astra's insight patterns
    (:meth:`write_insight`, called by ``pipeline.insights``). Every answer is validated into the same fields.

    **Cache.** With ``llm.cache`` on, answers that validated are stored under ``cache_dir`` (else the ``llm``
    group's cache), keyed by the model settings, the endpoint and the model it serves, the prompt and the
    inputs (the rendered memories and the known supersessions); a rerun makes no call and
    counts a cache hit (failures are not cached, so a retry may succeed).

    Args:
        llm: The ``llm`` config mapping (the conf passes ``${llm}``), given to :func:`memlab.llm.lm.make_lm`.
        fallback: ``extractive`` or ``none``.
        cache_dir: Response cache folder (``null``: the ``llm`` group's ``cache_dir``); ``llm.cache=false`` turns
            the cache off whatever the folder.
        max_chars: Each memory is cut to this many characters in the prompt.
        max_facts: Key facts kept (also the fallback's).
        max_decisions: Decisions kept (also the fallback's).
        prompt: ``seed``, ``squidbot`` or ``astra`` (see **Prompts**).
    """

    name: ClassVar[str] = "dspy"
    version: ClassVar[int] = 1

    def __init__(
        self,
        llm: Mapping[str, Any] | None = None,
        fallback: str = "extractive",
        cache_dir: str | None = None,
        max_chars: int = 500,
        max_facts: int = 5,
        max_decisions: int = 3,
        prompt: str = "seed",
    ) -> None:
        self.llm = dict(llm or {})
        self.fallback = fallback
        self.cache_dir = cache_dir
        self.max_chars = max_chars
        self.max_facts = max_facts
        self.max_decisions = max_decisions
        self.prompt = prompt
        self.client_: Any = None
        self.failures_: list[str] = []

    def _setup(self) -> None:
        if self.client_ is not None:
            return
        from memlab.llm.client import LLMClient

        stand_in = "the extractive summary" if self.fallback == "extractive" else "no summary"
        self.client_ = LLMClient(self.llm, "summarizer", "summarizer=dspy", stand_in, cache_dir=self.cache_dir)

    def render(self, ordered: Sequence[Memory]) -> str:
        """The memories as prompt lines."""
        return "\n".join(
            f"[{m.id}] ({m.namespace}, {m.timestamp.isoformat()}) {' '.join(m.text.split())[: self.max_chars]}"
            for m in ordered
        )

    def build(self, raw: Mapping[str, Any], ordered: Sequence[Memory], superseded: Mapping[str, str] | None) -> Summary:
        """Validate a parsed answer into a :class:`Summary` (raises ``ValueError`` when malformed)."""
        text = " ".join(str(raw.get("summary") or "").split()) if isinstance(raw.get("summary"), str) else ""
        if not text:
            raise ValueError("empty or missing summary")
        members = {m.id: m for m in ordered}
        cited_raw = _texts(raw.get("source_ids"), 200)
        valid = {i for i in cited_raw if i in members}
        cited = [m for m in ordered if m.id in valid] or list(ordered)
        confidence = len(valid) / len(cited_raw) if cited_raw else 1.0
        decisions = []
        for item in raw.get("decisions") or []:
            if isinstance(item, Mapping) and str(item.get("decision") or "").strip():
                outcome = str(item.get("outcome") or "").strip() or None
                decisions.append(
                    SummaryDecision(str(item["decision"]).strip(), str(item.get("rationale") or "").strip(), outcome)
                )
        facts: list[SupersededFact] = []
        for item in raw.get("superseded_facts") or []:
            if isinstance(item, Mapping) and str(item.get("source_memory_id") or "") in members:
                original = str(item.get("original_fact") or "").strip()
                if original:
                    facts.append(
                        SupersededFact(original, str(item.get("superseded_by") or "").strip(), item["source_memory_id"])
                    )
        known, _ = superseded_facts(ordered, superseded)
        facts += [f for f in known if f.source_memory_id not in {g.source_memory_id for g in facts}]
        return Summary(
            id=summary_id([m.id for m in cited]),
            namespace=dominant_namespace(cited),
            summary=text,
            key_facts=tuple(_texts(raw.get("key_facts"), 500)[: self.max_facts]),
            decisions=tuple(decisions[: self.max_decisions]),
            superseded_facts=tuple(facts),
            temporal_start=cited[0].timestamp,
            temporal_end=cited[-1].timestamp,
            source_ids=tuple(m.id for m in cited),
            confidence=max(0.0, min(1.0, confidence)),
        )

    def _fallback(self, memories: Sequence[Memory], superseded: Mapping[str, str] | None, why: str) -> Summary | None:
        self.failures_.append(why[:300])
        if self.fallback == "none":
            return None
        from memlab.strategies.summarizer.extractive import ExtractiveSummarizer

        return ExtractiveSummarizer(self.max_facts, self.max_decisions).summarize(memories, superseded=superseded)

    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """Summarise one cluster with one LM call (or none, from the cache)."""
        if self.fallback not in FALLBACKS:
            raise MemlabError(f"unknown dspy summarizer fallback '{self.fallback}'; valid: {', '.join(FALLBACKS)}")
        if not self.llm.get("model"):
            raise MemlabError(
                "summarizer=dspy needs a language model; pick one with llm=<option> (see `memlab list llm`)"
            )
        if not memories:
            return None
        ordered = sorted(memories, key=lambda m: (m.timestamp, m.id))
        members = {m.id for m in ordered}
        pairs = sorted((k, v) for k, v in (superseded or {}).items() if k in members)
        known = "\n".join(f"{old} -> {new}" for old, new in pairs) or "none"
        memories_text = self.render(ordered)
        signature, fields = prompt_parts(self.prompt)
        self._setup()

        def parse(outputs: Mapping[str, Any]) -> Summary:
            raw = json.loads(json.dumps(fields(outputs), default=str))
            return self.build(raw, ordered, superseded)

        inputs = {"memories": memories_text, "known_supersessions": known}
        summary = self.client_.ask(signature, inputs, parse)
        if summary is None:  # llm.on_error=fallback: the stated stand-in, counted by the client
            return self._fallback(memories, superseded, str(self.client_.last_.get("error", "LLM failure")))
        return summary

    def write_insight(self, narratives: Sequence[Summary]) -> tuple[str, str] | None:
        """Astra's pattern over a cluster of narratives: ``(pattern, category)`` from the LLM, or ``None`` when
        this summarizer's prompt is not ``astra`` or the call failed with ``llm.on_error=fallback`` (the
        extractive pattern stands in).
        """
        if self.prompt != "astra" or not narratives or not self.llm.get("model"):
            return None
        self._setup()
        from memlab.llm.astra_signatures import insight_fields, insight_signature

        lines = "\n".join(
            f"[{n.id}] ({n.temporal_start.isoformat()}..{n.temporal_end.isoformat()}) "
            f"{' '.join(n.summary.split())[: self.max_chars]}"
            for n in narratives
        )
        return self.client_.ask(insight_signature(), {"narratives": lines}, insight_fields)
