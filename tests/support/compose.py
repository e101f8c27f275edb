"""Compose memlab configs through Hydra's compose API (the same composition `python -m memlab` uses)."""

from __future__ import annotations

from typing import Any

from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from memlab.conf_resolvers import register
from memlab.paths import CONF_DIR


def compose_cfg(overrides: list[str] | None = None, *, resolve: bool = True) -> dict[str, Any]:
    """The resolved config for ``overrides`` as plain containers (tracking defaults to none in tests)."""
    register()
    overrides = list(overrides or [])
    if not any(o.startswith(("tracking=", "+tracking=")) for o in overrides):
        overrides.append("tracking=none")
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=overrides)
    return OmegaConf.to_container(cfg, resolve=resolve)
