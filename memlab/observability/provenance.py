"""Provenance of a run: config hash, git state, library versions (no heavy imports)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from importlib import metadata
from typing import Any

from memlab.core.paths import PROJECT_ROOT

LIBRARIES = ("memlab", "numpy", "scikit-learn", "hydra-core", "mlflow", "dspy", "sentence-transformers", "torch")


def git_state() -> tuple[str, bool]:
    """``(sha, dirty)`` of the checkout; ``("unknown", False)`` outside git."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
        return sha, bool(status.strip())
    except (OSError, subprocess.SubprocessError):
        return "unknown", False


def library_versions() -> dict[str, str]:
    """Installed versions of the key libraries (``missing`` when absent)."""
    out = {}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "missing"
    return out


def flatten(cfg: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Flatten nested mappings to dotted keys (lists are kept as their JSON text)."""
    out: dict[str, Any] = {}
    for key, value in cfg.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten(value, name + "."))
        elif isinstance(value, list | tuple):
            out[name] = json.dumps(value, default=str)
        else:
            out[name] = value
    return out
