"""Optional keywords of strategy methods (the hooks a protocol lists as optional)."""

from __future__ import annotations

import inspect


def takes_keyword(method: object, name: str) -> bool:
    """Whether a strategy method accepts the optional keyword ``name`` (an optional protocol hook)."""
    try:
        return name in inspect.signature(method).parameters  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
