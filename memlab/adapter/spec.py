"""The frozen hook spec (``memlab-hook.json``) and a loader that needs neither Hydra nor MLflow.

A spec names each strategy by its ``_target_`` (``memlab.*`` only) with its parameters; the loader imports
the class with :mod:`importlib` and calls it with the parameters, nothing else. A strategy whose
third-party dependency is missing fails with a message naming the package to install.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memlab.errors import MemlabError

SPEC_FORMAT = "memlab.hook-spec/1"
SPEC_FILE = "memlab-hook.json"
#: Strategy groups a spec carries, in build order.
GROUPS: tuple[str, ...] = ("embedder", "retention", "clusterer", "summarizer", "judge", "temporal", "selector")
#: Import name -> pip package, for the "install X" message.
PACKAGES: dict[str, str] = {
    "sklearn": "scikit-learn",
    "sentence_transformers": "sentence-transformers",
    "hdbscan": "hdbscan",
    "dateparser": "dateparser",
    "dspy": "dspy",
    "torch": "torch",
    "yaml": "pyyaml",
}
#: Hook behaviour defaults (a spec's ``hook`` section overrides them).
HOOK_DEFAULTS: dict[str, Any] = {
    "max_chars": 9500,
    "max_item_chars": 400,
    "time_budget_seconds": 3.0,
    "consolidate_min_new": 5,
    "consolidate_min_interval_seconds": 600,
    "policy": {
        "startup": "always",
        "clear": "always",
        "compact": "always",
        "resume": "if_changed",
        "fork": "if_changed",
    },
}


def missing_package_error(group: str, target: str, exc: ModuleNotFoundError) -> MemlabError:
    """A one-line error naming the package a strategy needs."""
    root = (exc.name or "?").split(".")[0]
    package = PACKAGES.get(root, root)
    return MemlabError(
        f"{group} strategy {target} needs the Python package '{package}'; install it: pip install {package}"
    )


def build_node(node: Mapping[str, Any], group: str) -> Any:
    """Import ``node['_target_']`` (a ``memlab.*`` class) and call it with the other keys."""
    if not isinstance(node, Mapping) or "_target_" not in node:
        raise MemlabError(f"spec {group} has no _target_; re-export the spec with `memlab export`")
    target = str(node["_target_"])
    if not target.startswith("memlab.") or "." not in target:
        raise MemlabError(f"spec {group} target '{target}' is not a memlab.* class; only memlab strategies load")
    module_name, _, attr = target.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except ModuleNotFoundError as exc:
        if exc.name and not exc.name.startswith("memlab"):
            raise missing_package_error(group, target, exc) from None
        raise MemlabError(f"spec {group} target '{target}' does not exist in this memlab; re-export") from None
    except AttributeError:
        raise MemlabError(f"spec {group} target '{target}' does not exist in this memlab; re-export") from None
    params = {k: v for k, v in node.items() if not k.startswith("_")}
    try:
        return cls(**params)
    except TypeError as exc:
        raise MemlabError(f"spec {group} '{target}' rejects its parameters: {exc}") from None


def config_hash(data: Any) -> str:
    """First 12 hex digits of the SHA-256 of canonical JSON."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:12]


def load_spec(path: str | Path) -> dict[str, Any]:
    """Read and check a spec file; fills hook defaults."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MemlabError(f"no hook spec at {path}; create one with `memlab export ... --out DIR`") from None
    except (OSError, ValueError) as exc:
        raise MemlabError(f"hook spec {path} is not readable JSON ({exc}); re-export it") from None
    if not isinstance(data, dict) or data.get("format") != SPEC_FORMAT:
        raise MemlabError(f"{path} is not a {SPEC_FORMAT} spec; re-export it with `memlab export`")
    strategies = data.get("strategies")
    if not isinstance(strategies, dict) or any(g not in strategies for g in GROUPS):
        raise MemlabError(f"spec {path} lacks strategies ({', '.join(GROUPS)}); re-export it")
    hook = {**HOOK_DEFAULTS, **(data.get("hook") or {})}
    hook["policy"] = {**HOOK_DEFAULTS["policy"], **(hook.get("policy") or {})}
    data["hook"] = hook
    data["path"] = str(path.resolve())
    return data


def build_selector(spec: Mapping[str, Any]) -> Any:
    """Only the selector (the SessionStart path needs nothing else)."""
    return build_node(spec["strategies"]["selector"], "selector")


def build_components(spec: Mapping[str, Any]) -> Any:
    """Every strategy plus pipeline settings, as :class:`memlab.components.Components`."""
    from memlab.components import Components, PipelineSettings

    built = {group: build_node(spec["strategies"][group], group) for group in GROUPS}
    return Components(**built, settings=PipelineSettings.from_mapping(spec.get("pipeline")), llm=spec.get("llm") or {})


#: Options of the built-in default spec (the foundation's defaults with the hashing embedder).
DEFAULT_OPTIONS: dict[str, str] = {
    "embedder": "tfidf",
    "retention": "exponential",
    "clusterer": "agglomerative",
    "summarizer": "extractive",
    "judge": "similarity",
    "temporal": "pattern_table",
    "selector": "seed_weighted",
}


def default_spec() -> dict[str, Any]:
    """A spec from the conf files' defaults (no run needed), for repositories without an exported spec."""
    import yaml

    from memlab.paths import CONF_DIR

    strategies = {}
    for group, option in DEFAULT_OPTIONS.items():
        strategies[group] = yaml.safe_load((CONF_DIR / group / f"{option}.yaml").read_text(encoding="utf-8"))
    pipeline = (yaml.safe_load((CONF_DIR / "config.yaml").read_text(encoding="utf-8")) or {}).get("pipeline", {})
    spec = {
        "format": SPEC_FORMAT,
        "strategies": strategies,
        "pipeline": pipeline,
        "llm": {},
        "source": {"run_id": None, "config_hash": config_hash({"strategies": strategies, "pipeline": pipeline})},
    }
    hook = {**HOOK_DEFAULTS}
    spec["hook"] = hook
    spec["path"] = None
    return spec


def resolve_spec(path: str | None) -> dict[str, Any]:
    """``path``, else ``$MEMLAB_SPEC``, else the built-in default spec."""
    import os

    chosen = path or os.environ.get("MEMLAB_SPEC")
    return load_spec(chosen) if chosen else default_spec()
