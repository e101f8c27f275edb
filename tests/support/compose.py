"""Compose memlab configs in tests: :func:`memlab.wiring.config.compose` (tracking ``none`` unless an override sets
it).
"""

from __future__ import annotations

from typing import Any

from memlab.wiring.config import compose


def compose_cfg(overrides: list[str] | None = None, *, resolve: bool = True) -> dict[str, Any]:
    """The resolved config for ``overrides`` as plain containers (tracking defaults to none)."""
    return compose(overrides, resolve=resolve)
