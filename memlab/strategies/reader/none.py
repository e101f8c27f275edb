"""``reader=none``: no reader; a benchmark scores only its own built-in answerer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

from memlab.core.types import Answer, Memory
from memlab.strategies.reader.base import ReaderBase


class NoReader(ReaderBase):
    """The ablation: answers nothing (``reads = False``).

    The history benchmarks then report only their built-in answerer's metrics (``current_truth_at_1``,
    ``as_of_acc``, ``when_acc``, which score the unit retrieval put first against the gold evidence) and no
    ``reader_*`` metric: with no reader, reader accuracy is undefined, not 0.
    """

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1
    reads: ClassVar[bool] = False

    def answer(self, question: str, context: Sequence[Memory], now: datetime) -> Answer:
        """The empty answer."""
        return Answer("", (), 0.0)
