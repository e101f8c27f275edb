"""Turn config nodes into strategy objects: the one caller of ``hydra.utils.instantiate``.

Only ``memlab.*`` targets are built (a config cannot make memlab import arbitrary code), every built
strategy is checked against its kind's protocol, and an unknown option name gives one line that lists
the valid options and the nearest match.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from memlab.errors import MemlabError
from memlab.paths import CONF_DIR
from memlab.protocols import GROUP_PROTOCOLS

#: Groups whose options are strategies built into :class:`memlab.components.Components`.
STRATEGY_GROUPS: tuple[str, ...] = (
    "embedder",
    "retention",
    "clusterer",
    "summarizer",
    "judge",
    "temporal",
    "selector",
)


def available_options(group: str) -> list[str]:
    """Sorted option names of a conf group (the ``*.yaml`` stems in ``conf/<group>/``)."""
    folder = CONF_DIR / group
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml"))


def available_groups() -> list[str]:
    """Sorted conf group names."""
    return sorted(p.name for p in CONF_DIR.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def unknown_option_message(group: str, name: str, valid: list[str] | None = None) -> str:
    """One line naming an unknown option, the valid ones and the nearest match."""
    valid = available_options(group) if valid is None else valid
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.5)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"unknown {group} '{name}'; valid: {', '.join(valid)}{hint}"


def build(node: Mapping[str, Any], group: str) -> Any:
    """Instantiate one config node and check it against ``group``'s protocol.

    Args:
        node: A mapping with ``_target_`` and hyperparameters.
        group: The conf group it came from (selects the protocol; groups without one are not checked).

    Returns:
        The built object.

    Raises:
        MemlabError: The target is not a ``memlab.*`` class, cannot be built, or breaks the protocol.
    """
    if not isinstance(node, Mapping) or "_target_" not in node:
        raise MemlabError(f"{group} config has no _target_; pick an option with {group}=<name>")
    target = str(node["_target_"])
    if not target.startswith("memlab."):
        raise MemlabError(f"{group} target '{target}' is not a memlab.* class; only memlab strategies are built")
    from hydra.errors import InstantiationException
    from hydra.utils import instantiate

    try:
        obj = instantiate(dict(node), _convert_="all")
    except InstantiationException as exc:
        cause = exc.__cause__ or exc
        if isinstance(cause, MemlabError):
            raise cause from None
        raise MemlabError(f"cannot build {group} '{target}': {cause}; check its parameters in conf/{group}/") from exc
    protocol = GROUP_PROTOCOLS.get(group)
    if protocol is not None and not isinstance(obj, protocol):
        raise MemlabError(f"{group} '{target}' does not implement {protocol.__name__}; fix the class or the config")
    return obj


def build_components(cfg: Mapping[str, Any]) -> Any:
    """Build every strategy of a resolved config into :class:`memlab.components.Components`."""
    from memlab.components import Components, PipelineSettings

    built = {group: build(cfg[group], group) for group in STRATEGY_GROUPS}
    return Components(
        **built,
        settings=PipelineSettings.from_mapping(cfg.get("pipeline")),
        llm=dict(cfg.get("llm") or {}),
    )
