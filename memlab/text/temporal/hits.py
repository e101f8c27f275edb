"""The intermediate result of one rule match, before combination and selection."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from memlab.text.temporal.tense import Cues, Lean, cues, lean_at


class Ctx:
    """What every rule handler gets besides its match.

    Attributes:
        anchor: The memory's own time.
        prefer: ``past``, ``future`` or ``nearest``: how an underspecified weekday, month or day is read when
            no cue in the text gives a direction (see :mod:`memlab.text.temporal.tense`).
        text: The whole input text.
    """

    __slots__ = ("_cues", "anchor", "prefer", "text")

    def __init__(self, anchor: datetime, prefer: str, text: str) -> None:
        self.anchor = anchor
        self.text = text
        self.prefer = prefer
        self._cues: Cues | None = None

    def lean(self, span: tuple[int, int]) -> Lean:
        """The direction governing the expression at ``span`` (cues are found once per text, on first use)."""
        if self._cues is None:
            self._cues = cues(self.text)
        return lean_at(self.text, self._cues, span, self.prefer)


@dataclass(frozen=True)
class Hit:
    """A resolved (or partly resolved) expression.

    Attributes:
        span: Character offsets in the text.
        start: Interval start.
        end: Interval end (exclusive).
        grain: Grain name.
        conf: Confidence.
        kind: ``point``, ``duration`` or ``open``.
        role: ``date`` (a full interval), ``tod`` (a time of day on the anchor's day, movable to another day),
            ``rel`` (``the day before`` ... waiting for its reference), ``dom`` (``the 5th`` in the anchor's
            month, movable to another month), ``wday`` (a weekday name; yields to an explicit date beside it),
            ``part`` (``end of`` ... waiting for a period).
        needs_merge: Dropped unless combined with a neighbour (for words too ambiguous alone).
        data: Role-specific payload (tod: (hour, minute, second) or None; rel: (n, grain); dom: day;
            part: name).
    """

    span: tuple[int, int]
    start: datetime
    end: datetime
    grain: str
    conf: float = 1.0
    kind: str = "point"
    role: str = "date"
    needs_merge: bool = False
    data: object = None

    def with_span(self, span: tuple[int, int], **changes: object) -> Hit:
        """A copy covering ``span`` with ``changes`` applied."""
        return replace(self, span=span, **changes)


Handler = Callable[[re.Match[str], Ctx], Hit | None]
#: A rule: its pattern (matched on the lowercased text), its handler and optionally a *gate*, a cheap necessary
#: condition for the handler to give a hit: a regex found in the text, or a frozenset of words one of which
#: occurs (letters-only words as whole words). The resolver skips the pattern when the gate fails; tests check
#: the results are the same without gates.
Rule = (
    tuple[re.Pattern[str], Handler]
    | tuple[re.Pattern[str], Handler, re.Pattern[str]]
    | tuple[re.Pattern[str], Handler, frozenset[str]]
)
