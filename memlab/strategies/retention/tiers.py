"""Tier thresholds shared by retention functions."""

from __future__ import annotations

from memlab.core.types import Tier


def tier_for(overall: float, hot: float, warm: float, cold: float) -> Tier:
    """Map a score to a tier: hot ≥ ``hot``, warm ≥ ``warm``, cold ≥ ``cold``, else archived.

    Monotone by construction: a higher score never gets a colder tier.
    """
    if not hot >= warm >= cold:
        from memlab.core.errors import MemlabError

        raise MemlabError(f"tier thresholds must satisfy hot >= warm >= cold, got {hot}, {warm}, {cold}")
    if overall >= hot:
        return Tier.HOT
    if overall >= warm:
        return Tier.WARM
    if overall >= cold:
        return Tier.COLD
    return Tier.ARCHIVED
