"""LLM access through DSPy: LM construction, the one door every call goes through, accounting, cache, prices.

How to ask a model from a strategy or a benchmark (the pattern of the DSPy judge, summarizer, temporal
resolver and LoCoMo answerer)::

    from memlab.llm.client import LLMClient

    client = LLMClient(llm_cfg, group="reader", strategy="dataset.reader=llm", stand_in="an empty answer")
    value = client.ask(signature, {"question": q, "context": c}, parse)  # parse(outputs) -> value; raises if malformed
    if value is None:  # only with llm.on_error=fallback: use the stand-in (the fallback is already counted)
        ...
    client.last_  # {"cache_hit", "calls", "prompt_tokens", "completion_tokens", ...} of this ask: for predictions

* :mod:`memlab.llm.client` — :class:`~memlab.llm.client.LLMClient`: cache lookup, one DSPy ``Predict`` call per
  attempt, retries of malformed answers (``llm.malformed_retries``), ``llm.on_error`` (``fail``: raises
  :class:`~memlab.llm.client.LLMFailure`, one line naming strategy, model, endpoint and fix; ``fallback``:
  returns ``None``), a trace span ``llm.<group>`` per call with its tokens.
* :mod:`memlab.llm.accounting` — the run's ledger: ``llm_calls``, ``llm_prompt_tokens``,
  ``llm_completion_tokens``, ``llm_latency_p50_ms``, ``llm_latency_p95_ms``, ``llm_failures``,
  ``llm_fallbacks``, ``llm_cache_hits``, ``llm_cost_usd`` and ``llm.<group>.*``; the ``memlab.llm_used`` tag.
  A new LLM strategy target belongs in :data:`~memlab.llm.accounting.LLM_TARGETS` (a benchmark-side LLM, like
  ``dataset.llm_answer``, in :func:`~memlab.llm.accounting.llm_strategies`) so that a run that configures it but
  makes no call is tagged ``memlab.llm_used=false``.
* :mod:`memlab.llm.cache` — answers on disk by (model settings, prompt, inputs) under ``llm.cache_dir``
  (``<paths.cache_dir>/llm``); a rerun makes no call.
* :mod:`memlab.llm.prices` — USD per token from LiteLLM's bundled price map (no network).
* :mod:`memlab.llm.lm` — the ``dspy.LM`` (DSPy's own cache off; token usage kept for the ledger).
* :mod:`memlab.llm.summary_signatures`, :mod:`memlab.llm.supersession_signatures` — prompts as signatures;
  the seed designs' own prompts: :mod:`memlab.llm.squidbot_signatures` (the running-document section),
  :mod:`memlab.llm.astra_signatures` (session narrative, insight pattern), :mod:`memlab.llm.mycelic_signatures`
  (the merge statement).

``docs/llm.md`` says the same for users.
"""
