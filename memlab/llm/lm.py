"""Build a DSPy language model from the ``llm`` config group.

DSPy is imported lazily (only LLM-backed strategies pay for it). DSPy's own response cache is off: answers
are cached by :class:`memlab.llm.client.LLMClient` (:mod:`memlab.llm.cache`), which counts its hits. The
model keeps the token usage of its last response in ``last_usage_`` (for the run's ledger). No accuracy may
be reported from a stub server.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from typing import Any

from memlab.core.errors import MemlabError


@cache
def counting_lm_class() -> type:
    """``dspy.LM`` that keeps the usage of each response it records (``last_usage_``, a list per call)."""
    import dspy

    class CountingLM(dspy.LM):
        """A ``dspy.LM`` whose responses' token usage is kept for memlab's ledger."""

        last_usage_: list[dict[str, Any]]

        def update_history(self, entry: dict[str, Any]) -> None:
            usage = getattr(self, "last_usage_", None)
            if usage is None:
                usage = self.last_usage_ = []
            usage.append(dict(entry.get("usage") or {}))
            super().update_history(entry)

    return CountingLM


def make_lm(cfg: Mapping[str, Any]) -> Any:
    """Return a ``dspy.LM`` for an ``llm`` config mapping.

    Keys: ``model`` (LiteLLM-style, e.g. ``openai/gpt-4o-mini``, ``ollama_chat/llama3``), ``api_base``,
    ``api_key`` (or ``api_key_env``: the name of an environment variable), ``temperature``,
    ``max_tokens``, ``num_retries`` (transport retries inside DSPy). The cache keys (``cache``, ``cache_dir``)
    and the error policy (``on_error``, ``malformed_retries``) are read by :class:`~memlab.llm.client.LLMClient`.

    Raises:
        MemlabError: No model is configured, or dspy is not installed.
    """
    if not cfg or not cfg.get("model"):
        raise MemlabError("no LLM configured; pick one with llm=<option> (see `memlab list llm`) or set llm.model")
    # DSPy fetches LiteLLM's model price map from GitHub on first use (five seconds' timeout offline) unless this
    # is set; the bundled copy is enough. `python -m memlab` sets it too, but a hook or library use may not.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        lm_class = counting_lm_class()
    except ImportError:  # pragma: no cover - dspy is a declared dependency
        raise MemlabError("LLM strategies need the dspy package; install it with `pip install dspy`") from None
    api_key = cfg.get("api_key")
    if not api_key and cfg.get("api_key_env"):
        api_key = os.environ.get(str(cfg["api_key_env"]))
    kwargs: dict[str, Any] = {}
    if cfg.get("api_base"):
        kwargs["api_base"] = cfg["api_base"]
    if api_key:
        kwargs["api_key"] = api_key
    return lm_class(
        cfg["model"],
        temperature=cfg.get("temperature", 0.0),
        max_tokens=cfg.get("max_tokens", 512),
        cache=False,
        num_retries=int(cfg.get("num_retries", 0)),
        **kwargs,
    )


#: Fields of a served model's entry that say which weights answer (``created`` is left out: some servers, vLLM
#: among them, stamp it with the time of the request).
IDENTITY_FIELDS: tuple[str, ...] = ("id", "owned_by", "root", "parent", "meta", "digest", "details")


@cache
def served_identity(api_base: str | None, model: str | None, api_key: str | None = None) -> str:
    """What the server at ``api_base`` says it serves under ``model``, as one canonical JSON string.

    Asked once per process from the OpenAI-compatible ``GET {api_base}/models``: the entry whose ``id`` is the
    requested name (without its provider prefix), else every entry served (a server that answers any name with its
    one model says which); ``unknown`` when there is no endpoint or it cannot tell. The response cache keys answers
    by it, so two servers, or one server after its model changed, never share answers.
    """
    if not api_base:
        return "unknown"
    import json
    import urllib.request

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    request = urllib.request.Request(f"{str(api_base).rstrip('/')}/models", headers=headers, method="GET")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            data = json.loads(response.read(1 << 20))
        entries = [e for e in data.get("data") or [] if isinstance(e, dict) and e.get("id")]
    except (OSError, ValueError, AttributeError):
        return "unknown"
    name = str(model or "").split("/", 1)[-1]
    chosen = [e for e in entries if e["id"] == name] or entries
    if not chosen:
        return "unknown"
    picked = [{k: e[k] for k in IDENTITY_FIELDS if k in e} for e in chosen]
    return json.dumps(picked[0] if len(picked) == 1 else sorted(picked, key=str), sort_keys=True, default=str)
