"""Names and hashes of runs: what makes two runs "the same configuration", and how the runs list names them.

The config hash covers everything that can change a result; :data:`RUNTIME_KEYS` are the settings that
only change how a run is recorded or observed (where it is tracked, how it logs, whether it is traced), so
``tracking.skip_finished=true`` or ``logging.format=json`` do not make a configuration new.

A run's name states its choices, not a hash, so that a sweep's runs can be told apart in the MLflow runs
list: the benchmark, then the command-line overrides (``builtin_history judge=slot retention=none seed=1``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: Top-level config keys left out of the config hash (recording and observation only).
RUNTIME_KEYS: frozenset[str] = frozenset({"tracking", "logging", "trace"})
#: MLflow's limit on run names is 250 characters.
MAX_NAME = 240


def run_name_for(benchmark: str, overrides: Sequence[str], cfg: Mapping[str, Any] | None = None) -> str:
    """``<benchmark> key=value ...`` from the overrides that choose something (not tracking or hydra ones).

    ``+experiment=X`` contributes ``X`` (when no experiment override is given, the configured
    ``experiment_name`` is used unless it is ``default``).
    """
    parts: list[str] = []
    experiment = None
    for item in overrides:
        key, _, value = item.lstrip("+~").partition("=")
        root = key.split(".", 1)[0].split("/", 1)[0]
        if root in RUNTIME_KEYS or root in ("hydra", "paths", "experiment_name"):
            continue
        if root == "experiment":
            experiment = value
            continue
        if key == "dataset" and value == benchmark:
            continue
        parts.append(f"{key}={value}")
    if experiment is None and cfg is not None and cfg.get("experiment_name") not in (None, "default"):
        experiment = str(cfg["experiment_name"])
    head = benchmark if experiment in (None, benchmark) else f"{benchmark} ({experiment})"
    name = " ".join([head, *parts])
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
