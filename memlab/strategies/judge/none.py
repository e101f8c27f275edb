"""No supersession judgement: every pair coexists."""

from __future__ import annotations

from typing import ClassVar

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase


class NoJudge(JudgeBase):
    """Always COEXIST."""

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1
    supersedes: ClassVar[bool] = False

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Always COEXIST with confidence 1."""
        return Verdict(Relation.COEXIST, 1.0, "judge disabled")
