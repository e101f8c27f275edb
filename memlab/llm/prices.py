"""Prices per token from LiteLLM's bundled price map, read from disk (never from the network).

The map is the JSON file ``litellm.model_cost`` loads when ``LITELLM_LOCAL_MODEL_COST_MAP=True``
(``model_prices_and_context_window_backup.json`` inside the installed ``litellm`` package); it is read
directly, without importing LiteLLM (seconds of import time). A model is known when its name, or its name
without the provider prefix, has input and output prices. An OpenAI-compatible server of one's own
(``openai/...`` with an ``api_base`` that is not api.openai.com) has no known price.
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from typing import Any

MAP_FILE = "model_prices_and_context_window_backup.json"


@cache
def price_map() -> dict[str, Any]:
    """LiteLLM's bundled price map (empty when LiteLLM is not installed)."""
    spec = importlib.util.find_spec("litellm")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / MAP_FILE
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    return {}


def _candidates(model: str) -> list[str]:
    provider, _, rest = model.partition("/")
    out = [model]
    if rest:
        out.append(rest)
        if provider == "ollama_chat":
            out.append(f"ollama/{rest}")
    return out


@cache
def token_prices(model: str | None, api_base: str | None = None) -> tuple[float, float] | None:
    """``(input, output)`` USD per token of ``model``, or ``None`` when the price is unknown."""
    if not model:
        return None
    if model.startswith("openai/") and api_base and "api.openai.com" not in api_base:
        return None
    table = price_map()
    for name in _candidates(model):
        entry = table.get(name)
        if isinstance(entry, dict):
            inp, out = entry.get("input_cost_per_token"), entry.get("output_cost_per_token")
            if isinstance(inp, int | float) and isinstance(out, int | float):
                return float(inp), float(out)
    return None


def cost_usd(model: str | None, api_base: str | None, prompt_tokens: int, completion_tokens: int) -> float | None:
    """Cost of one call in USD, or ``None`` when the model's price is unknown."""
    prices = token_prices(model, api_base)
    if prices is None:
        return None
    return prompt_tokens * prices[0] + completion_tokens * prices[1]
