"""Base class of every supersession judge: the optional methods of the protocol, with their defaults."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.types import Memory, Verdict


class JudgeBase(ABC):
    """What every judge has (:class:`~memlab.protocols.SupersessionJudge`): ``judge`` is the one method a judge
    must define; the others default to what a judge without the capability does, so that callers never ask
    whether a judge has them.
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
        """Read the store about to be judged (every memory the run sees, before any pair); default: nothing."""

    def judge_many(self, pairs: Sequence[tuple[Memory, Memory, float | None]]) -> list[Verdict]:
        """Judge ``(older, newer, similarity)`` pairs at once; default: :meth:`judge` of each pair, in order."""
        return [self.judge(older, newer, similarity=similarity) for older, newer, similarity in pairs]

    def tally(self) -> dict[str, int] | None:
        """What the judge counted over the pairs it judged, when its verdicts depend on it; default: nothing."""
        return None

    def resume(self, tally: dict[str, int]) -> None:  # noqa: B027 - optional hook, empty by default
        """Go on from an earlier run's :meth:`tally` (an incremental run, which judges only the new memories' pairs,
        then gives them the verdicts the full run would); default: nothing.
        """

    def set_eval_seed(self, seed: int | None) -> None:  # noqa: B027 - optional hook, empty by default
        """Name the seed of the data about to be judged (a judge trained on seeds checks it); default: nothing."""
