"""The judge kind: :class:`JudgeBase` is its one definition."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.core.types import Memory, Verdict


class JudgeBase(ABC):
    """Decides how a newer memory relates to an older one.

    Contract: :meth:`judge` returns a :class:`~memlab.core.types.Verdict` whose relation is one of DUPLICATE,
    SUPERSEDE, MERGE, COEXIST and whose confidence is in [0, 1]; malformed model output or any internal failure
    gives COEXIST, never an exception; ``similarity`` (cosine of the two embeddings, when the pipeline has it)
    is a hint, not a requirement. :meth:`judge` is the one method a judge must define; every other method has
    the default of a judge without that capability, so that callers never ask whether a judge has it.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the judge reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None
    #: ``True`` when :meth:`observe` reads the store (callers skip building its argument otherwise).
    observes: ClassVar[bool] = False
    #: ``True`` when :meth:`judge_many` judges the pairs as one batch (callers show per-pair progress otherwise).
    judges_in_batch: ClassVar[bool] = False
    #: ``False`` for a judge that never answers SUPERSEDE (the block's header then claims no supersession check).
    supersedes: ClassVar[bool] = True

    @abstractmethod
    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Judge ``newer`` against ``older`` (``older.timestamp <= newer.timestamp``)."""

    def observe(self, memories: Sequence[Memory]) -> None:  # noqa: B027 - optional hook, empty by default
        """Read the store about to be judged: every memory the consolidation run sees (none recorded after its
        clock), before any pair; a judge that learns from the store (the learned judge's slot profiles) overrides
        it. Default: nothing.
        """

    def judge_many(self, pairs: Sequence[tuple[Memory, Memory, float | None]]) -> list[Verdict]:
        """Judge ``(older, newer, similarity)`` pairs at once (a batch judge's classifier runs once); it must equal
        :meth:`judge` of each pair, in order, which is the default.
        """
        return [self.judge(older, newer, similarity=similarity) for older, newer, similarity in pairs]

    def tally(self) -> dict[str, int] | None:
        """What the judge counted over the pairs it judged, when its verdicts depend on it; default: nothing."""
        return None

    def resume(self, tally: dict[str, int]) -> None:  # noqa: B027 - optional hook, empty by default
        """Go on from an earlier run's :meth:`tally` in an incremental run (the hook's: it judges only the new
        memories' pairs, or every candidate pair again for a judge that ``observes``); default: nothing.
        """

    def judge_capture(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Judge a pair one of whose records the admission step keeps out of the block (a captured excerpt, a
        fixture): such a record states nothing a memory could be replaced or refined by, so only a re-capture
        (DUPLICATE) relates it. Default: :meth:`judge`'s verdict when it is DUPLICATE, COEXIST otherwise.
        """
        from memlab.core.types import Relation, Verdict

        verdict = self.judge(older, newer, similarity=similarity)
        if verdict.relation is Relation.DUPLICATE:
            return verdict
        return Verdict(Relation.COEXIST, verdict.confidence, f"kept out of the block; {verdict.reason}")

    def withdrawals(self) -> list[tuple[str, str]]:
        """Pairs ``(older id, newer id)`` whose relation, given in an earlier session, the judge now withdraws: it
        reads the store otherwise than when it answered (the batch supersession phase removes their edges once the
        run's pairs are judged, :func:`memlab.pipeline.verdicts.withdraw_verdict`; online mode, whose audit log
        replays each operation, does not ask). Each pair is returned once. Default: none (a verdict stands once
        given).
        """
        return []

    def set_eval_seed(self, seed: int | None) -> None:  # noqa: B027 - optional hook, empty by default
        """Name the seed of the data about to be judged (a judge trained on seeds checks it); default: nothing."""

    def merge_text(self, older: Memory, newer: Memory) -> str | None:
        """The text of the memory a MERGE of the two makes (online mode; a language model's merge prompt);
        default: ``None``, the two summaries joined stand in.
        """
        return None
