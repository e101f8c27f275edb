"""Cascade judge: the learned judge on stores and pairs where it is reliable, a fallback judge elsewhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from memlab.errors import MemlabError
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.dspy_judge import DSPyJudge
from memlab.strategies.judge.learned import DEFAULT_MODEL, LearnedJudge
from memlab.strategies.judge.record import RecordJudge
from memlab.strategies.judge.record_store import is_record_store
from memlab.strategies.judge.reference import ReferenceJudge
from memlab.strategies.judge.slot import SlotJudge
from memlab.types import Memory, Relation, Verdict

#: The shipped cross-family model, the ``learned`` fallback's default (``memlab train judge``; its card says how).
FALLBACK_MODEL: Path = DEFAULT_MODEL.with_name("learned_v11.json")
FALLBACKS = ("slot", "learned", "dspy")


class CascadeJudge(JudgeBase):
    """The learned judge (:class:`~.learned.LearnedJudge`) where it is reliable, a fallback judge otherwise
    (``fallback``: the slot judge, :class:`~.slot.SlotJudge`, or a second learned judge), decided at two levels.

    Store level: a model trained on generated histories can be certain and wrong on wording unlike its
    training data (on hand-written histories model v8, v10's predecessor, gave COEXIST with probability 1.00 to
    every pair, changes included), so its own probabilities cannot say where it fails. The rules' surest verdicts can:
    every pair the slot judge calls SUPERSEDE with confidence at least ``evidence_confidence`` (an explicit
    change naming the replaced value, a resolved blocker) is a check of the learned judge, passed when it
    answers SUPERSEDE too (a tentative SUPERSEDE counts). Once ``min_evidence`` checks are in, the learned
    judge answers only while the share it passed is at least ``min_agreement``; otherwise the fallback
    answers every pair. The tally covers the pairs judged since the store was first observed and starts
    again when ``observe`` is given a store that does not contain the previous one (another episode).

    Pair level: where the learned judge answers, a verdict whose confidence is below ``min_confidence`` is
    replaced by the fallback's (0 keeps every learned verdict).

    Fallback: ``slot`` answers with the rules. ``dspy`` answers with a language model (the DSPy judge ``dspy``,
    :class:`~.dspy_judge.DSPyJudge`, whose ``llm`` is the ``llm`` group): the judge for wording no rule or model
    was written or trained for, asked only about the pairs of distrusted stores or unsure
    learned verdicts, so that a store the specialist reads well costs no LLM call. On a distrusted store that is
    every candidate pair (about 10,000 of a 400-memory history at ``knn_k`` 20); with ``llm_min_probability``
    the fallback model (below) reads each pair first and a pair it gives every relation but COEXIST less than
    that probability in total keeps its COEXIST without a call. ``learned`` answers with a
    second model, ``fallback_model_path`` (``None``: the shipped cross-family model v11, trained on the
    generator's classic, terse and narrative phrasing families with hard negatives), checked against its card
    and, when given, ``fallback_model_sha256`` (the conf pins the shipped file's). Why two models: the
    specialist (model v10, one phrasing family) is the better judge on the wording it was trained on, and the
    check tells when a store is written that way; the generalist loses a little there (generated validation
    seed 1020: 0.883 instead of 0.916) and gains where the specialist and the rules fail (see "Judges across
    phrasing families" in experiments/project_history/README.md). The slot judge still supplies the checks.

    References (``references``, first stage): a pair on which the reference reader
    (:class:`~.reference.ReferenceJudge`, ``reference``) has a verdict — the newer memory
    names the older one as what it supersedes or amends — gets that verdict; every other pair goes on as
    above (the store-level checks count every pair either way).

    The learned parameters are those of :class:`~.learned.LearnedJudge` (the same model file, SHA-256 pin,
    seed rule and tentative-SUPERSEDE threshold; the fallback model shares all but the file and pin). The other
    stages are judges built from the config's nested ``_target_`` nodes (``slot``, ``reference``, ``record``,
    ``dspy``); one left ``None`` is the class's default where the cascade needs it.

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
        slot: The slot judge (``None``: :class:`~.slot.SlotJudge` with its defaults).
        fallback: ``slot``, ``learned`` or ``dspy`` (which judge answers where the learned judge does not).
        fallback_model_path: With ``fallback: learned``, the model file (``None``: the shipped model v11).
        fallback_model_sha256: With ``fallback: learned``, the model file's SHA-256 the caller expects.
        dspy: With ``fallback: dspy``, the DSPy judge (its ``llm`` names the language model).
        llm_min_probability: With ``fallback: dspy``, the fallback model's probability of a relation other than
            COEXIST from which a pair goes to the language model (``None``: every pair goes).
        references: Answer a pair with the reference reader's verdict where it has one (first stage).
        reference: The reference reader (``None``: :class:`~.reference.ReferenceJudge` with its defaults).
        records: On a store of long-form records, answer with the record judge instead of the note judges.
        record_min_chars: Length of summary and content from which a memory is a long-form record.
        record_share: Share of the observed memories that must be long-form records for a record store.
        record: The record judge (``None``: :class:`~.record.RecordJudge` with its defaults).
    """

    name: ClassVar[str] = "cascade"
    version: ClassVar[int] = 1
    observes: ClassVar[bool] = True

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
        slot: SlotJudge | None = None,
        fallback: str = "slot",
        fallback_model_path: str | None = None,
        fallback_model_sha256: str | None = None,
        dspy: DSPyJudge | None = None,
        llm_min_probability: float | None = None,
        references: bool = False,
        reference: ReferenceJudge | None = None,
        records: bool = False,
        record_min_chars: int = 200,
        record_share: float = 0.2,
        record: RecordJudge | None = None,
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
        self.fallback = fallback
        self.fallback_model_path = fallback_model_path
        self.fallback_model_sha256 = fallback_model_sha256
        self.dspy = dspy
        self.llm_min_probability = llm_min_probability
        self.references = references
        self.reference = reference
        self.records = records
        self.record_min_chars = record_min_chars
        self.record_share = record_share
        self.record = record
        if any(isinstance(part, Mapping) for part in (slot, dspy, reference, record)):  # an old spec
            raise TypeError("its slot, dspy, reference and record must be nodes with a _target_")
        self.record_judge_: RecordJudge | None = None
        self.record_store_ = False
        self.record_pending_: Sequence[Memory] | None = None
        self.reader_: ReferenceJudge | None = None
        self.fallback_: JudgeBase | None = None
        self.filter_: LearnedJudge | None = None
        self.unobserved_: Sequence[Memory] | None = None
        self.learned_: LearnedJudge | None = None
        self.slot_: SlotJudge | None = None
        self.checks_ = 0
        self.passed_ = 0
        self.store_: frozenset[str] = frozenset()

    def _parts(self) -> tuple[LearnedJudge, SlotJudge]:
        if self.learned_ is None:
            self.learned_ = self._learned(self.model_path, self.model_sha256)
        if self.slot_ is None:
            self.slot_ = self.slot if self.slot is not None else SlotJudge()
        if self.reader_ is None and self.references:
            self.reader_ = self.reference if self.reference is not None else ReferenceJudge()
        if self.fallback_ is None and self.fallback != "slot":
            if self.fallback not in FALLBACKS:
                raise MemlabError(f"judge.fallback must be one of {', '.join(FALLBACKS)}, not {self.fallback!r}")
            if self.fallback == "dspy":
                if self.dspy is None or not self.dspy.llm.get("model"):
                    raise MemlabError(
                        "judge.fallback=dspy needs a language model; pick one with llm=<option> "
                        "(see `memlab list llm`) or set llm.model"
                    )
                self.fallback_ = self.dspy
                if self.llm_min_probability is not None:
                    self.filter_ = self._fallback_model()
                return self.learned_, self.slot_
            self.fallback_ = self._fallback_model()
        return self.learned_, self.slot_

    def _learned(self, model_path: str | None, model_sha256: str | None) -> LearnedJudge:
        """A learned judge on ``model_path`` with the cascade's seed rule and tentative-SUPERSEDE threshold."""
        return LearnedJudge(
            model_path=model_path,
            model_sha256=model_sha256,
            eval_seed=self.eval_seed,
            on_seed_overlap=self.on_seed_overlap,
            supersede_threshold=self.supersede_threshold,
        )

    def _fallback_model(self) -> LearnedJudge:
        return self._learned(self.fallback_model_path or str(FALLBACK_MODEL), self.fallback_model_sha256)

    def set_eval_seed(self, seed: int | None) -> None:
        """Name the evaluation seed to the learned judges (those built and those to come)."""
        self.eval_seed = seed
        for judge in (self.learned_, self.fallback_, self.filter_):
            if judge is not None:
                judge.set_eval_seed(seed)

    def observe(self, memories: Sequence[Memory]) -> None:
        """Pass the store's memories to both judges (slot profiles, common words); a new store resets the tally.

        A fallback model sees them when it is first asked after this call: on a store where the learned judge
        stays trusted its slot profiles are never built.
        """
        ids = frozenset(m.id for m in memories)
        if not self.store_ <= ids:
            self.checks_ = self.passed_ = 0
        self.store_ = ids
        self.record_store_ = self.records and is_record_store(memories, self.record_min_chars, self.record_share)
        if self.record_store_:  # the note judges never read this store (nor build slot profiles over it)
            if self.references:
                self._parts()
                if self.reader_ is not None:
                    self.reader_.observe(memories)
            self.record_pending_ = list(memories)
            return
        learned, slot = self._parts()
        learned.observe(memories)
        slot.observe(memories)
        if self.reader_ is not None:
            self.reader_.observe(memories)
        self.unobserved_ = list(memories) if self.fallback_ is not None else None

    def load(self) -> tuple[Any, dict[str, Any]]:
        """The learned judge's model and card (:meth:`~.learned.LearnedJudge.load`); loads the fallback's too, so
        that a missing or altered fallback model fails here rather than at the first distrusted store.
        """
        learned = self._parts()[0]
        for model in (self.fallback_, self.filter_):
            if isinstance(model, LearnedJudge):
                model.load()
        return learned.load()

    @property
    def artifact_path(self) -> str | None:
        """The learned judge's model file (after the first judgement)."""
        return self.learned_.artifact_path if self.learned_ is not None else None

    def tally(self) -> dict[str, int]:
        """The store-level checks so far (an incremental run resumes from them)."""
        return {"checks": self.checks_, "passed": self.passed_}

    def resume(self, tally: dict[str, int]) -> None:
        """Go on from an earlier run's checks (ignored unless they are two counts, passed ones at most all)."""
        checks, passed = tally.get("checks"), tally.get("passed")
        if type(checks) is int and type(passed) is int and 0 <= passed <= checks:
            self.checks_, self.passed_ = checks, passed

    @property
    def trusted(self) -> bool:
        """Whether the learned judge answers on this store (too few checks yet, or enough of them passed)."""
        return self.checks_ < self.min_evidence or self.passed_ >= self.min_agreement * self.checks_

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """The reference reader's verdict where it has one, else the learned verdict where the learned judge is
        trusted and sure, else the fallback's.
        """
        if self.record_store_:
            return self._record(older, newer, similarity)
        learned, slot = self._parts()
        verdict = learned.judge(older, newer, similarity)
        fallback = slot.judge(older, newer, similarity)
        if fallback.relation is Relation.SUPERSEDE and fallback.confidence >= self.evidence_confidence:
            self.checks_ += 1
            self.passed_ += verdict.relation is Relation.SUPERSEDE
        read = self.reader_.read(older, newer) if self.reader_ is not None else None
        if read is not None:
            return Verdict(read.relation, read.confidence, f"reference: {read.reason}")
        if not self.trusted:
            return self._fallback(older, newer, similarity, fallback, "learned judge distrusted")
        if verdict.confidence >= self.min_confidence:
            return verdict
        return self._fallback(older, newer, similarity, fallback, f"{verdict.reason} unsure")

    def _record(self, older: Memory, newer: Memory, similarity: float | None) -> Verdict:
        """On a record store: the reference reader's verdict where it has one, else the record judge's."""
        self._parts()
        read = self.reader_.read(older, newer) if self.reader_ is not None else None
        if read is not None:
            return Verdict(read.relation, read.confidence, f"reference: {read.reason}")
        if self.record_judge_ is None:
            self.record_judge_ = self.record if self.record is not None else RecordJudge()
        if self.record_pending_ is not None:  # embedded on the first pair a record store asks about
            self.record_judge_.observe(self.record_pending_)
            self.record_pending_ = None
        verdict = self.record_judge_.judge(older, newer, similarity)
        return Verdict(verdict.relation, verdict.confidence, f"record store: {verdict.reason}")

    def _fallback(self, older: Memory, newer: Memory, similarity: float | None, slot: Verdict, why: str) -> Verdict:
        """The fallback's verdict (the slot judge's is ``slot``, already made for the check)."""
        if self.fallback_ is None:
            return Verdict(slot.relation, slot.confidence, f"slot ({why}): {slot.reason}")
        if self.unobserved_ is not None:
            for judge in (self.fallback_, self.filter_):
                if judge is not None:
                    judge.observe(self.unobserved_)
            self.unobserved_ = None
        if self.filter_ is not None:
            try:
                other = 1.0 - self.filter_.probabilities(older, newer, similarity).get(Relation.COEXIST.value, 0.0)
            except MemlabError:
                raise
            except Exception:  # features that fail on this pair: let the language model read it
                other = 1.0
            if other < float(self.llm_min_probability or 0.0):
                reason = f"fallback model ({why}): p(not COEXIST)={other:.3f}, no LLM call"
                return Verdict(Relation.COEXIST, 1.0 - other, reason)
        verdict = self.fallback_.judge(older, newer, similarity)
        kind = "fallback LLM" if self.fallback == "dspy" else "fallback model"
        return Verdict(verdict.relation, verdict.confidence, f"{kind} ({why}): {verdict.reason}")
