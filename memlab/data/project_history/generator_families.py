"""Phrasing families of the project-history generator (the ``style`` knob).

A *family* is one way of writing project notes: its own templates for every event kind, its own attribute
names and synonyms per topic, its own way of naming subjects and scopes, its own noise, distractors and
question wording. Families share no template and no synonym list; they share only the facts (topics,
values, reasons, details, scoped values: :mod:`generator_topics`), so one seed tells the same kind of story
in each. A judge trained on some families and scored on the others measures how far it reads the
*relations* rather than the wording (``experiments/judges/README.md``, "Phrasing families").

Families: ``classic`` (the original templates, :mod:`generator_templates`; the default, byte-identical to
the generator before families existed), ``terse`` (changelog and commit-message notes), ``narrative``
(first-person prose), ``ticket`` (tracker and decision-record entries), ``chat`` (team chat messages),
``wiki`` (handbook and status-page entries).
``style`` names one family or several joined by ``+`` (``classic+terse+narrative``); with several, each topic
instance and each noise note draws its family.
"""

from __future__ import annotations

import random

from memlab.core.errors import MemlabError
from memlab.data.project_history.family import (
    CLASSIC,
    QUERY_KINDS,
    Family,
    Pool,
    Template,
    component_name,
    scope_thing,
)
from memlab.data.project_history.family_chat import CHAT
from memlab.data.project_history.family_narrative import NARRATIVE
from memlab.data.project_history.family_terse import TERSE
from memlab.data.project_history.family_ticket import TICKET
from memlab.data.project_history.family_wiki import WIKI

__all__ = ["CLASSIC", "QUERY_KINDS", "Family", "FamilyDraw", "Pool", "Template", "component_name", "families"]
__all__ += ["parse_style", "scope_thing"]


def families() -> dict[str, Family]:
    """Every family by name."""
    return {f.name: f for f in (CLASSIC, TERSE, NARRATIVE, TICKET, CHAT, WIKI)}


def parse_style(style: str) -> tuple[Family, ...]:
    """``classic`` or ``terse+chat`` -> the families (in the order named, without repeats).

    Raises:
        MemlabError: An unknown family name.
    """
    known = families()
    names = [s.strip() for s in str(style).split("+") if s.strip()]
    if not names:
        raise MemlabError(f"empty style {style!r}; use one of {', '.join(known)} or several joined by '+'")
    out: list[Family] = []
    for name in names:
        if name not in known:
            raise MemlabError(f"unknown style family {name!r}; valid: {', '.join(known)} (join several with '+')")
        if known[name] not in out:
            out.append(known[name])
    return tuple(out)


class FamilyDraw:
    """Which family writes each instance and noise note: the only family, or a draw from a separate stream
    (so a one-family style consumes the generator's random stream exactly as before families existed).
    """

    def __init__(self, fams: tuple[Family, ...], key: str) -> None:
        self.families = fams
        self.rng = random.Random(f"style|{key}") if len(fams) > 1 else None

    def draw(self) -> Family:
        """The next family."""
        if self.rng is None:
            return self.families[0]
        return self.rng.choice(self.families)
