"""``reader=extractive``: reads the answer out of the context's text, no language model."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

from memlab.core.types import Answer, Memory
from memlab.strategies.reader.base import ReaderBase
from memlab.strategies.reader.statements import overlap, question_tokens, statements, value_of
from memlab.text.change_reading import read_changes
from memlab.text.modality import prospective, retrospective
from memlab.text.temporal.written import written_day

#: Questions that ask for a day: "When ...", "Since when ...", "(On|Since|From) what/which day/date ...", "What/Which
#: day/date ...".
WHEN_QUESTION = re.compile(
    r"^\s*(since\s+when|when|((on|since|from)\s+)?(what|which)\s+(day|date))\b",
    re.I,
)


class ExtractiveReader(ReaderBase):
    """Finds the answer unit in the context and reads the answer from its text; every unit is read alike.

    The answer unit is the context unit whose text shares most words with the question (words compared without a
    plural's ``-s``); of those, the newest by recorded time (when units disagree, the more recent one wins), then the
    first in retrieval order. When no unit shares a word with the question, the reader gives no answer. A memory, a
    cluster summary, a narrative or a running document is read the same way: as statements
    (:mod:`~memlab.strategies.reader.statements`).

    * A question asking for a day (``When did ...``, ``Since when ...``) is answered from the unit that records the
      event: among the units sharing a word with the question and neither looking ahead (a plan) nor back (a
      recap; :mod:`memlab.text.modality`), the first that states a change whose new value the question names, else
      the first of them; else the first unit sharing a word. Within that unit, the statement about the event (the
      same preference, then most words shared, then the first) gives the day when it writes one out
      (:func:`~memlab.text.temporal.written.written_day`: ``[2025-03-04] ...``, ``on 4 March 2025``): a document, a
      narrative or a summary dates its lines in the text, while the unit's recorded day is only the day it was
      written. Otherwise the answer is the unit's recorded day.
    * Any other question is answered with the value the unit asserts: of its statements that assert one, the one
      sharing most words with the question; ties go to the later statement (a summary lists its sources oldest
      first, a running document appends).

    Args:
        max_units: Units of the context read, in retrieval order (0: all).
    """

    name: ClassVar[str] = "extractive"
    version: ClassVar[int] = 2

    def __init__(self, max_units: int = 0) -> None:
        self.max_units = max_units

    def _units(self, context: Sequence[Memory]) -> list[Memory]:
        units = list(context)
        return units[: self.max_units] if self.max_units > 0 else units

    def answer(self, question: str, context: Sequence[Memory], now: datetime) -> Answer:
        """The answer read from the answer unit (rules in the class docstring)."""
        units = self._units(context)
        asked = question_tokens(question)
        if not units or not asked:
            return Answer("", (), 0.0)
        related = [u for u in units if overlap(u.text, asked)]
        if not related:  # nothing in the context is about the question: no answer
            return Answer("", (), 0.0)
        if WHEN_QUESTION.match(question):
            return self._when(related, asked)
        unit = self._unit(related, asked)
        best: tuple[int, int, str] | None = None
        for i, statement in enumerate(statements(unit.text)):
            value = value_of(statement, asked)
            if value:
                key = (overlap(statement, asked), i, value)
                best = key if best is None or key[:2] > best[:2] else best
        if best is None:
            return Answer("", (), 0.0)
        confidence = min(1.0, overlap(unit.text, asked) / len(asked))
        return Answer(best[2], (unit.id,), confidence)

    @staticmethod
    def _unit(units: list[Memory], asked: frozenset[str]) -> Memory:
        best = max(overlap(u.text, asked) for u in units)
        top = [u for u in units if overlap(u.text, asked) == best]
        newest = max(u.timestamp for u in top)
        return next(u for u in top if u.timestamp == newest)

    @staticmethod
    def _when(units: list[Memory], asked: frozenset[str]) -> Answer:
        def changes_to_asked(unit: Memory) -> bool:
            return any(c.new & asked for s in statements(unit.text) if not prospective(s) for c in read_changes(s))

        plain = [u for u in units if not prospective(u.text) and not retrospective(u.text)]
        changed = [u for u in plain if changes_to_asked(u)]
        unit = (changed or plain or units)[0]
        confidence = min(1.0, overlap(unit.text, asked) / len(asked))
        said = [s for s in statements(unit.text) if overlap(s, asked)]
        if said:
            statement = max(
                said,
                key=lambda s: (
                    not prospective(s) and any(c.new & asked for c in read_changes(s)),
                    not prospective(s) and not retrospective(s),
                    overlap(s, asked),
                    -said.index(s),
                ),
            )
            day = written_day(statement, unit.timestamp)
            if day is not None:
                return Answer(day.isoformat(), (unit.id,), confidence)
        return Answer(unit.timestamp.date().isoformat(), (unit.id,), confidence)
