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
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from memlab.data.project_history import generator_queries as q
from memlab.data.project_history import generator_templates as tpl
from memlab.data.project_history.generator_topics import SUBJECT_NAMES, SUBJECT_QUALIFIERS, subject_name
from memlab.errors import MemlabError

Template = tuple[str, str]
#: (plain templates, subtle templates); harder difficulties draw subtle ones more often.
Pool = tuple[tuple[Template, ...], tuple[Template, ...]]
#: Query kinds a family words: ``current``, ``as_of``, ``when``, ``revert``, ``blocker``, ``history``.
QUERY_KINDS: tuple[str, ...] = ("current", "as_of", "when", "revert", "blocker", "history")


@dataclass(frozen=True)
class Family:
    """One phrasing family (see the module docstring).

    Template placeholders: ``{subj}``/``{Subj}`` (the subject), ``{at}`` (a subject prefix, empty for the
    project itself), ``{of}`` (a subject suffix, empty for the project), ``{attr}``/``{Attr}``, ``{v}``,
    ``{old}``, ``{new}``/``{New}``, ``{reason}``/``{Reason}``, ``{detail}``, ``{scope}``/``{Scope}``, ``{main}``,
    ``{when}``, ``{lib}``, ``{mod}``; noise also ``{n}``, ``{m}``; questions ``{date}``.

    Attributes:
        name: The family's public name.
        decide, change, revert, restate, detail, scoped: Template pools per event kind.
        blocker_raise, blocker_resolve: Blocker templates.
        plan: A change considered, not made (hard negative: relates to nothing).
        passing: A note about something else that names the instance's value in passing (relates to nothing).
        recap: A later note retelling the last change (DUPLICATE of the live memories, not a new change).
        noise: ``(namespace, summary, content)`` unrelated notes.
        distractor: ``(namespace, summary, content)`` notes that name topic values without changing anything.
        queries: Question templates per :data:`QUERY_KINDS`.
        attributes: Topic key -> attribute names (the first is the canonical one, the others synonyms);
            empty: the topics' own (``classic``).
        scope: How a scope is said, ``{thing}`` the scoped thing ("tests", "the docs site"); empty: the topics'
            own phrases.
        subject: Subject index -> the forms ``subj``, ``at``, ``of``.
        incident: Appended to a change whose note cites a relative date (``{when}``).
        twin: Appended to a note whose text would repeat an earlier one word for word (``{month}``, ``{day}``).
        lower_values: Probability that a value is written in lower case.
    """

    name: str
    decide: Pool
    change: Pool
    revert: Pool
    restate: Pool
    detail: Pool
    scoped: Pool
    blocker_raise: tuple[Template, ...]
    blocker_resolve: tuple[Template, ...]
    plan: tuple[Template, ...]
    passing: tuple[Template, ...]
    recap: tuple[Template, ...]
    noise: tuple[tuple[str, str, str], ...]
    distractor: tuple[tuple[str, str, str], ...]
    queries: Mapping[str, tuple[str, ...]]
    subject: Callable[[int], dict[str, str]]
    attributes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    scope: str = ""
    incident: str = " Prompted by {when}'s incident review."
    twin: str = " (Noted on {month} {day}.)"
    lower_values: float = 0.0

    def attribute_names(self, topic: object) -> tuple[str, tuple[str, ...]]:
        """``(canonical name, synonyms)`` of a topic's attribute in this family."""
        names = self.attributes.get(topic.key)  # type: ignore[attr-defined]
        if not names:
            return topic.attr, tuple(topic.synonyms)  # type: ignore[attr-defined]
        return names[0], tuple(names[1:])

    def say_scope(self, phrase: str) -> str:
        """A topic's scope phrase ("for the docs site") as this family says it."""
        if not self.scope:
            return phrase
        return self.scope.format(thing=scope_thing(phrase))


_SCOPE_PREFIX = re.compile(r"^(?:in|for|during|on)\s+(?:the\s+)?", re.IGNORECASE)


def scope_thing(phrase: str) -> str:
    """The scoped thing of a scope phrase: ``for the docs site`` -> ``docs site``."""
    return _SCOPE_PREFIX.sub("", phrase).strip()


def component_name(index: int) -> str:
    """Subject ``index`` >= 1 as a bare component name (``billing``, ``legacy billing``, ``billing #19``)."""
    i = index - 1
    name = SUBJECT_NAMES[i % len(SUBJECT_NAMES)]
    qual_index = i // len(SUBJECT_NAMES)
    if qual_index < len(SUBJECT_QUALIFIERS):
        return f"{SUBJECT_QUALIFIERS[qual_index]}{name}"
    return f"{name} #{qual_index}"


def _classic_subject(index: int) -> dict[str, str]:
    return {"subj": subject_name(index), "at": "", "of": ""}


CLASSIC = Family(
    name="classic",
    decide=(tpl.DECIDE_PLAIN, tpl.DECIDE_SUBTLE),
    change=(tpl.CHANGE_PLAIN, tpl.CHANGE_SUBTLE),
    revert=(tpl.REVERT_PLAIN, tpl.REVERT_SUBTLE),
    restate=(tpl.RESTATE_PLAIN, tpl.RESTATE_SUBTLE),
    detail=(tpl.DETAIL_PLAIN, tpl.DETAIL_SUBTLE),
    scoped=(tpl.SCOPED_PLAIN, tpl.SCOPED_SUBTLE),
    blocker_raise=tpl.BLOCKER_RAISE,
    blocker_resolve=tpl.BLOCKER_RESOLVE,
    plan=tpl.PLAN,
    passing=tpl.PASSING,
    recap=tpl.RECAP,
    noise=tpl.NOISE,
    distractor=tpl.DISTRACTOR,
    queries={
        "current": q.CURRENT_Q,
        "as_of": q.AS_OF_Q,
        "when": q.WHEN_Q,
        "revert": q.REVERT_Q,
        "blocker": q.BLOCKER_Q,
        "history": q.HISTORY_Q,
    },
    subject=_classic_subject,
)


def _registry() -> dict[str, Family]:
    from memlab.data.project_history.family_chat import CHAT
    from memlab.data.project_history.family_narrative import NARRATIVE
    from memlab.data.project_history.family_terse import TERSE
    from memlab.data.project_history.family_ticket import TICKET
    from memlab.data.project_history.family_wiki import WIKI

    return {f.name: f for f in (CLASSIC, TERSE, NARRATIVE, TICKET, CHAT, WIKI)}


def families() -> dict[str, Family]:
    """Every family by name."""
    return _registry()


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
