"""The LLM ledger of one run: calls, tokens, latency, failures, fallbacks, cache hits and cost, per strategy.

:func:`start` opens the ledger of a run (``memlab.run.run`` calls it), every :class:`~memlab.llm.client.LLMClient`
writes into it, and :func:`finish` turns it into metrics, the tags ``memlab.llm_used``, ``memlab.llm_cache`` (whether
answers could come from the response cache) and ``memlab.llm_served`` (each endpoint and what it said it serves,
:func:`memlab.llm.lm.served_identity`), and a console line. Only
runs whose configuration names an LLM strategy (:func:`llm_strategies`), or that made LLM calls anyway, get
these metrics; a run without a language model logs nothing new.

Metrics (run totals; the same per strategy group as ``llm.<group>.<name>`` without the ``llm_`` prefix):

* ``llm_calls`` — requests sent to the model (each retry of a malformed answer is a call; a request to an
  endpoint that cannot be reached is a call too); ``llm_prompt_tokens``, ``llm_completion_tokens`` — as the
  server reported them;
* ``llm_latency_p50_ms``, ``llm_latency_p95_ms`` — over the calls that got a response (absent without one);
* ``llm_failures`` — calls that failed (unreachable, auth, server error, malformed output);
* ``llm_fallbacks`` — answers that came from the strategy's stated stand-in instead of the model;
* ``llm_cache_hits`` — answers read from the response cache (no call);
* ``llm_cost_usd`` — from LiteLLM's bundled price map (:mod:`memlab.llm.prices`), absent when the model
  configured or used is not in it (a cache hit costs nothing).

Imports nothing heavy: ``memlab.run`` imports it on every run.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("memlab.llm")

#: Strategy targets that answer through a language model.
LLM_TARGETS: frozenset[str] = frozenset(
    {
        "memlab.strategies.judge.dspy_judge.DSPyJudge",
        "memlab.strategies.reader.llm.LLMReader",
        "memlab.strategies.summarizer.dspy_summarizer.DSPySummarizer",
        "memlab.strategies.temporal.dspy_resolver.DSPyResolver",
    }
)


@dataclass
class Tally:
    """Counts of one strategy group."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0
    fallbacks: int = 0
    cache_hits: int = 0
    answers: int = 0
    latencies: list[float] = field(default_factory=list)
    cost: float = 0.0
    unpriced: bool = False

    def metrics(self, prefix: str) -> dict[str, float]:
        """The tally as metrics named ``prefix + name``."""
        out = {
            f"{prefix}calls": float(self.calls),
            f"{prefix}prompt_tokens": float(self.prompt_tokens),
            f"{prefix}completion_tokens": float(self.completion_tokens),
            f"{prefix}failures": float(self.failures),
            f"{prefix}fallbacks": float(self.fallbacks),
            f"{prefix}cache_hits": float(self.cache_hits),
        }
        if self.latencies:
            import numpy as np

            ms = np.asarray(self.latencies, dtype=float) * 1000.0
            out[f"{prefix}latency_p50_ms"] = float(np.percentile(ms, 50))
            out[f"{prefix}latency_p95_ms"] = float(np.percentile(ms, 95))
        if not self.unpriced:
            out[f"{prefix}cost_usd"] = float(self.cost)
        return out

    def merge(self, other: Tally) -> None:
        """Add ``other`` into this tally."""
        for name in ("calls", "prompt_tokens", "completion_tokens", "failures", "fallbacks", "cache_hits", "answers"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.latencies.extend(other.latencies)
        self.cost += other.cost
        self.unpriced = self.unpriced or other.unpriced


@dataclass
class Ledger:
    """The counts of one run, per group, and the first fatal LLM error (``fatal``)."""

    groups: tuple[str, ...] = ()
    tallies: dict[str, Tally] = field(default_factory=dict)
    fatal: Exception | None = None
    cache: bool = True
    served: dict[str, str] = field(default_factory=dict)

    def tally(self, group: str) -> Tally:
        """The tally of ``group`` (created on first use)."""
        return self.tallies.setdefault(group, Tally())

    def total(self) -> Tally:
        """All groups summed."""
        out = Tally()
        for tally in self.tallies.values():
            out.merge(tally)
        return out

    def metrics(self) -> dict[str, float]:
        """Run totals (``llm_*``) and per group (``llm.<group>.*``)."""
        out = self.total().metrics("llm_")
        for group in sorted(self.tallies):
            out.update(self.tallies[group].metrics(f"llm.{group}."))
        return out


_LEDGER: Ledger | None = None


def current() -> Ledger | None:
    """The ledger of the running run (``None`` outside :func:`start` ... :func:`finish`)."""
    return _LEDGER


def _names_llm(node: Any) -> bool:
    if isinstance(node, Mapping):
        return node.get("_target_") in LLM_TARGETS or any(_names_llm(v) for v in node.values())
    if isinstance(node, list | tuple):
        return any(_names_llm(v) for v in node)
    return False


def llm_strategies(cfg: Mapping[str, Any], groups: Sequence[str]) -> list[str]:
    """The groups among ``groups`` whose configured strategy answers through a language model, plus
    ``answerer`` when the dataset asks an LLM for answers (``dataset.llm_answer``) and ``reader`` (and
    ``judge_qa`` with ``dataset.llm_judge``) when it runs the reader protocol (``dataset.llm_reader``).
    """
    out = [g for g in groups if _names_llm(cfg.get(g))]
    dataset = cfg.get("dataset")
    if isinstance(dataset, Mapping) and dataset.get("llm_answer"):
        out.append("answerer")
    if isinstance(dataset, Mapping) and dataset.get("llm_reader"):
        out += ["reader", "judge_qa"] if dataset.get("llm_judge", True) else ["reader"]
    return out


def start(cfg: Mapping[str, Any], groups: Sequence[str]) -> Ledger:
    """Open the ledger of a run of ``cfg`` whose benchmark uses ``groups``."""
    global _LEDGER
    llm = cfg.get("llm") if isinstance(cfg.get("llm"), Mapping) else {}
    _LEDGER = Ledger(tuple(llm_strategies(cfg, groups)), cache=bool(llm.get("cache", True)))
    from memlab.llm.prices import token_prices

    unpriced = token_prices(llm.get("model"), llm.get("api_base")) is None
    for group in _LEDGER.groups:  # a configured strategy's counts are logged even when it made no call
        _LEDGER.tally(group).unpriced = unpriced
    return _LEDGER


def finish(ledger: Ledger, metrics: MutableMapping[str, float], tracker: Any = None) -> dict[str, float]:
    """Close the ledger: add its metrics to ``metrics``, tag ``memlab.llm_used`` and say on the console when a
    configuration that names an LLM strategy got no answer from a model.

    Nothing is added when the configuration names no LLM strategy and no call was made.

    Raises:
        MemlabError: An LLM failure stopped the run (``llm.on_error=fail``) even though a caller caught it.
    """
    global _LEDGER
    if _LEDGER is ledger:
        _LEDGER = None
    if ledger.fatal is not None:
        raise ledger.fatal
    total = ledger.total()
    if not ledger.groups and not (total.calls or total.cache_hits or total.fallbacks):
        return {}
    added = ledger.metrics()
    metrics.update(added)
    used = total.answers > 0
    if tracker is not None:
        served = "; ".join(f"{endpoint} -> {who}" for endpoint, who in sorted(ledger.served.items()))
        tracker.set_tags(
            {
                "memlab.llm_used": str(used).lower(),
                "memlab.llm_cache": str(ledger.cache).lower(),
                "memlab.llm_served": served or "unknown",
            }
        )
    names = ", ".join(ledger.groups) or "none"
    if used:
        log.info(
            "LLM used: %d calls, %d cache hits, %d failures, %d fallbacks (%s)",
            total.calls,
            total.cache_hits,
            total.failures,
            total.fallbacks,
            names,
        )
    else:
        log.warning(
            "memlab.llm_used=false: the configuration names an LLM strategy (%s) but no answer came from a "
            "language model (%d calls, %d failures, %d fallbacks); its metrics are those of the stand-ins",
            names,
            total.calls,
            total.failures,
            total.fallbacks,
        )
    return added
