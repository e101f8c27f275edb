"""The on-disk response cache: parsed answers keyed by (model, prompt, input).

One JSON file per answer, ``<folder>/<key[:2]>/<key>.json``, written atomically (a temporary file, then a
rename), so concurrent runs and an interrupted run leave no half-written entry. Only answers that parsed
and passed the caller's check are stored: a failure is asked again on the next run.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def cache_key(model: str, prompt: str, inputs: Mapping[str, Any]) -> str:
    """sha256 over the model name and settings, the full prompt (instructions, fields) and the inputs."""
    payload = json.dumps([model, prompt, dict(inputs)], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache:
    """Answers under ``folder`` (created on first write).

    Args:
        folder: The cache folder (the ``llm`` group's ``cache_dir``: ``<paths.cache_dir>/llm`` by default).
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def path(self, key: str) -> Path:
        """File of ``key``."""
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored answer of ``key`` (``None`` when absent or unreadable)."""
        path = self.path(key)
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return value.get("outputs") if isinstance(value, dict) and isinstance(value.get("outputs"), dict) else None

    def put(self, key: str, outputs: Mapping[str, Any], model: str) -> None:
        """Store ``outputs`` under ``key`` (write errors are ignored: the cache only saves calls)."""
        path = self.path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            data = {"model": model, "outputs": dict(outputs)}
            tmp.write_text(json.dumps(data, sort_keys=True, default=str, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            return
