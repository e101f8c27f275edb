"""Build a DSPy language model from the ``llm`` config group.

DSPy is imported lazily (only LLM-backed strategies pay for it). Responses are cached on disk under
``cache_dir`` so a rerun of the same configuration makes no calls. No accuracy may be reported from the
``stub`` option: it points at a local stub server that tests start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memlab.errors import MemlabError

_CACHE_CONFIGURED: set[str] = set()


def make_lm(cfg: Mapping[str, Any]) -> Any:
    """Return a ``dspy.LM`` for an ``llm`` config mapping.

    Keys: ``model`` (LiteLLM-style, e.g. ``openai/gpt-4o-mini``, ``ollama_chat/llama3``), ``api_base``,
    ``api_key`` (or ``api_key_env``: the name of an environment variable), ``temperature``,
    ``max_tokens``, ``cache`` (bool), ``cache_dir``, ``num_retries``.

    Raises:
        MemlabError: No model is configured, or dspy is not installed.
    """
    if not cfg or not cfg.get("model"):
        raise MemlabError("no LLM configured; pick one with llm=<option> (see `memlab list llm`) or set llm.model")
    # DSPy fetches LiteLLM's model price map from GitHub on first use (five seconds' timeout offline) unless this
    # is set; the bundled copy is enough. `python -m memlab` sets it too, but a hook or library use may not.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import dspy
    except ImportError:  # pragma: no cover - dspy is a declared dependency
        raise MemlabError("LLM strategies need the dspy package; install it with `pip install dspy`") from None
    cache_dir = cfg.get("cache_dir")
    if cfg.get("cache", True) and cache_dir and str(cache_dir) not in _CACHE_CONFIGURED:
        Path(cache_dir).mkdir(parents=True, exist_ok=True)
        dspy.configure_cache(enable_disk_cache=True, enable_memory_cache=True, disk_cache_dir=str(cache_dir))
        _CACHE_CONFIGURED.add(str(cache_dir))
    api_key = cfg.get("api_key")
    if not api_key and cfg.get("api_key_env"):
        api_key = os.environ.get(str(cfg["api_key_env"]))
    kwargs: dict[str, Any] = {}
    if cfg.get("api_base"):
        kwargs["api_base"] = cfg["api_base"]
    if api_key:
        kwargs["api_key"] = api_key
    return dspy.LM(
        cfg["model"],
        temperature=cfg.get("temperature", 0.0),
        max_tokens=cfg.get("max_tokens", 512),
        cache=bool(cfg.get("cache", True)),
        num_retries=int(cfg.get("num_retries", 0)),
        **kwargs,
    )
