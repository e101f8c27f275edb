"""Queries of the four kinds (current, as_of, when, history) with gold answers and evidence ids."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from memlab.data.project_history.schema import GoldQuery

if TYPE_CHECKING:
    from memlab.data.project_history.generator_events import Event, InstanceBuilder

#: At most this many instances get queries (keeps evaluation linear on large histories).
MAX_QUERY_INSTANCES = 120


def make_queries(
    rng: random.Random,
    builders: list[InstanceBuilder],
    ids: dict[str, str],
    events: list[Event],
    query_time: datetime,
) -> list[GoldQuery]:
    """Queries for (at most :data:`MAX_QUERY_INSTANCES`) instances; ids are mapped to final memory ids."""
    chosen = builders if len(builders) <= MAX_QUERY_INSTANCES else rng.sample(builders, MAX_QUERY_INSTANCES)
    chosen = sorted(chosen, key=lambda b: int(b.name[1:]))
    by_instance: dict[str, list[Event]] = {}
    for event in events:
        by_instance.setdefault(event.instance, []).append(event)
    out: list[GoldQuery] = []

    def add(kind: str, question: str, as_of: datetime, answer: str, evidence: list[str], topic: str, **kw) -> None:
        out.append(GoldQuery(f"q{len(out):05d}", kind, question, as_of, answer, tuple(evidence), topic, **kw))

    for b in chosen:
        kw = {**b.forms, "attr": b.family.attribute_names(b.topic)[0]}
        words = b.family.queries
        last = b.epochs[-1]
        add(
            "current",
            rng.choice(words["current"]).format(**kw),
            query_time,
            last.value,
            [ids[k] for k, _ in last.live],
            b.name,
        )
        idx = rng.randrange(len(b.epochs))
        epoch = b.epochs[idx]
        stop = b.epochs[idx + 1].start if idx + 1 < len(b.epochs) else query_time
        if (stop - epoch.start) > timedelta(hours=2):
            t = epoch.start + timedelta(seconds=rng.uniform(3600, (stop - epoch.start).total_seconds() - 3600))
            question = rng.choice(words["as_of"]).format(date=t.strftime("%Y-%m-%d %H:%M UTC"), **kw)
            evidence = [ids[k] for k, ts in epoch.live if ts <= t]
            add("as_of", question, t, epoch.value, evidence, b.name)
        changes = [e for e in by_instance.get(b.name, []) if e.kind in ("change", "revert")]
        if changes:
            e = rng.choice(changes)
            templates = words["revert"] if e.kind == "revert" else words["when"]
            stamp = next(ep.start for ep in b.epochs if ids[ep.head] == e.memory)
            add(
                "when",
                rng.choice(templates).format(v=e.value, **kw),
                query_time,
                stamp.date().isoformat(),
                [e.memory],
                b.name,
            )
        blockers = [e for e in by_instance.get(b.name, []) if e.kind == "blocker" and e.temporal]
        if blockers:
            e = rng.choice(blockers)
            add(
                "when",
                rng.choice(words["blocker"]).format(v=e.value, **kw),
                query_time,
                e.temporal[1].date().isoformat(),
                [e.memory],
                b.name,
                answer_source="mentioned",
            )
        if len(b.epochs) >= 2:
            add(
                "history",
                rng.choice(words["history"]).format(**kw),
                query_time,
                " -> ".join(ep.value for ep in b.epochs),
                [ids[ep.head] for ep in b.epochs],
                b.name,
            )
    return out
