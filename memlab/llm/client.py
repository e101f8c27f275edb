"""One strategy's door to its language model: cache, retries of malformed answers, the error policy, accounting.

Every LLM call in memlab goes through :meth:`LLMClient.ask`: the answer comes from the response cache when it
is there (a cache hit, no call), else from one DSPy ``Predict`` call (a ``ChatAdapter`` without DSPy's JSON
retry, so one ask is one request), checked by the caller's ``parse``; a malformed answer is asked again up to
``malformed_retries`` times. What fails (unreachable endpoint, auth error, server error, malformed output after
the retries) follows ``on_error``: ``fail`` (default) raises :class:`LLMFailure`, one line naming the
strategy, the model, the endpoint and the fix, which stops the run; ``fallback`` returns ``None`` and the
caller uses its stand-in. Every call, token, failure, fallback and cache hit is counted in the run's ledger
(:mod:`memlab.llm.accounting`) and each call is a span ``llm.<group>`` in the trace, with its tokens.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from memlab.core.errors import MemlabError
from memlab.llm import accounting
from memlab.llm.cache import ResponseCache, cache_key
from memlab.llm.prices import cost_usd
from memlab.observability import trace

T = TypeVar("T")

ON_ERROR: tuple[str, ...] = ("fail", "fallback")


class LLMFailure(MemlabError):
    """A language model failed and the configuration says to stop (``llm.on_error=fail``)."""


def prompt_text(signature: Any) -> str:
    """The prompt a DSPy signature stands for: its instructions and its fields with their descriptions."""
    fields = []
    for name, info in getattr(signature, "fields", {}).items():
        extra = getattr(info, "json_schema_extra", None) or {}
        fields.append(f"{extra.get('__dspy_field_type', '')}:{name}:{extra.get('desc', '')}:{info.annotation}")
    return "\n".join([str(getattr(signature, "instructions", "")), *fields])


def _usage(entries: list[dict[str, Any]]) -> tuple[int, int]:
    prompt = completion = 0
    for usage in entries:
        prompt += int(usage.get("prompt_tokens") or usage.get("input_tokens") or 0)
        completion += int(usage.get("completion_tokens") or usage.get("output_tokens") or 0)
    return prompt, completion


class LLMClient:
    """Asks a language model for a DSPy signature's outputs on behalf of one strategy.

    Args:
        llm: The ``llm`` config mapping (``model``, ``api_base``, ``cache``, ``cache_dir``, ``on_error``,
            ``malformed_retries``, ...; see ``conf/llm/``).
        group: The strategy group the calls are counted under (``judge``, ``summarizer``, ``temporal``,
            ``answerer``, ...): metrics ``llm.<group>.*``, spans ``llm.<group>``.
        strategy: How the strategy is named in error messages (``judge=dspy``).
        stand_in: What ``on_error=fallback`` answers instead (said in the error message).
        cache_dir: Response cache folder; ``None`` uses ``llm.cache_dir`` when ``llm.cache`` is true.
    """

    def __init__(
        self,
        llm: Mapping[str, Any],
        group: str,
        strategy: str,
        stand_in: str,
        cache_dir: str | None = None,
    ) -> None:
        self.llm = dict(llm or {})
        self.group = group
        self.strategy = strategy
        self.stand_in = stand_in
        self.cache_dir = cache_dir
        self.lm_: Any = None
        self.adapter_: Any = None
        self.cache_: ResponseCache | None = None
        self.fatal_: LLMFailure | None = None
        self.last_: dict[str, Any] = {}
        self.served_ = "unknown"

    @property
    def on_error(self) -> str:
        """``fail`` or ``fallback`` (checked)."""
        value = str(self.llm.get("on_error") or "fail")
        if value not in ON_ERROR:
            raise MemlabError(f"unknown llm.on_error '{value}'; valid: {', '.join(ON_ERROR)}")
        return value

    @property
    def endpoint(self) -> str:
        """Where requests go (``api_base``, or the provider's default)."""
        return str(self.llm.get("api_base") or f"the {str(self.llm.get('model')).split('/')[0]} default endpoint")

    def _setup(self) -> None:
        if self.lm_ is not None:
            return
        _ = self.on_error
        import dspy

        from memlab.llm.lm import make_lm, served_identity

        self.lm_ = make_lm(self.llm)
        self.adapter_ = dspy.ChatAdapter(use_json_adapter_fallback=False)
        # `llm.cache` decides for every strategy; a strategy's own cache_dir only says where
        folder = (self.cache_dir or self.llm.get("cache_dir")) if self.llm.get("cache", True) else None
        self.cache_ = ResponseCache(folder) if folder else None
        self.served_ = served_identity(self.llm.get("api_base"), self.llm.get("model"), self.llm.get("api_key"))
        ledger = accounting.current()
        if ledger is not None:
            ledger.served.setdefault(self.endpoint, self.served_)

    def _model_key(self) -> str:
        """Model name and settings, the endpoint and what the server said it serves: answers of one server or
        model are never read for another.
        """
        keys = ("model", "temperature", "max_tokens", "api_base")
        return "|".join([*(f"{k}={self.llm.get(k)}" for k in keys), f"served={self.served_}"])

    def _record(self, tally: accounting.Tally | None, seconds: float | None, usage: list[dict[str, Any]]) -> None:
        prompt, completion = _usage(usage)
        cost = cost_usd(self.llm.get("model"), self.llm.get("api_base"), prompt, completion)
        self.last_.update(  # summed over the attempts of one ask (retries of malformed output included)
            calls=self.last_.get("calls", 0) + 1,
            prompt_tokens=self.last_.get("prompt_tokens", 0) + prompt,
            completion_tokens=self.last_.get("completion_tokens", 0) + completion,
        )
        trace.record(f"llm.{self.group}", seconds or 0.0, {"prompt_tokens": prompt, "completion_tokens": completion})
        if tally is None:
            return
        tally.calls += 1
        tally.prompt_tokens += prompt
        tally.completion_tokens += completion
        if seconds is not None:
            tally.latencies.append(seconds)
        if cost is None:
            tally.unpriced = True
        else:
            tally.cost += cost

    def message(self, problem: str, fix: str) -> str:
        """The one-line error of a failure."""
        return (
            f"{self.strategy}: the language model {self.llm.get('model')} at {self.endpoint} {problem}; {fix} "
            f"(or set llm.on_error=fallback to continue with {self.stand_in}, counted as llm_fallbacks)"
        )

    def _classify(self, exc: Exception) -> str:
        from dspy.utils import exceptions as ex

        detail = " ".join(str(exc).split())[:160]
        if isinstance(exc, ex.LMTransportError | ex.LMTimeoutError | ConnectionError | TimeoutError):
            return self.message(f"cannot be reached ({detail})", "start the server or point llm.api_base at it")
        if isinstance(exc, ex.LMAuthError | ex.LMBillingError | ex.LMNotConfiguredError):
            key = self.llm.get("api_key_env") or "llm.api_key"
            problem = "has no API key" if isinstance(exc, ex.LMNotConfiguredError) else "refused the credentials"
            return self.message(f"{problem} ({detail})", f"set a valid key in {key}")
        if isinstance(exc, ex.LMInvalidRequestError):
            return self.message(f"rejected the request ({detail})", "check llm.model names a model the server has")
        return self.message(f"failed ({type(exc).__name__}: {detail})", "check the server's log and llm settings")

    def ask(self, signature: Any, inputs: Mapping[str, Any], parse: Callable[[dict[str, Any]], T]) -> T | None:
        """``parse(outputs)`` of the model's answer to ``inputs``, or ``None`` when the call failed and
        ``on_error=fallback`` (the caller answers with its stand-in; the fallback is counted).

        ``parse`` raises (``ValueError``, ``TypeError``, ``KeyError``) on a malformed answer and must not
        return ``None``.

        Raises:
            LLMFailure: The call failed and ``on_error=fail``.
        """
        self._setup()
        ledger = accounting.current()
        tally = ledger.tally(self.group) if ledger is not None else None
        self.last_ = {"cache_hit": False, "calls": 0}
        if self.fatal_ is not None:
            raise self.fatal_
        key = cache_key(self._model_key(), prompt_text(signature), inputs)
        cached = self.cache_.get(key) if self.cache_ is not None else None
        if cached is not None:
            try:
                value = parse(dict(cached))
            except (ValueError, TypeError, KeyError, AttributeError):
                value = None
            if value is not None:
                self.last_["cache_hit"] = True
                trace.record(f"llm.{self.group}.cache_hit", 0.0, {})
                if tally is not None:
                    tally.cache_hits += 1
                    tally.answers += 1
                return value
        import dspy

        predict = dspy.Predict(signature)
        problem = ""
        for _ in range(1 + max(0, int(self.llm.get("malformed_retries", 1) or 0))):
            self.lm_.last_usage_ = []
            t0 = time.perf_counter()
            try:
                with dspy.context(lm=self.lm_, adapter=self.adapter_, disable_history=False):
                    result = predict(**dict(inputs))
                outputs = {name: getattr(result, name, None) for name in signature.output_fields}
                value = parse(outputs)
                if value is None:
                    raise ValueError("no answer")
            except (ValueError, TypeError, KeyError, AttributeError, dspy.utils.exceptions.AdapterParseError) as exc:
                self._record(tally, time.perf_counter() - t0, self.lm_.last_usage_)
                if tally is not None:
                    tally.failures += 1
                problem = " ".join(str(exc).split())[:120]
                continue
            except Exception as exc:  # the server, the network, the credentials: classified below
                got = self.lm_.last_usage_
                self._record(tally, time.perf_counter() - t0 if got else None, got)
                if tally is not None:
                    tally.failures += 1
                return self._fail(self._classify(exc), tally, ledger)
            self._record(tally, time.perf_counter() - t0, self.lm_.last_usage_)
            if tally is not None:
                tally.answers += 1
            if self.cache_ is not None:
                self.cache_.put(key, outputs, str(self.llm.get("model")))
            return value
        tries = 1 + max(0, int(self.llm.get("malformed_retries", 1) or 0))
        why = self.message(f"gave malformed output {tries} times in a row ({problem})", "try a stronger model")
        return self._fail(why, tally, ledger)

    def _fail(self, why: str, tally: accounting.Tally | None, ledger: accounting.Ledger | None) -> None:
        self.last_["error"] = why
        if self.on_error == "fallback":
            if tally is not None:
                tally.fallbacks += 1
            self.last_["fallback"] = True
            return None
        self.fatal_ = LLMFailure(why)
        if ledger is not None and ledger.fatal is None:
            ledger.fatal = self.fatal_
        raise self.fatal_
