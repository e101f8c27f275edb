"""The frozen hook spec (``memlab-hook.json``) and its loader, which needs neither Hydra nor MLflow.

A spec names each strategy by its ``_target_`` with its parameters; :mod:`memlab.wiring.build` (the one builder)
builds it, refusing any target off the allow-list (:mod:`memlab.wiring.strategy_index`). A strategy whose
third-party dependency is missing fails with a message naming the package to install.

Model files (a strategy's ``model_path``, and those of the strategies nested in it, such as the cascade judge's
stages) are resolved against the spec file's folder — never against the repository or the current directory —
and carry the ``model_sha256`` beside them that ``memlab export`` computed;
:func:`check_models` refuses a model inside the repository being served or one whose bytes changed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from memlab.core.errors import MemlabError
from memlab.core.groups import SPEC_DEFAULTS
from memlab.core.sha import file_sha256
from memlab.pipeline.inject import MAX_BLOCK_CHARS, MAX_ITEM_CHARS
from memlab.wiring.build import GROUPS, build_node, config_hash, missing_package_error

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from typing import Any

#: Strategy groups every spec must carry (a spec exported before ``retriever`` existed gets ``dense``, one
#: exported before ``admission`` existed admits every record).
REQUIRED_GROUPS: tuple[str, ...] = tuple(g for g in GROUPS if g not in ("retriever", "reader", "admission"))
__all__ = ["GROUPS", "build_node", "config_hash", "missing_package_error"]

SPEC_FORMAT = "memlab.hook-spec/1"
SPEC_FILE = "memlab-hook.json"
#: Hook behaviour defaults (a spec's ``hook`` section overrides them).
HOOK_DEFAULTS: dict[str, Any] = {
    "max_chars": MAX_BLOCK_CHARS,
    "max_item_chars": MAX_ITEM_CHARS,
    "time_budget_seconds": 3.0,
    "consolidate_min_new": 5,
    "consolidate_min_interval_seconds": 600,
    # per-run cap: a consolidation over more memories keeps only the newest this many (degraded, logged)
    "max_memories": 5000,
    "policy": {
        "startup": "always",
        "clear": "always",
        "compact": "always",
        "resume": "if_changed",
        "fork": "if_changed",
    },
}


def model_refs(node: Any) -> list[tuple[dict[str, Any], str]]:
    """``(node, key)`` of every set key naming a model file (``model_path``, ``<name>model_path``) in a strategy
    node and in the strategy nodes nested in it (the cascade's stages), outermost first; each has its pin in the
    same node, in the key with ``_sha256`` for ``_path``.
    """
    if isinstance(node, list | tuple):
        return [ref for item in node for ref in model_refs(item)]
    if not isinstance(node, Mapping):
        return []
    own = [(node, k) for k, v in node.items() if isinstance(k, str) and k.endswith("model_path") and v]
    return own + [ref for value in node.values() for ref in model_refs(value)]


def resolve_model_paths(strategies: Mapping[str, Any], folder: Path) -> None:
    """Make every model path (:func:`model_refs`) absolute against ``folder`` (the spec's own folder), links
    resolved.
    """
    for node, key in model_refs(list(strategies.values())):
        if isinstance(node[key], str):
            model = Path(node[key]).expanduser()
            node[key] = str((model if model.is_absolute() else folder / model).resolve())


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` (links resolved) lies in ``folder`` (links resolved)."""
    return Path(path).resolve().is_relative_to(Path(folder).resolve())


def check_models(spec: Mapping[str, Any], repo: Any) -> None:
    """Refuse model files inside the repository served, missing, or not matching the spec's sha256.

    Raises:
        MemlabError: One line naming the group, the file and what to do.
    """
    for group, strategy in (spec.get("strategies") or {}).items():
        for node, key in model_refs(strategy):
            model = Path(str(node[key]))
            if inside(model, repo.root) or inside(model, repo.git_dir):
                raise MemlabError(
                    f"spec {group} model {model} lies inside the repository {repo.root}; memlab never loads a model "
                    "from the repository it serves (keep models beside the spec, as `memlab export` does)"
                )
            if not model.is_file():
                raise MemlabError(f"spec {group} model {model} not found; re-export the spec with `memlab export`")
            expected = node.get(key[: -len("path")] + "sha256")
            if not isinstance(expected, str) or not expected:
                raise MemlabError(f"spec {group} model {model} has no {key[: -len('path')]}sha256; re-export the spec")
            actual = file_sha256(model)
            if actual != expected.lower():
                raise MemlabError(
                    f"spec {group} model {model} has sha256 {actual[:12]}…, the spec expects {expected[:12]}…; "
                    "the file changed since export: re-export the spec"
                )


def load_spec(path: str | Path) -> dict[str, Any]:
    """Read and check a spec file; fills hook defaults and resolves model paths against its folder."""
    path = Path(path).expanduser().absolute()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MemlabError(f"no hook spec at {path}; create one with `memlab export ... --out DIR`") from None
    except (OSError, ValueError) as exc:
        raise MemlabError(f"hook spec {path} is not readable JSON ({exc}); re-export it") from None
    if not isinstance(data, dict) or data.get("format") != SPEC_FORMAT:
        raise MemlabError(f"{path} is not a {SPEC_FORMAT} spec; re-export it with `memlab export`")
    strategies = data.get("strategies")
    if not isinstance(strategies, dict) or any(g not in strategies for g in REQUIRED_GROUPS):
        raise MemlabError(f"spec {path} lacks strategies ({', '.join(REQUIRED_GROUPS)}); re-export it")
    strategies.setdefault("retriever", dict(DEFAULT_RETRIEVER))
    strategies.setdefault("reader", {"_target_": "memlab.strategies.reader.none.NoReader"})  # the hook reads nothing
    strategies.setdefault("admission", {"_target_": "memlab.strategies.admission.none.NoAdmission"})
    if not isinstance(data.get("hook") or {}, dict) or not isinstance(data.get("pipeline") or {}, dict):
        raise MemlabError(f"spec {path} has a malformed hook or pipeline section; re-export it")
    hook = {**HOOK_DEFAULTS, **(data.get("hook") or {})}
    hook["policy"] = {**HOOK_DEFAULTS["policy"], **(hook.get("policy") if isinstance(hook.get("policy"), dict) else {})}
    data["hook"] = hook
    data["path"] = str(path.resolve())
    resolve_model_paths(strategies, path.resolve().parent)
    return data


def policy_id(spec: Mapping[str, Any]) -> str:
    """The policy a spec runs: the hash of what decides its derived records (strategies, ``pipeline``, ``llm``).

    Every derived record carries the id of the policy that wrote it, and each policy reads only its own: records
    of another policy (another spec installed earlier, another clone's spec) are kept in the refs, never read.
    """
    return config_hash({k: spec.get(k) for k in ("strategies", "pipeline", "llm")})


def spec_id(spec: Mapping[str, Any]) -> str:
    """The hash of everything a spec sets (the policy and its ``hook`` section; not its path or export record):
    the SessionStart cache is fresh only for the spec it was written for, whatever the change.
    """
    return config_hash({k: v for k, v in spec.items() if k not in ("path", "source")})


def build_selector(spec: Mapping[str, Any]) -> Any:
    """Only the selector (the SessionStart path needs nothing else)."""
    return build_node(spec["strategies"]["selector"], "selector", where="spec")


def build_components(spec: Mapping[str, Any], groups: tuple[str, ...] | None = None) -> Any:
    """The strategies (``groups``: only those) plus pipeline settings, as
    :class:`memlab.wiring.components.Components`.
    """
    from memlab.wiring.build import build_components as build_policy

    return build_policy(spec, groups=groups, where="spec")


#: The retriever of a spec exported before the ``retriever`` group existed: what recall did then.
DEFAULT_RETRIEVER: dict[str, Any] = {"_target_": "memlab.strategies.retriever.dense.DenseRetriever"}

#: Options of the built-in default spec (the foundation's defaults with the hashing embedder).
DEFAULT_OPTIONS: dict[str, str] = dict(SPEC_DEFAULTS)  # memlab/core/groups.py


def default_spec() -> dict[str, Any]:
    """A spec from the conf files' defaults (no run needed), for repositories without an exported spec."""
    import yaml

    from memlab.core.paths import CONF_DIR

    strategies = {}
    for group, option in DEFAULT_OPTIONS.items():
        strategies[group] = yaml.safe_load((CONF_DIR / group / f"{option}.yaml").read_text(encoding="utf-8"))
    pipeline: dict[str, Any] = {}  # every pipeline setting at its default (memlab.wiring.components.PipelineSettings)
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


def resolve_spec(path: str | None, repo: Any = None) -> dict[str, Any]:
    """``path``, else ``$MEMLAB_SPEC``, else the built-in default spec.

    With ``repo`` (the hook events and background consolidation) a spec file inside that repository is
    refused: the hook trusts its spec, and nothing inside the repository it serves.
    """
    import os

    chosen = path or os.environ.get("MEMLAB_SPEC")
    if chosen and repo is not None and (inside(Path(chosen), repo.root) or inside(Path(chosen), repo.git_dir)):
        raise MemlabError(
            f"hook spec {chosen} lies inside the repository {repo.root}; the hook never trusts files from the "
            "repository it serves (keep the spec outside it)"
        )
    return load_spec(chosen) if chosen else default_spec()
