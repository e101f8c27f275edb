"""The :class:`Family` of phrasings, its template types and the classic family (see :mod:`generator_families`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from memlab.data.project_history import generator_templates as tpl
from memlab.data.project_history.generator_topics import SUBJECT_NAMES, SUBJECT_QUALIFIERS, subject_name

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
        "current": tpl.CURRENT_Q,
        "as_of": tpl.AS_OF_Q,
        "when": tpl.WHEN_Q,
        "revert": tpl.REVERT_Q,
        "blocker": tpl.BLOCKER_Q,
        "history": tpl.HISTORY_Q,
    },
    subject=_classic_subject,
)
