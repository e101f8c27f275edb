"""Compose memlab configs in tests: :func:`memlab.wiring.config.compose` (tracking ``none`` unless an override sets
it).
"""

from __future__ import annotations

import functools
from typing import Any

from omegaconf import DictConfig, OmegaConf

from memlab.wiring.config import compose_node


@functools.cache
def _composed(overrides: tuple[str, ...]) -> DictConfig:
    """Hydra's composition of ``overrides``, unresolved: made once per test process (~0.2 s each, and the same
    override lists recur across contract tests); ``conf/`` is read-only while tests run."""
    return compose_node(list(overrides))


def compose_cfg(overrides: list[str] | None = None, *, resolve: bool = True) -> dict[str, Any]:
    """The resolved config for ``overrides`` as plain containers (tracking defaults to none): what
    :func:`memlab.wiring.config.compose` returns, the interpolations (environment, paths) resolved at each call.
    """
    return OmegaConf.to_container(_composed(tuple(overrides or ())), resolve=resolve)  # type: ignore[return-value]
