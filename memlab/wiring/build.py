"""The one builder: strategy objects from a Hydra config or from an exported hook spec.

A node is a mapping with ``_target_`` (the class) and its hyperparameters. :func:`build_node` imports the
class with :mod:`importlib` and calls it with the hyperparameters — the same path for a resolved Hydra config
(``python -m memlab``) and for a frozen JSON spec (the SessionStart hook, which must start without Hydra). A
hyperparameter that is itself a node (or a list of nodes) is built first, as an option of the same group: the
cascade judge's stages are judges of their own, composed in ``conf/judge/cascade.yaml``. Every target must be on
the allow-list of its group (:data:`memlab.wiring.strategy_index.TARGETS`) and subclass its kind's base class
(:data:`memlab.core.groups.BASES`; a nested strategy too), checked before the class is called, and an unknown option
name gives one line that lists the valid options and the nearest match.

:func:`build_components` builds only the groups a benchmark's card declares; the others are
:class:`Unused` stand-ins that raise on any use, so a benchmark cannot silently depend on a group it does
not declare (and a sweep over a group it ignores is refused before it starts, by :mod:`memlab.run`).

The module imports only the standard library's cheapest parts at load time (the SessionStart hook builds
its selector here on every session start; the selector's base imports only :mod:`abc`); :mod:`difflib` and the
conf folder load when used.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Collection, Mapping

from memlab.core.errors import MemlabError
from memlab.core.groups import BASES, GROUPS, SETTINGS_GROUPS
from memlab.core.sha import sha256

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["GROUPS", "SETTINGS_GROUPS", "build", "build_components", "build_node", "config_hash"]
#: Import name -> pip package, for the "install X" message.
PACKAGES: dict[str, str] = {
    "sklearn": "scikit-learn",
    "sentence_transformers": "sentence-transformers",
    "hdbscan": "hdbscan",
    "dateparser": "dateparser",
    "dspy": "dspy",
    "torch": "torch",
    "yaml": "pyyaml",
    "rank_bm25": "rank-bm25",
}


def config_hash(data: Any) -> str:
    """First 12 hex digits of the SHA-256 of the canonical JSON of ``data`` (configs, specs, strategies)."""
    return sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:12]


def available_options(group: str) -> list[str]:
    """Sorted option names of a conf group (the ``*.yaml`` stems in ``conf/<group>/``)."""
    from memlab.core.paths import CONF_DIR

    folder = CONF_DIR / group
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml"))


def available_groups() -> list[str]:
    """Sorted conf group names."""
    from memlab.core.paths import CONF_DIR

    return sorted(p.name for p in CONF_DIR.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def unknown_option_message(group: str, name: str, valid: list[str] | None = None) -> str:
    """One line naming an unknown option, the valid ones and the nearest match."""
    import difflib

    valid = available_options(group) if valid is None else valid
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.5)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"unknown {group} '{name}'; valid: {', '.join(valid)}{hint}"


def missing_package_error(group: str, target: str, exc: ModuleNotFoundError) -> MemlabError:
    """A one-line error naming the package a strategy needs."""
    root = (exc.name or "?").split(".")[0]
    package = PACKAGES.get(root, root)
    return MemlabError(
        f"{group} strategy {target} needs the Python package '{package}'; install it: pip install {package}"
    )


def resolve_target(target: str, group: str, *, where: str = "config") -> type:
    """The allow-listed class ``target`` of ``group``, a subclass of the group's base class.

    Raises:
        MemlabError: The target is not allow-listed for the group, does not exist in this memlab, needs a
            package that is not installed, or does not subclass the group's base class.
    """
    from memlab.wiring.strategy_index import TARGETS

    allowed = TARGETS.get(group)
    base = BASES.get(group, "")
    if allowed is None or target not in allowed:
        names = ", ".join(sorted(t.rsplit(".", 1)[-1] for t in (allowed or ())))
        fix = "re-export it with `memlab export`" if where == "spec" else f"pick an option with {group}=<name>"
        if where != "spec" and base and target.startswith(base.rsplit(".", 2)[0] + "."):  # a new class of the kind
            fix = f"add it to TARGETS['{group}'] in memlab/wiring/strategy_index.py (the allow-list)"
        raise MemlabError(f"{group} target '{target}' is not one of memlab's {group} classes ({names}); {fix}")
    module_name, _, attr = target.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except ModuleNotFoundError as exc:
        if exc.name and not exc.name.startswith("memlab"):
            raise missing_package_error(group, target, exc) from None
        raise MemlabError(f"{group} target '{target}' does not exist in this memlab; update the {where}") from None
    except AttributeError:
        raise MemlabError(f"{group} target '{target}' does not exist in this memlab; update the {where}") from None
    if not isinstance(cls, type):
        raise MemlabError(f"{group} target '{target}' is not a class; fix the {where}")
    if base:
        module_name, _, attr = base.rpartition(".")
        if not issubclass(cls, getattr(importlib.import_module(module_name), attr)):
            raise MemlabError(
                f"{group} target '{target}' does not subclass {attr}, the {group} kind; declare it "
                f"`class {cls.__name__}({attr})` ({module_name.replace('.', '/')}.py gives its methods)"
            )
    return cls


def build_node(node: Mapping[str, Any], group: str, *, where: str = "config") -> Any:
    """Build one node (``_target_`` plus hyperparameters) of ``group``.

    Args:
        node: A mapping with ``_target_`` and hyperparameters (keys starting with ``_`` are not passed); a
            hyperparameter that is a node, or a list of nodes, is built first, as an option of the same group
            (the same allow-list and base class).
        group: The conf group it came from (selects the allow-list and the base class).
        where: ``config`` or ``spec``, for the wording of errors.

    Returns:
        The built object.

    Raises:
        MemlabError: No ``_target_``, a target off the allow-list or not of the kind, or bad parameters.
    """
    if not isinstance(node, Mapping) or "_target_" not in node:
        fix = "re-export the spec with `memlab export`" if where == "spec" else f"pick an option with {group}=<name>"
        raise MemlabError(f"{group} {where} has no _target_; {fix}")
    target = str(node["_target_"])
    cls = resolve_target(target, group, where=where)
    params = {str(k): _nested(v, group, where) for k, v in node.items() if not str(k).startswith("_")}
    try:
        obj = cls(**params)
    except MemlabError:
        raise
    except (TypeError, ValueError) as exc:
        fix = "re-export the spec" if where == "spec" else f"check its parameters in conf/{group}/"
        raise MemlabError(f"cannot build {group} '{target}': {exc}; {fix}") from None
    return obj


def _nested(value: Any, group: str, where: str) -> Any:
    """``value`` with the nodes in it built (a mapping with ``_target_``, or a list of them); other values as given."""
    if isinstance(value, Mapping) and "_target_" in value:
        return build_node(value, group, where=where)
    if isinstance(value, list | tuple) and any(isinstance(v, Mapping) and "_target_" in v for v in value):
        return [_nested(v, group, where) for v in value]
    return value


def build(node: Mapping[str, Any], group: str) -> Any:
    """:func:`build_node` for a config node (the name the runner and the tests use)."""
    return build_node(node, group)


class Unused:
    """Stands in for a strategy group that the running benchmark does not declare: any use raises.

    Args:
        group: The group.
        benchmark: The benchmark's name.
        uses: The groups it declares.
    """

    def __init__(self, group: str, benchmark: str, uses: Collection[str]) -> None:
        self._group = group
        self._benchmark = benchmark
        self._uses = tuple(uses)

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        raise MemlabError(
            f"benchmark '{self._benchmark}' used strategy group '{self._group}' ({attribute}), which its card "
            f"does not declare (uses: {', '.join(self._uses)}); add it to the card's uses"
        )

    def __repr__(self) -> str:
        return f"Unused({self._group!r})"


def build_components(
    source: Mapping[str, Any],
    *,
    groups: Collection[str] | None = None,
    benchmark: str = "",
    where: str = "config",
) -> Any:
    """Build a policy into :class:`memlab.wiring.components.Components`.

    Args:
        source: A resolved Hydra config, or a spec's mapping with ``strategies`` (group -> node),
            ``pipeline`` and ``llm``.
        groups: The groups to build (a benchmark card's ``uses``); the others become :class:`Unused`.
            ``None`` builds every group.
        benchmark: Name for the :class:`Unused` message.
        where: ``config`` or ``spec``.
    """
    from memlab.wiring.components import Components, PipelineSettings

    nodes = source.get("strategies") if where == "spec" else source
    if not isinstance(nodes, Mapping):
        raise MemlabError(f"the {where} has no strategies; re-export it with `memlab export`")
    wanted = GROUPS if groups is None else tuple(g for g in GROUPS if g in groups)
    built: dict[str, Any] = {}
    for group in GROUPS:
        if group in wanted:
            if group not in nodes:
                raise MemlabError(f"the {where} has no {group}; pick an option with {group}=<name>")
            built[group] = build_node(nodes[group], group, where=where)
        else:
            built[group] = Unused(group, benchmark, wanted)
    return Components(
        **built,
        settings=PipelineSettings.from_mapping(source.get("pipeline")),
        llm=dict(source.get("llm") or {}),
    )
