"""One topic instance's timeline: events, their memories and their exact gold.

An *instance* is one topic about one subject (the web framework of the billing service). It starts with a
decision and then draws events: change (SUPERSEDE every live memory of the old value), revert (a change
back to the previous value), restatement (DUPLICATE of every live memory), added detail (MERGE with every
live memory), scoped variant (COEXIST: a value that holds only in a scope, e.g. "in tests"), and a blocker
raised and later resolved (the resolution SUPERSEDEs the blocker; the blocker's text holds a relative time
expression with a gold interval). *Live* memories are those that state the instance's current value.

Hard negatives (``hard_negatives`` > 0, off by default): a change considered but not made (``plan``: relates
to nothing), a note about something else naming the current value in passing (``passing``: relates to
nothing), and a retelling of the last change (``recap``: DUPLICATE of the live memories, not a new change).
The wording comes from the instance's phrasing family (:mod:`generator_families`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from memlab.data.project_history import generator_templates as tpl
from memlab.data.project_history.family import CLASSIC, Family, Pool
from memlab.data.project_history.generator_topics import TopicSpec

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
    "plan": None,
    "passing": None,
    "recap": "DUPLICATE",
}
#: Hard-negative event kinds (drawn only with ``hard_negatives`` > 0).
HARD_NEGATIVES: tuple[str, ...] = ("plan", "passing", "recap")


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
    """Wording choices driven by the difficulty level ``d`` in [0, 1], in one phrasing ``family``."""

    def __init__(self, rng: random.Random, level: float, family: Family = CLASSIC) -> None:
        self.rng = rng
        self.p_subtle = 0.6 * level
        self.p_synonym = 0.8 * level
        self.family = family

    def pick(self, plain: tuple[tpl.Template, ...], subtle: tuple[tpl.Template, ...]) -> tpl.Template:
        """A template: subtle with probability ``p_subtle``."""
        pool = subtle if subtle and self.rng.random() < self.p_subtle else plain
        return self.rng.choice(pool)

    def pick_pool(self, pool: Pool) -> tpl.Template:
        """A template of a family pool ``(plain, subtle)``."""
        return self.pick(pool[0], pool[1])

    def attr(self, topic: TopicSpec) -> str:
        """The attribute name or one of its synonyms (the family's names)."""
        canonical, synonyms = self.family.attribute_names(topic)
        if synonyms and self.rng.random() < self.p_synonym:
            return self.rng.choice(synonyms)
        return canonical


def fill(template: tpl.Template, **kw: str) -> tuple[str, str]:
    """Format a ``(summary, content)`` template; adds capitalised variants of subject/attr/value/scope."""
    cap = {k: kw.get(k, "")[:1].upper() + kw.get(k, "")[1:] for k in ("subj", "attr", "new", "scope", "reason")}
    extra = {
        "Subj": cap["subj"],
        "attr_cap": cap["attr"],
        "Attr": cap["attr"],
        "New": cap["new"],
        "scope_cap": cap["scope"],
        "Scope": cap["scope"],
        "Reason": cap["reason"],
    }
    values = {**kw, **extra}
    summary, content = template
    return summary.format(**values), content.format(**values)


class InstanceBuilder:
    """Builds the events and drafts of one topic instance (see the module docstring)."""

    def __init__(
        self,
        rng: random.Random,
        style: Style,
        topic: TopicSpec,
        subject: str,
        name: str,
        budget: int,
        forms: dict[str, str] | None = None,
        hard_negatives: float = 0.0,
    ) -> None:
        self.rng = rng
        self.style = style
        self.family = style.family
        self.topic = topic
        self.subject = subject
        self.forms = forms or {"subj": subject, "at": "", "of": ""}
        self.hard_negatives = hard_negatives
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
            content = content + self.family.twin.format(month=f"{ts:%B}", day=ts.day)
        self.texts.setdefault((summary, content), key)
        self.drafts.append(Draft(key, ns, ts, summary, content, (self.topic.key, *tags)))
        return key

    def _kw(self, **kw: str) -> dict[str, str]:
        base = {
            **self.forms,
            "attr": self.style.attr(self.topic),
            "reason": self.rng.choice(self.topic.reasons),
        }
        out = {**base, **kw}
        if self.family.lower_values > 0:
            for key in ("v", "old", "new", "main"):
                if key in out and self.rng.random() < self.family.lower_values:
                    out[key] = out[key].lower()
        return out

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
        key = self._draft("decisions", ts, fill(self.style.pick_pool(self.family.decide), **self._kw(v=v)), ())
        self.epochs.append(Epoch(v, key, ts, [(key, ts)]))
        self.events.append(Event("decision", key, self.name, self.topic.key, self.subject, v))

    def change(self, ts: datetime, *, revert: bool = False) -> bool:
        """A change to an unused value, or (``revert``) back to the previous epoch's value."""
        if revert:
            if len(self.epochs) < 2 or self.epochs[-2].value == self.value:
                return False
            new = self.epochs[-2].value
            template = self.style.pick_pool(self.family.revert)
        else:
            new = self._unused()
            if new is None:
                return False
            template = self.style.pick_pool(self.family.change)
        old = self.value
        summary, content = fill(template, **self._kw(old=old, new=new))
        temporal = None
        if self.rng.random() < 0.25:
            expr = self.rng.choice(("yesterday", "last week", "last Tuesday", "last Friday"))
            content += self.family.incident.format(when=expr)
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
        text = fill(self.style.pick_pool(self.family.restate), **self._kw(v=self.value))
        self._related("restatement", "DUPLICATE", ns, ts, text)

    def detail(self, ts: datetime) -> None:
        """More detail about the current value (both stay true)."""
        ns = self.rng.choice(("decisions", "learnings", "research", "patterns"))
        detail = self.rng.choice(self.topic.details).format(v=self.value)
        text = fill(self.style.pick_pool(self.family.detail), **self._kw(v=self.value, detail=detail))
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
        said = self.family.say_scope(scope)
        text = fill(self.style.pick_pool(self.family.scoped), **self._kw(v=v, scope=said, main=self.value))
        key = self._draft(self.rng.choice(("decisions", "patterns")), ts, text, ("scoped",))
        targets = [k for k, _ in self.epochs[-1].live]
        self.relations.extend((t, key, "COEXIST") for t in targets)
        self.events.append(Event("scoped", key, self.name, self.topic.key, self.subject, v, "", scope, targets))
        return True

    def blocker(self, ts: datetime, resolved_at: datetime) -> None:
        """A blocker with a relative time expression, and its resolution."""
        template = self.rng.choice(self.family.blocker_raise)
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
        text = fill(self.rng.choice(self.family.blocker_resolve), **self._kw(v=self.value))
        key = self._draft(self.rng.choice(("blockers", "progress")), resolved_at, text, ("blocker", "resolved"))
        self.relations.append((raise_key, key, "SUPERSEDE"))
        self.events.append(
            Event("resolved", key, self.name, self.topic.key, self.subject, self.value, targets=[raise_key])
        )

    def hard_negative(self, ts: datetime, kind: str) -> None:
        """A plan, a mention in passing or a recap (a mention in passing when the others cannot happen)."""
        if kind == "recap" and len(self.epochs) >= 2:
            old = self.epochs[-2].value
            text = fill(self.rng.choice(self.family.recap), **self._kw(old=old, new=self.value))
            ns = self.rng.choice(("retrospective", "decisions", "reviews"))
            self._related("recap", "DUPLICATE", ns, ts, text)
            return
        new = self._unused()
        if kind == "plan" and new is not None:
            text = fill(self.rng.choice(self.family.plan), **self._kw(old=self.value, new=new))
            key = self._draft(self.rng.choice(("research", "decisions", "elicitation")), ts, text, ("plan",))
            self.events.append(Event("plan", key, self.name, self.topic.key, self.subject, new, self.value))
            return
        extra = {"mod": self.rng.choice(tpl.NOISE_MODULES), "lib": self.rng.choice(tpl.NOISE_LIBS)}
        text = fill(self.rng.choice(self.family.passing), **self._kw(v=self.value, **extra))
        key = self._draft(self.rng.choice(("progress", "learnings", "reviews")), ts, text, ("passing",))
        self.events.append(Event("passing", key, self.name, self.topic.key, self.subject, self.value))

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
            if self.hard_negatives > 0 and self.rng.random() < self.hard_negatives:
                self.hard_negative(ts, self.rng.choice(HARD_NEGATIVES))
                continue
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
