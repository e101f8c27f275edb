"""The reader kind: :class:`ReaderBase` is its one definition."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.core.types import Answer, Memory


class ReaderBase(ABC):
    """Answers a benchmark's question from the context a policy produced, the same reader for every policy.

    Contract: :meth:`answer` reads only ``context`` (the selected units in retrieval order: memories, cluster
    summaries, session narratives, a running document, insights alike, each a :class:`~memlab.core.types.Memory`
    with its text and recorded time) and ``now`` (when the question is asked); it returns an
    :class:`~memlab.core.types.Answer` whose ``unit_ids`` are ids of context units, whose ``confidence`` is in [0, 1],
    and whose text is ``""`` with confidence 0 when the context holds no answer (an empty context included);
    deterministic for the same inputs; odd text never raises. ``reads`` is ``False`` only for ``reader=none``,
    which reads nothing: a benchmark then scores only its own built-in answerer and logs no reader metric.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: Whether the reader answers at all (``reader=none``: no).
    reads: ClassVar[bool] = True
    #: The model file the reader reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def answer(self, question: str, context: Sequence[Memory], now: datetime) -> Answer:
        """Answer ``question`` from ``context`` as of ``now``."""
