"""Cascade judge: the learned judge on stores and pairs where it is reliable, the slot judge's rules elsewhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from memlab.strategies.judge.learned import LearnedJudge
from memlab.strategies.judge.slot import SlotJudge
from memlab.types import Memory, Relation, Verdict


class CascadeJudge:
    """The learned judge (:class:`~.learned.LearnedJudge`) where it is reliable, the slot judge
    (:class:`~.slot.SlotJudge`) otherwise, decided at two levels.

    Store level: a model trained on generated histories can be certain and wrong on wording unlike its
    training data (on hand-written histories model v8 gives COEXIST with probability 1.00 to every pair,
    changes included), so its own probabilities cannot say where it fails. The rules' surest verdicts can:
    every pair the slot judge calls SUPERSEDE with confidence at least ``evidence_confidence`` (an explicit
    change naming the replaced value, a resolved blocker) is a check of the learned judge, passed when it
    answers SUPERSEDE too (a tentative SUPERSEDE counts). Once ``min_evidence`` checks are in, the learned
    judge answers only while the share it passed is at least ``min_agreement``; otherwise the slot judge
    answers every pair. The tally covers the pairs judged since the store was first observed and starts
    again when ``observe`` is given a store that does not contain the previous one (another episode).

    Pair level: where the learned judge answers, a verdict whose confidence is below ``min_confidence`` is
    replaced by the slot judge's (0 keeps every learned verdict).

    The learned parameters are those of :class:`~.learned.LearnedJudge` (the same model file, SHA-256 pin,
    seed rule and tentative-SUPERSEDE threshold); ``slot`` holds the slot judge's.

    Args:
        model_path: As for the learned judge.
        model_sha256: As for the learned judge.
        eval_seed: As for the learned judge.
        on_seed_overlap: As for the learned judge.
        supersede_threshold: As for the learned judge.
        min_confidence: Confidence from which a learned verdict stands (below it the slot judge answers).
        min_agreement: Share of checks the learned judge must pass to keep answering.
        min_evidence: Checks needed before the share is read (until then the learned judge answers).
        evidence_confidence: Slot SUPERSEDE confidence from which a pair checks the learned judge.
        slot: Keyword arguments of the slot judge.
    """

    name: ClassVar[str] = "cascade"
    version: ClassVar[int] = 1

    def __init__(
        self,
        model_path: str | None = None,
        model_sha256: str | None = None,
        eval_seed: int | Sequence[int] | None = None,
        on_seed_overlap: str = "refuse",
        supersede_threshold: float | None = None,
        min_confidence: float = 0.0,
        min_agreement: float = 0.5,
        min_evidence: int = 1,
        evidence_confidence: float = 0.8,
        slot: Mapping[str, Any] | None = None,
    ) -> None:
        self.model_path = model_path
        self.model_sha256 = model_sha256
        self.eval_seed = eval_seed
        self.on_seed_overlap = on_seed_overlap
        self.supersede_threshold = supersede_threshold
        self.min_confidence = min_confidence
        self.min_agreement = min_agreement
        self.min_evidence = min_evidence
        self.evidence_confidence = evidence_confidence
        self.slot = slot
        self.learned_: Any = None
        self.slot_: Any = None
        self.checks_ = 0
        self.passed_ = 0
        self.store_: frozenset[str] = frozenset()

    def _parts(self) -> tuple[Any, Any]:
        if self.learned_ is None:
            self.learned_ = LearnedJudge(
                self.model_path, self.model_sha256, self.eval_seed, self.on_seed_overlap, self.supersede_threshold
            )
        if self.slot_ is None:
            self.slot_ = SlotJudge(**dict(self.slot or {}))
        return self.learned_, self.slot_

    def observe(self, memories: Sequence[Memory]) -> None:
        """Pass the store's memories to both judges (slot profiles, common words); a new store resets the tally."""
        ids = frozenset(m.id for m in memories)
        if not self.store_ <= ids:
            self.checks_ = self.passed_ = 0
        self.store_ = ids
        learned, slot = self._parts()
        learned.observe(memories)
        slot.observe(memories)

    def load(self) -> tuple[Any, dict[str, Any]]:
        """The learned judge's model and card (:meth:`~.learned.LearnedJudge.load`)."""
        return self._parts()[0].load()

    @property
    def artifact_path(self) -> str | None:
        """The learned judge's model file (after the first judgement)."""
        return self.learned_.artifact_path if self.learned_ is not None else None

    @property
    def trusted(self) -> bool:
        """Whether the learned judge answers on this store (too few checks yet, or enough of them passed)."""
        return self.checks_ < self.min_evidence or self.passed_ >= self.min_agreement * self.checks_

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """The learned verdict where the learned judge is trusted and sure, else the slot judge's."""
        learned, slot = self._parts()
        verdict = learned.judge(older, newer, similarity)
        fallback = slot.judge(older, newer, similarity)
        if fallback.relation is Relation.SUPERSEDE and fallback.confidence >= self.evidence_confidence:
            self.checks_ += 1
            self.passed_ += verdict.relation is Relation.SUPERSEDE
        if not self.trusted:
            return Verdict(
                fallback.relation, fallback.confidence, f"slot (learned judge distrusted): {fallback.reason}"
            )
        if verdict.confidence >= self.min_confidence:
            return verdict
        return Verdict(fallback.relation, fallback.confidence, f"slot ({verdict.reason} unsure): {fallback.reason}")
