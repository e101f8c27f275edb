"""One topic instance's timeline: events, their memories and their exact gold.

An *instance* is one topic about one subject (the web framework of the billing service). It starts with a
decision and then draws events: change (SUPERSEDE every live memory of the old value), revert (a change
back to the previous value), restatement (DUPLICATE of every live memory), added detail (MERGE with every
live memory), scoped variant (COEXIST: a value that holds only in a scope, e.g. "in tests"), and a blocker
raised and later resolved (the resolution SUPERSEDEs the blocker; the blocker's text holds a relative time
expression with a gold interval). *Live* memories are those that state the instance's current value.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from memlab.benchmarks.project_history import generator_templates as tpl
from memlab.benchmarks.project_history.generator_topics import TopicSpec

#: Event kinds and the gold relation of the event's memory to the earlier memories it relates to.
EVENT_RELATION: dict[str, str | None] = {
    "decision": None,
    "change": "SUPERSEDE",
    "revert": "SUPERSEDE",
    "restatement": "DUPLICATE",
    "detail": "MERGE",
    "scoped": "COEXIST",
    "blocker": None,
    "resolved": "SUPERSEDE",
    "noise": None,
    "distractor": None,
}


@dataclass
class Draft:
    """A memory before final ids are assigned (``key`` is its provisional id)."""

    key: str
    namespace: str
    timestamp: datetime
    summary: str
    content: str
    tags: tuple[str, ...]


@dataclass
class Event:
    """One generator event: its kind, memory, and the earlier memories its gold relation points at."""

    kind: str
    memory: str
    instance: str
    topic: str = ""
    subject: str = ""
    value: str = ""
    old: str = ""
    scope: str = ""
    targets: list[str] = field(default_factory=list)
    temporal: tuple[str, datetime, datetime] | None = None


@dataclass
class Epoch:
    """A stretch of time during which the instance's main value held."""

    value: str
    head: str
    start: datetime
    live: list[tuple[str, datetime]]


def relative_interval(expr: str, anchor: datetime) -> tuple[datetime, datetime]:
    """Gold half-open day interval of a relative expression anchored at ``anchor`` (UTC day grain)."""
    day = anchor.replace(hour=0, minute=0, second=0, microsecond=0)
    if expr == "yesterday":
        return day - timedelta(days=1), day
    if expr == "two days ago":
        return day - timedelta(days=2), day - timedelta(days=1)
    if expr == "last week":
        monday = day - timedelta(days=day.weekday())
        return monday - timedelta(days=7), monday
    weekday = {"last Tuesday": 1, "last Friday": 4}[expr]
    back = (day.weekday() - weekday) % 7 or 7
    start = day - timedelta(days=back)
    return start, start + timedelta(days=1)


class Style:
    """Wording choices driven by the difficulty level ``d`` in [0, 1]."""

    def __init__(self, rng: random.Random, level: float) -> None:
        self.rng = rng
        self.p_subtle = 0.6 * level
        self.p_synonym = 0.8 * level

    def pick(self, plain: tuple[tpl.Template, ...], subtle: tuple[tpl.Template, ...]) -> tpl.Template:
        """A template: subtle with probability ``p_subtle``."""
        pool = subtle if subtle and self.rng.random() < self.p_subtle else plain
        return self.rng.choice(pool)

    def attr(self, topic: TopicSpec) -> str:
        """The attribute name or one of its synonyms."""
        if topic.synonyms and self.rng.random() < self.p_synonym:
            return self.rng.choice(topic.synonyms)
        return topic.attr


def fill(template: tpl.Template, **kw: str) -> tuple[str, str]:
    """Format a ``(summary, content)`` template; adds capitalised variants of subject/attr/value/scope."""
    extra = {
        "Subj": kw.get("subj", "")[:1].upper() + kw.get("subj", "")[1:],
        "attr_cap": kw.get("attr", "")[:1].upper() + kw.get("attr", "")[1:],
        "New": kw.get("new", "")[:1].upper() + kw.get("new", "")[1:],
        "scope_cap": kw.get("scope", "")[:1].upper() + kw.get("scope", "")[1:],
    }
    values = {**kw, **extra}
    summary, content = template
    return summary.format(**values), content.format(**values)


class InstanceBuilder:
    """Builds the events and drafts of one topic instance (see the module docstring)."""

    def __init__(
        self, rng: random.Random, style: Style, topic: TopicSpec, subject: str, name: str, budget: int
    ) -> None:
        self.rng = rng
        self.style = style
        self.topic = topic
        self.subject = subject
        self.name = name
        self.budget = budget
        self.pool = list(topic.values)
        rng.shuffle(self.pool)
        self.drafts: list[Draft] = []
        self.events: list[Event] = []
        self.epochs: list[Epoch] = []
        self.relations: list[tuple[str, str, str]] = []
        self.scoped_done = False
        self.texts: dict[tuple[str, str], str] = {}

    # -- helpers ------------------------------------------------------------------------------------
    def _draft(self, ns: str, ts: datetime, text: tuple[str, str], tags: tuple[str, ...]) -> str:
        key = f"{self.name}.{len(self.drafts)}"
        summary, content = (t[:1].upper() + t[1:] for t in text)
        twin = self.texts.get((summary, content))
        live = {k for k, _ in self.epochs[-1].live} if self.epochs else set()
        if twin is not None and not ("restatement" in tags and twin in live):
            # Word-for-word repeats are duplicates by definition; keep other events distinguishable.
            content = f"{content} (Noted on {ts:%B} {ts.day}.)"
        self.texts.setdefault((summary, content), key)
        self.drafts.append(Draft(key, ns, ts, summary, content, (self.topic.key, *tags)))
        return key

    def _kw(self, **kw: str) -> dict[str, str]:
        base = {
            "subj": self.subject,
            "attr": self.style.attr(self.topic),
            "reason": self.rng.choice(self.topic.reasons),
        }
        return {**base, **kw}

    @property
    def value(self) -> str:
        """The current main value."""
        return self.epochs[-1].value

    def _unused(self) -> str | None:
        used = {e.value for e in self.epochs}
        left = [v for v in self.pool if v not in used]
        return left[0] if left else None

    # -- events -------------------------------------------------------------------------------------
    def decision(self, ts: datetime) -> None:
        """The first decision of the instance."""
        v = self.pool[0]
        key = self._draft(
            "decisions", ts, fill(self.style.pick(tpl.DECIDE_PLAIN, tpl.DECIDE_SUBTLE), **self._kw(v=v)), ()
        )
        self.epochs.append(Epoch(v, key, ts, [(key, ts)]))
        self.events.append(Event("decision", key, self.name, self.topic.key, self.subject, v))

    def change(self, ts: datetime, *, revert: bool = False) -> bool:
        """A change to an unused value, or (``revert``) back to the previous epoch's value."""
        if revert:
            if len(self.epochs) < 2 or self.epochs[-2].value == self.value:
                return False
            new = self.epochs[-2].value
            template = self.style.pick(tpl.REVERT_PLAIN, tpl.REVERT_SUBTLE)
        else:
            new = self._unused()
            if new is None:
                return False
            template = self.style.pick(tpl.CHANGE_PLAIN, tpl.CHANGE_SUBTLE)
        old = self.value
        summary, content = fill(template, **self._kw(old=old, new=new))
        temporal = None
        if self.rng.random() < 0.25:
            expr = self.rng.choice(("yesterday", "last week", "last Tuesday", "last Friday"))
            content += f" Prompted by {expr}'s incident review."
            temporal = (expr, *relative_interval(expr, ts))
        key = self._draft("decisions", ts, (summary, content), ("revert",) if revert else ())
        targets = [k for k, _ in self.epochs[-1].live]
        self.relations.extend((t, key, "SUPERSEDE") for t in targets)
        self.epochs.append(Epoch(new, key, ts, [(key, ts)]))
        kind = "revert" if revert else "change"
        self.events.append(Event(kind, key, self.name, self.topic.key, self.subject, new, old, "", targets, temporal))
        return True

    def restatement(self, ts: datetime) -> None:
        """The current value said again in other words."""
        ns = self.rng.choice(("patterns", "learnings", "retrospective", "reviews", "decisions"))
        text = fill(self.style.pick(tpl.RESTATE_PLAIN, tpl.RESTATE_SUBTLE), **self._kw(v=self.value))
        self._related("restatement", "DUPLICATE", ns, ts, text)

    def detail(self, ts: datetime) -> None:
        """More detail about the current value (both stay true)."""
        ns = self.rng.choice(("decisions", "learnings", "research", "patterns"))
        detail = self.rng.choice(self.topic.details).format(v=self.value)
        text = fill(self.style.pick(tpl.DETAIL_PLAIN, tpl.DETAIL_SUBTLE), **self._kw(v=self.value, detail=detail))
        self._related("detail", "MERGE", ns, ts, text)

    def _related(self, kind: str, relation: str, ns: str, ts: datetime, text: tuple[str, str]) -> None:
        key = self._draft(ns, ts, text, (kind,))
        targets = [k for k, _ in self.epochs[-1].live]
        self.relations.extend((t, key, relation) for t in targets)
        self.epochs[-1].live.append((key, ts))
        self.events.append(Event(kind, key, self.name, self.topic.key, self.subject, self.value, "", "", targets))

    def scoped(self, ts: datetime) -> bool:
        """A value that holds only in a scope; coexists with the main value."""
        if self.scoped_done or not self.topic.scopes:
            return False
        self.scoped_done = True
        scope = self.rng.choice(self.topic.scopes)
        v = self.rng.choice(self.topic.scoped_values)
        text = fill(self.style.pick(tpl.SCOPED_PLAIN, tpl.SCOPED_SUBTLE), **self._kw(v=v, scope=scope, main=self.value))
        key = self._draft(self.rng.choice(("decisions", "patterns")), ts, text, ("scoped",))
        targets = [k for k, _ in self.epochs[-1].live]
        self.relations.extend((t, key, "COEXIST") for t in targets)
        self.events.append(Event("scoped", key, self.name, self.topic.key, self.subject, v, "", scope, targets))
        return True

    def blocker(self, ts: datetime, resolved_at: datetime) -> None:
        """A blocker with a relative time expression, and its resolution."""
        template = self.rng.choice(tpl.BLOCKER_RAISE)
        options = ("yesterday", "last week", "last Tuesday", "last Friday")
        expr = self.rng.choice(options if "{when}'s" in template[1] else tpl.RELATIVE)
        text = fill(template, **self._kw(v=self.value, when=expr))
        raise_key = self._draft("blockers", ts, text, ("blocker",))
        self.events.append(
            Event(
                "blocker",
                raise_key,
                self.name,
                self.topic.key,
                self.subject,
                self.value,
                temporal=(expr, *relative_interval(expr, ts)),
            )
        )
        text = fill(self.rng.choice(tpl.BLOCKER_RESOLVE), **self._kw(v=self.value))
        key = self._draft(self.rng.choice(("blockers", "progress")), resolved_at, text, ("blocker", "resolved"))
        self.relations.append((raise_key, key, "SUPERSEDE"))
        self.events.append(
            Event("resolved", key, self.name, self.topic.key, self.subject, self.value, targets=[raise_key])
        )

    # -- driver -------------------------------------------------------------------------------------
    def build(self, start: datetime, end: datetime) -> None:
        """Fill the instance's memory budget with events spread over ``[start, end)``."""
        span = (end - start).total_seconds()
        gap = span / max(1, self.budget)
        ts = start
        self.decision(ts)
        kinds = ("change", "revert", "restatement", "detail", "scoped", "blocker")
        weights = (0.28, 0.10, 0.18, 0.14, 0.10, 0.12)
        tries = 0
        while len(self.drafts) < self.budget and tries < 10 * self.budget:
            tries += 1
            ts = ts + timedelta(seconds=self.rng.uniform(0.3, 1.7) * gap)
            kind = self.rng.choices(kinds, weights)[0]
            if kind == "change" and not self.change(ts):
                kind = "restatement"
            if kind == "revert" and not self.change(ts, revert=True):
                kind = "detail"
            if kind == "scoped" and not self.scoped(ts):
                kind = "restatement"
            if kind == "blocker":
                if self.budget - len(self.drafts) < 2:
                    kind = "detail"
                else:
                    self.blocker(ts, ts + timedelta(hours=self.rng.uniform(6, 96)))
            if kind == "restatement":
                self.restatement(ts)
            elif kind == "detail":
                self.detail(ts)
