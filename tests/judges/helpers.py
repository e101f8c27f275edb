"""Helpers of the judge tests."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from memlab.core.types import Memory

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


def mem(summary: str, content: str = "", namespace: str = "decisions", day: int = 0) -> Memory:
    """A memory recorded ``day`` days after 2025-01-06 (id from its text)."""
    mid = "m_" + hashlib.sha256(f"{summary}|{content}|{day}".encode()).hexdigest()[:10]
    return Memory(mid, namespace, T0 + timedelta(days=day), summary, content)


def four_way_reply(label: str, confidence: str = "0.9", reasoning: str = "because") -> str:
    """A well-formed DSPy ChatAdapter reply of the four-way signature."""
    return (
        f"[[ ## classification ## ]]\n{label}\n\n[[ ## confidence ## ]]\n{confidence}\n\n"
        f"[[ ## reasoning ## ]]\n{reasoning}\n\n[[ ## completed ## ]]"
    )


def seed_reply(supersedes: bool, confidence: str = "high", reason: str = "because") -> str:
    """A well-formed DSPy ChatAdapter reply of the seed signature."""
    return (
        f"[[ ## supersedes ## ]]\n{supersedes}\n\n[[ ## confidence ## ]]\n{confidence}\n\n"
        f"[[ ## reason ## ]]\n{reason}\n\n[[ ## completed ## ]]"
    )
