"""Baseline judge: in the same namespace, a newer memory supersedes an older one above a cosine threshold."""

from __future__ import annotations

from typing import ClassVar

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase


def normalised(text: str) -> str:
    """Lower-case, whitespace-collapsed text (for exact-duplicate checks)."""
    return " ".join(text.lower().split())


class SimilarityJudge(JudgeBase):
    """Deliberately simple: identical normalised text → DUPLICATE; same namespace and cosine similarity at
    or above ``threshold`` → SUPERSEDE; otherwise COEXIST. Without a similarity hint it can only find
    duplicates.

    Args:
        threshold: Cosine similarity at which a newer memory supersedes an older one.
        same_namespace: Require both memories to share a namespace.
    """

    name: ClassVar[str] = "similarity"
    version: ClassVar[int] = 1

    def __init__(self, threshold: float = 0.8, same_namespace: bool = True) -> None:
        self.threshold = threshold
        self.same_namespace = same_namespace

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Judge ``newer`` against ``older``."""
        if normalised(older.text) == normalised(newer.text):
            return Verdict(Relation.DUPLICATE, 1.0, "identical text")
        if self.same_namespace and older.namespace != newer.namespace:
            return Verdict(Relation.COEXIST, 1.0, "different namespaces")
        if similarity is not None and similarity >= self.threshold:
            return Verdict(
                Relation.SUPERSEDE,
                float(min(1.0, max(0.0, similarity))),
                f"newer and similar (cosine {similarity:.2f} >= {self.threshold})",
            )
        confidence = 0.5 if similarity is None else min(1.0, max(0.0, 1.0 - float(similarity)))
        return Verdict(Relation.COEXIST, confidence, "below similarity threshold")
