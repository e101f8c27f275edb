"""LLM cluster summary: the seed's summary prompt as a DSPy signature, validated, cached, with a fallback."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from memlab.errors import MemlabError
from memlab.strategies.summarizer.base import SummarizerBase
from memlab.strategies.summarizer.extract import dominant_namespace, summary_id, superseded_facts
from memlab.types import Memory, Summary, SummaryDecision, SupersededFact

FALLBACKS: tuple[str, ...] = ("extractive", "none")
FIELDS: tuple[str, ...] = ("summary", "key_facts", "decisions", "superseded_facts", "source_ids")


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
    :class:`~memlab.protocols.Summarizer`). The answer is validated: cited ids outside the cluster are
    dropped (none left → the summary cites the whole cluster); ``confidence`` is the fraction of the
    model's cited ids that are members; decisions need a non-empty ``decision``; superseded facts must
    name a member as ``source_memory_id`` (the mapping's facts are added for members the model missed);
    the temporal range spans the cited members; the id is the hash of the cited ids.

    **Failures.** Malformed output (unparseable, an empty summary, wrong types), a server error or any
    other failure gives the ``fallback`` (``extractive``: the extractive summary of the cluster; ``none``:
    no summary) and is recorded in :attr:`failures_`; never an exception. A missing LLM configuration
    (``llm=none``) is a configuration error (:class:`~memlab.errors.MemlabError`).

    **Cache.** Parsed answers are stored under ``cache_dir`` as ``<sha256>.json``, the hash taken over the
    model settings, the prompt version, the rendered memories and the known supersessions; a rerun makes
    no call (failures are not cached, so a retry may succeed).

    Args:
        llm: The ``llm`` config mapping (the conf passes ``${llm}``), given to :func:`memlab.llm.lm.make_lm`.
        fallback: ``extractive`` or ``none``.
        cache_dir: Response cache folder (``null`` = no cache).
        max_chars: Each memory is cut to this many characters in the prompt.
        max_facts: Key facts kept (also the fallback's).
        max_decisions: Decisions kept (also the fallback's).
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
    ) -> None:
        self.llm = dict(llm or {})
        self.fallback = fallback
        self.cache_dir = cache_dir
        self.max_chars = max_chars
        self.max_facts = max_facts
        self.max_decisions = max_decisions
        self.predict_: Any = None
        self.lm_: Any = None
        self.adapter_: Any = None
        self.failures_: list[str] = []

    def _setup(self) -> None:
        if self.predict_ is not None:
            return
        import dspy

        from memlab.llm.lm import make_lm
        from memlab.llm.summary_signatures import signature

        self.lm_ = make_lm(self.llm)
        self.adapter_ = dspy.ChatAdapter(use_json_adapter_fallback=False)
        self.predict_ = dspy.Predict(signature())

    def render(self, ordered: Sequence[Memory]) -> str:
        """The memories as prompt lines."""
        return "\n".join(
            f"[{m.id}] ({m.namespace}, {m.timestamp.isoformat()}) {' '.join(m.text.split())[: self.max_chars]}"
            for m in ordered
        )

    def cache_key(self, memories_text: str, known: str) -> str:
        """sha256 over the model settings, the prompt version and the inputs."""
        from memlab.llm.summary_signatures import PROMPT_VERSION

        settings = {k: self.llm.get(k) for k in ("model", "api_base", "temperature", "max_tokens")}
        payload = json.dumps([settings, PROMPT_VERSION, memories_text, known], sort_keys=True, default=str)
        return hashlib.sha256(payload.encode()).hexdigest()

    def _cache_path(self, key: str) -> Path | None:
        return Path(self.cache_dir) / f"{key}.json" if self.cache_dir else None

    def _ask(self, memories_text: str, known: str) -> dict[str, Any]:
        self._setup()
        import dspy

        with dspy.context(lm=self.lm_, adapter=self.adapter_):
            result = self.predict_(memories=memories_text, known_supersessions=known)
        return json.loads(json.dumps({f: getattr(result, f, None) for f in FIELDS}, default=str))

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
        path = self._cache_path(self.cache_key(memories_text, known))
        raw: Any = None
        if path is not None and path.is_file():
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raw = None
        from_cache = isinstance(raw, dict)
        try:
            if not from_cache:
                raw = self._ask(memories_text, known)
            summary = self.build(raw, ordered, superseded)
        except Exception as exc:  # malformed output, server errors: fall back, never raise
            return self._fallback(memories, superseded, f"{type(exc).__name__}: {exc}")
        if path is not None and not from_cache:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps(raw, sort_keys=True), encoding="utf-8")
                os.replace(tmp, path)
            except OSError as exc:
                self.failures_.append(f"cache write failed: {exc}"[:300])
        return summary
