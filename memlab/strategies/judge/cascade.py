"""Cascade judge: the learned judge on stores and pairs where it is reliable, a fallback judge elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.recapture import RecaptureJudge
from memlab.strategies.judge.record_store import is_record_store
from memlab.strategies.judge.reference import ReferenceJudge
from memlab.strategies.judge.slot import SlotJudge


class CascadeJudge(JudgeBase):
    """The learned judge where it is reliable, a fallback judge otherwise, decided at two levels; the stages are
    judges of their own, composed in ``conf/judge/cascade.yaml`` from their options' files, and the cascade keeps
    only the gating.

    Store level: a model trained on generated histories can be certain and wrong on wording unlike its
    training data (on hand-written histories model v8, v10's predecessor, gave COEXIST with probability 1.00 to
    every pair, changes included), so its own probabilities cannot say where it fails. The rules' surest verdicts can:
    every pair the ``slot`` judge calls SUPERSEDE with confidence at least ``evidence_confidence`` (an explicit
    change naming the replaced value, a resolved blocker) is a check of the ``learned`` judge, passed when it
    answers SUPERSEDE too (a tentative SUPERSEDE counts). Once ``min_evidence`` checks are in, the learned
    judge answers only while the share it passed is at least ``min_agreement``; otherwise the fallback
    answers every pair. The tally covers the pairs judged since the store was first observed and starts
    again when ``observe`` is given a store that does not contain the previous one (another episode).

    Pair level: where the learned judge answers, a verdict whose confidence is below ``min_confidence`` is
    replaced by the fallback's (0 keeps every learned verdict).

    Fallback: ``fallback`` answers (``None``: the slot judge's verdict, already made for the check, stands). It
    reads the store when it is first asked after :meth:`observe`, so that on a store the learned judge reads well
    a fallback model never builds its slot profiles and a language model is never called. The conf's is the
    cross-family model v11 (``judge=learned_v11``): the specialist (model v10, one phrasing family) is the better
    judge on the wording it was trained on, and the check tells when a store is written that way; the generalist
    loses a little there (generated validation seed 1020: 0.883 instead of 0.916) and gains where the specialist
    and the rules fail (see "Judges across phrasing families" in experiments/project_history/README.md).
    ``judge=cascade_llm`` has a language model as its fallback (the DSPy judge), for wording no rule or model was
    written or trained for; on a distrusted store that is every candidate pair (about 10,000 of a 400-memory
    history at ``knn_k`` 20), so a ``screen`` judge (model v11) reads each pair first: a pair it answers COEXIST
    with confidence above ``1 - screen_min_probability`` keeps that COEXIST without asking the fallback.

    Re-captures (``recapture``, first stage): a pair whose newer record captures the older one's passage again (a
    shifted excerpt window, other escaping: :class:`~.recapture.RecaptureJudge`) is a DUPLICATE, whatever the
    store, and a SUPERSEDE when task boxes in it were ticked or cleared; a pair with a record the admission step
    keeps out of the block gets only this stage (:meth:`judge_capture`).

    References (``reference``, next stage): a pair on which the reference reader has a verdict (the newer
    memory names the older one as what it supersedes or amends) gets that verdict; every other pair goes on as
    above (the store-level checks count every pair either way).

    Edits (``edit``, after the reference reader, absent by default): a pair the edit judge
    (:class:`~.edit.EditJudge`) reads as an edit of the older fact (a changed value, a rewording) gets its SUPERSEDE
    or DUPLICATE; every other pair goes on to the note judges. Composed only in ``judge=cascade_edit``: on generated
    histories it costs supersession_f1 0.921 -> 0.537 (seed 0; experiments/memory_files/README.md, "Where the edit
    stage transfers"), and on memory files the edit judge alone does better (the memory-files experiment's judge).

    Record stores (``record``): when at least ``record_share`` of the observed memories are long-form records
    (summary and content of ``record_min_chars`` or more: architecture decision records, not notes), every pair the
    reference reader leaves is answered by the record judge, and the note judges never read the store. With
    ``cited_only``, a record store where some record names what it replaces speaks for itself: a pair of records
    (``implicit_namespaces``) the reference reader has no verdict on is COEXIST, not the record judge's (development
    ADR repositories, ``refs=keep``: the record judge's verdicts there cost F1, experiments/adr_decisions), and what
    the record judge said of such pairs in a session before the first citing record arrived is withdrawn
    (:meth:`withdrawals`): a store's habit of citing shows only once it cites (the 10 false supersessions of the
    cascade on development repository decentraland/adr, ``refs=keep``, were all made before its 150th of 177
    records, the first that cites).

    Args:
        learned: The judge checked against the rules (the learned judge, model v10).
        slot: The judge whose surest SUPERSEDE verdicts are the checks (the slot judge).
        fallback: The judge that answers where the learned judge does not (``None``: the slot judge's verdict).
        reference: The reference reader, the first stage (``None``: no such stage).
        record: The judge of record stores (``None``: no store is read as one).
        screen: A judge that reads each pair before the fallback (``None``: every pair goes to it).
        min_confidence: Confidence from which a learned verdict stands.
        min_agreement: Share of checks the learned judge must pass to keep answering.
        min_evidence: Checks needed before the share is read (until then the learned judge answers).
        evidence_confidence: Slot SUPERSEDE confidence from which a pair checks the learned judge.
        screen_min_probability: With a ``screen``, the probability of a relation other than COEXIST from which a
            pair goes to the fallback.
        record_min_chars: Length of summary and content from which a memory is a long-form record.
        record_share: Share of the observed memories that must be long-form records for a record store.
        recapture: The re-capture stage (``None``: none; pairs of kept-out records then get the default
            :meth:`~.base.JudgeBase.judge_capture`).
        edit: The edit stage (``None``: none).
        cited_only: On a record store whose records cite what they replace, COEXIST where the record judge would
            answer.
    """

    name: ClassVar[str] = "cascade"
    version: ClassVar[int] = 1
    observes: ClassVar[bool] = True

    def __init__(
        self,
        learned: JudgeBase,
        slot: SlotJudge,
        fallback: JudgeBase | None = None,
        reference: ReferenceJudge | None = None,
        record: JudgeBase | None = None,
        screen: JudgeBase | None = None,
        min_confidence: float = 0.0,
        min_agreement: float = 0.5,
        min_evidence: int = 1,
        evidence_confidence: float = 0.8,
        screen_min_probability: float = 0.01,
        record_min_chars: int = 200,
        record_share: float = 0.2,
        recapture: RecaptureJudge | None = None,
        edit: JudgeBase | None = None,
        cited_only: bool = True,
    ) -> None:
        self.learned = learned
        self.slot = slot
        self.fallback = fallback
        self.reference = reference
        self.record = record
        self.screen = screen
        self.min_confidence = min_confidence
        self.min_agreement = min_agreement
        self.min_evidence = min_evidence
        self.evidence_confidence = evidence_confidence
        self.screen_min_probability = screen_min_probability
        self.record_min_chars = record_min_chars
        self.record_share = record_share
        self.recapture = recapture
        self.edit = edit
        self.cited_only = cited_only
        self.cites_ = False
        #: Pairs the record judge related while the store did not cite (withdrawn once it does), and pairs the
        #: citing rule answered in a run resumed from one whose store did not cite (their edges are withdrawn).
        self.uncited_: list[tuple[str, str]] = []
        self.cited_: list[tuple[str, str]] = []
        self.cited_before_ = True
        self.record_store_ = False
        self.record_pending_: Sequence[Memory] | None = None
        self.unobserved_: Sequence[Memory] | None = None
        self.checks_ = 0
        self.passed_ = 0
        self.store_: frozenset[str] = frozenset()

    def stages(self) -> list[JudgeBase]:
        """The judges the cascade holds (those present)."""
        parts = (self.learned, self.slot, self.fallback, self.recapture, self.reference, self.edit, self.record,
                 self.screen)  # fmt: skip
        return [judge for judge in parts if judge is not None]

    def set_eval_seed(self, seed: int | None) -> None:
        """Name the evaluation seed to every stage (the learned judges check it against their training seeds)."""
        for judge in self.stages():
            judge.set_eval_seed(seed)

    def observe(self, memories: Sequence[Memory]) -> None:
        """Pass the store's memories to the stages that read it now (the fallback and screen read it when first
        asked; the record judge on the first pair of a record store); a new store resets the tally.
        """
        ids = frozenset(m.id for m in memories)
        if not self.store_ <= ids:
            self.checks_ = self.passed_ = 0
            self.uncited_, self.cited_ = [], []
        self.store_ = ids
        self.record_store_ = self.record is not None and is_record_store(
            memories, self.record_min_chars, self.record_share
        )
        if self.reference is not None:
            self.reference.observe(memories)
        reader = self.reference if self.record_store_ and self.cited_only else None
        self.cites_ = reader is not None and reader.cites(memories)
        if self.record_store_:  # the note judges never read this store (nor build slot profiles over it)
            self.record_pending_ = list(memories)
            return
        self.learned.observe(memories)
        self.slot.observe(memories)
        if self.edit is not None:
            self.edit.observe(memories)
        self.unobserved_ = list(memories) if self.fallback is not None else None

    @property
    def artifact_path(self) -> str | None:
        """The learned judge's model file (after the first judgement)."""
        return self.learned.artifact_path

    def tally(self) -> dict[str, int]:
        """The store-level checks so far, and whether the store cites (the next run resumes from that)."""
        return {"checks": self.checks_, "passed": self.passed_, "cites": int(self.cites_)}

    def resume(self, tally: dict[str, int]) -> None:
        """Go on from an earlier run's reading of whether the store cites (``cites`` 0: it did not, see
        :meth:`withdrawals`). The checks are not taken over: the cascade reads the store (``observes``), so an
        incremental run judges every candidate pair again and counts its checks anew.
        """
        self.cited_before_ = tally.get("cites") != 0

    def withdrawals(self) -> list[tuple[str, str]]:
        """Once the store cites (``cited_only``): the pairs the record judge related before it did. In one
        judge's life (a benchmark episode) those are the pairs it answered; in a run resumed from one whose store
        did not cite yet (the hook's incremental run, which judges every candidate pair again), the pairs the
        citing rule answers now.
        """
        if not self.cites_:
            return []
        out = self.uncited_ + (self.cited_ if not self.cited_before_ else [])
        self.uncited_, self.cited_ = [], []
        return out

    @property
    def trusted(self) -> bool:
        """Whether the learned judge answers on this store (too few checks yet, or enough of them passed)."""
        return self.checks_ < self.min_evidence or self.passed_ >= self.min_agreement * self.checks_

    def _read(self, older: Memory, newer: Memory) -> Verdict | None:
        """The reference reader's verdict where it has one."""
        read = self.reference.read(older, newer) if self.reference is not None else None
        return None if read is None else Verdict(read.relation, read.confidence, f"reference: {read.reason}")

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """The re-capture stage's verdict where it has one, else the reference reader's where it has one, else the
        edit stage's replacement where it finds one, else the learned verdict where the learned judge is trusted and
        sure, else the fallback's.
        """
        if self.recapture is not None and (read := self.recapture.read(older, newer)) is not None:
            return read
        if self.record_store_:
            return self._record(older, newer, similarity)
        verdict = self.learned.judge(older, newer, similarity)
        slot = self.slot.judge(older, newer, similarity)
        if slot.relation is Relation.SUPERSEDE and slot.confidence >= self.evidence_confidence:
            self.checks_ += 1
            self.passed_ += verdict.relation is Relation.SUPERSEDE
        read = self._read(older, newer)
        if read is not None:
            return read
        edited = self.edit.judge(older, newer, similarity) if self.edit is not None else None
        if edited is not None and edited.relation is not Relation.COEXIST:
            return Verdict(edited.relation, edited.confidence, f"edit: {edited.reason}")
        if not self.trusted:
            return self._fallback(older, newer, similarity, slot, "learned judge distrusted")
        if verdict.confidence >= self.min_confidence:
            return verdict
        return self._fallback(older, newer, similarity, slot, f"{verdict.reason} unsure")

    def judge_capture(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """The re-capture stage's verdict alone (no other stage reads a kept-out record); without the stage, the
        default (:meth:`~.base.JudgeBase.judge_capture`).
        """
        if self.recapture is None:
            return super().judge_capture(older, newer, similarity)
        return self.recapture.judge(older, newer, similarity)

    def _record(self, older: Memory, newer: Memory, similarity: float | None) -> Verdict:
        """On a record store: the reference reader's verdict where it has one; for an older record in a namespace
        whose notes accumulate rather than replace each other (outside the slot judge's ``implicit_namespaces``:
        progress, learnings, blockers), a SUPERSEDE of the slot judge's (a blocker ends with its resolution,
        recorded in any namespace), else COEXIST (its other rules read short notes, not long records); else
        COEXIST on a store whose records cite what they replace (``cited_only``); else the record judge's.
        """
        read = self._read(older, newer)
        if read is not None:
            return read
        if older.namespace not in self.slot.implicit_namespaces:  # notes that accumulate, blockers
            verdict = self.slot.judge(older, newer, similarity)
            if verdict.relation is Relation.SUPERSEDE:
                return Verdict(
                    verdict.relation, verdict.confidence, f"record store, {older.namespace}: {verdict.reason}"
                )
            return Verdict(Relation.COEXIST, 0.6, f"record store: {older.namespace} notes accumulate")
        if self.cites_:
            self.cited_.append((older.id, newer.id))
            return Verdict(Relation.COEXIST, 0.5, "record store whose records cite what they replace: none cited")
        assert self.record is not None  # a record store needs one (observe)
        if self.record_pending_ is not None:  # embedded on the first pair a record store asks about
            self.record.observe(self.record_pending_)
            self.record_pending_ = None
        verdict = self.record.judge(older, newer, similarity)
        if verdict.relation is not Relation.COEXIST and self.cited_only:
            self.uncited_.append((older.id, newer.id))
        return Verdict(verdict.relation, verdict.confidence, f"record store: {verdict.reason}")

    def _fallback(self, older: Memory, newer: Memory, similarity: float | None, slot: Verdict, why: str) -> Verdict:
        """The fallback's verdict (the slot judge's is ``slot``, already made for the check)."""
        if self.fallback is None:
            return Verdict(slot.relation, slot.confidence, f"slot ({why}): {slot.reason}")
        if self.unobserved_ is not None:
            for judge in (self.fallback, self.screen):
                if judge is not None:
                    judge.observe(self.unobserved_)
            self.unobserved_ = None
        if self.screen is not None:
            screened = self.screen.judge(older, newer, similarity)
            other = 1.0 - screened.confidence if screened.relation is Relation.COEXIST else 1.0
            if other < self.screen_min_probability:
                reason = f"fallback screen ({why}): p(not COEXIST)={other:.3f}, {self.fallback.name} not asked"
                return Verdict(Relation.COEXIST, 1.0 - other, reason)
        verdict = self.fallback.judge(older, newer, similarity)
        return Verdict(verdict.relation, verdict.confidence, f"fallback {self.fallback.name} ({why}): {verdict.reason}")
