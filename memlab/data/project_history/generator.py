"""Seeded generator of project histories with exact gold (``memlab.project_history/1``).

A history is a set of topic *instances* (a topic such as the web framework, about a subject such as the
billing service; see :mod:`generator_topics`), each a timeline of events with their gold relations (see
:mod:`generator_events`), plus noise (unrelated progress notes and, more often at harder difficulties,
distractors that mention topic values without changing anything). Queries of the four kinds follow from
the timelines. Everything depends only on ``(seed, size, difficulty, noise_ratio, style, hard_negatives)``; the
work is linear in ``size`` (100,000 memories take a few seconds).

``style`` names the phrasing family or families (:mod:`generator_families`; ``classic``, the default, gives
the histories of the generator before families existed, byte for byte); ``hard_negatives`` is the share of
events replaced by hard negatives (plans, mentions in passing, recaps; 0 by default).

Stable API: :func:`generate` (``seed``, ``size``, ``difficulty``, ``noise_ratio``, ``style``,
``hard_negatives``) → :class:`ProjectHistory`.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation
from memlab.data.project_history import generator_templates as tpl
from memlab.data.project_history.generator_events import Draft, Event, InstanceBuilder, Style
from memlab.data.project_history.generator_families import Family, FamilyDraw, parse_style
from memlab.data.project_history.generator_queries import make_queries
from memlab.data.project_history.generator_topics import TOPICS
from memlab.data.project_history.schema import GoldRelation, GoldTemporal, ProjectHistory

GENERATOR_VERSION = 1
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
#: Named difficulty levels (a float in [0, 1] works too).
DIFFICULTY: dict[str, float] = {"easy": 0.2, "default": 0.5, "hard": 0.9}
MIN_SIZE, MAX_SIZE = 20, 200_000


def difficulty_level(difficulty: str | float) -> float:
    """Map ``easy``/``default``/``hard`` or a number in [0, 1] to the level in [0, 1]."""
    if isinstance(difficulty, str) and difficulty in DIFFICULTY:
        return DIFFICULTY[difficulty]
    try:
        level = float(difficulty)
    except (TypeError, ValueError):
        raise MemlabError(
            f"unknown difficulty {difficulty!r}; use one of {', '.join(DIFFICULTY)} or a number in [0, 1]"
        ) from None
    if not 0.0 <= level <= 1.0:
        raise MemlabError(f"difficulty {level} is outside [0, 1]")
    return level


def generate(
    seed: int,
    size: int,
    difficulty: str | float = "default",
    noise_ratio: float = 0.3,
    style: str = "classic",
    hard_negatives: float = 0.0,
    *,
    log: list[Event] | None = None,
) -> ProjectHistory:
    """A history of ``size`` memories with exact gold; deterministic for its arguments (``log`` receives the event
    log, memory ids the final ones).
    """
    _check(size, noise_ratio, hard_negatives)
    level = difficulty_level(difficulty)
    fams = parse_style(style)
    rng = random.Random(f"project_history|{seed}|{size}|{level}|{noise_ratio}")
    draw = FamilyDraw(fams, f"{seed}|{size}|{level}|{noise_ratio}|{hard_negatives}")
    size = int(size)
    n_noise = round(size * noise_ratio)
    n_topic = size - n_noise
    n_inst = max(1, min(len(TOPICS), n_topic // 4), round(n_topic / 8))
    span_days = min(730, max(60, size // 8))

    builders = _instances(rng, draw, level, n_topic, n_inst, span_days, hard_negatives)
    drafts = [d for b in builders for d in b.drafts]
    events = [e for b in builders for e in b.events]
    relations = [r for b in builders for r in b.relations]
    drafts.extend(_noise(rng, level, n_noise, span_days, events, draw))

    drafts.sort(key=lambda d: (d.timestamp, d.key))
    ids = {d.key: f"m{n:06d}" for n, d in enumerate(drafts)}
    memories = tuple(Memory(ids[d.key], d.namespace, d.timestamp, d.summary, d.content, d.tags) for d in drafts)
    for event in events:
        event.memory = ids[event.memory]
        event.targets = [ids[t] for t in event.targets]
    relations = [(ids[o], ids[n], r) for o, n, r in relations]
    relations.extend(_identical(memories, {(o, n) for o, n, _ in relations}))
    gold = tuple(GoldRelation(o, n, Relation(r)) for o, n, r in relations)
    temporal = tuple(GoldTemporal(e.memory, e.temporal[0], e.temporal[1], e.temporal[2]) for e in events if e.temporal)
    query_time = memories[-1].timestamp + timedelta(hours=1)
    queries = make_queries(rng, builders, ids, events, query_time)
    meta = _meta(seed, size, difficulty, level, noise_ratio, fams, hard_negatives, n_inst, events)
    name = f"ph-seed{seed}-n{size}-{meta['difficulty']}"
    if "style" in meta or hard_negatives:
        name += f"-{meta.get('style', 'classic')}" + (f"-hn{hard_negatives:g}" if hard_negatives else "")
    if log is not None:
        log.extend(events)
    return ProjectHistory(name, memories, gold, temporal, tuple(queries), meta)


def _check(size: int, noise_ratio: float, hard_negatives: float) -> None:
    """One-line errors for arguments outside their ranges."""
    if not MIN_SIZE <= int(size) <= MAX_SIZE:
        raise MemlabError(f"size {size} is outside [{MIN_SIZE}, {MAX_SIZE}]")
    if not 0.0 <= noise_ratio < 1.0:
        raise MemlabError(f"noise_ratio {noise_ratio} is outside [0, 1)")
    if not 0.0 <= hard_negatives < 1.0:
        raise MemlabError(f"hard_negatives {hard_negatives} is outside [0, 1)")


def _instances(
    rng: random.Random,
    draw: FamilyDraw,
    level: float,
    n_topic: int,
    n_inst: int,
    span_days: int,
    hard_negatives: float,
) -> list[InstanceBuilder]:
    """The topic instances, built in order.

    ``rng`` is drawn from exactly as the single loop this replaced drew, so the data stay byte-identical.
    """
    end = START + timedelta(days=span_days)
    order = list(range(len(TOPICS)))
    rng.shuffle(order)
    budgets = [n_topic // n_inst + (1 if i < n_topic % n_inst else 0) for i in range(n_inst)]
    builders: list[InstanceBuilder] = []
    for i, budget in enumerate(budgets):
        topic = TOPICS[order[i % len(TOPICS)]]
        family = draw.draw()
        forms = family.subject(i // len(TOPICS))
        builder = InstanceBuilder(
            rng, Style(rng, level, family), topic, forms["subj"], f"i{i}", budget, forms, hard_negatives
        )
        start = START + timedelta(days=rng.uniform(0, span_days * 0.35), minutes=rng.randint(0, 600))
        builder.build(start, end)
        builders.append(builder)
    return builders


def _meta(
    seed: int,
    size: int,
    difficulty: str | float,
    level: float,
    noise_ratio: float,
    fams: tuple[Family, ...],
    hard_negatives: float,
    n_inst: int,
    events: list[Event],
) -> dict[str, Any]:
    """The history's ``meta``: the generator, its version and every argument that shaped the data."""
    return {
        "generator": "memlab.benchmarks.project_history.generator",  # the recorded name (data stay byte-identical)
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "size": size,
        "difficulty": difficulty if isinstance(difficulty, str) else level,
        "difficulty_level": level,
        "noise_ratio": noise_ratio,
        **({"style": "+".join(f.name for f in fams)} if fams[0].name != "classic" or len(fams) > 1 else {}),
        **({"hard_negatives": hard_negatives} if hard_negatives else {}),
        "instances": n_inst,
        "events": dict(sorted(Counter(e.kind for e in events).items())),
    }


def _identical(memories: tuple[Memory, ...], related: set[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """DUPLICATE gold for memories whose text repeats an earlier one word for word (mostly noise)."""
    first: dict[str, str] = {}
    out = []
    for m in memories:  # time order
        key = " ".join(m.text.split())
        if key not in first:
            first[key] = m.id
        elif (first[key], m.id) not in related:
            out.append((first[key], m.id, "DUPLICATE"))
    return out


def _noise(
    rng: random.Random, level: float, n: int, span_days: int, events: list[Event], draw: FamilyDraw
) -> list[Draft]:
    """Unrelated progress notes and distractors (share ``0.05 + 0.4·level``), each in a drawn family."""
    out: list[Draft] = []
    p_distract = 0.05 + 0.4 * level
    for k in range(n):
        ts = START + timedelta(days=rng.uniform(0, span_days), minutes=rng.randint(0, 59))
        key = f"noise.{k}"
        family = draw.draw()
        if rng.random() < p_distract:
            topic = rng.choice(TOPICS)
            v, w = rng.sample(topic.values, 2)
            ns, summary, content = rng.choice(family.distractor)
            kw = {"v": v, "w": w, "attr": family.attribute_names(topic)[0]}
            out.append(Draft(key, ns, ts, summary.format(**kw), content.format(**kw), (topic.key, "distractor")))
            events.append(Event("distractor", key, "noise", topic.key, "", w))
            continue
        ns, summary, content = rng.choice(family.noise)
        kw = {
            "mod": rng.choice(tpl.NOISE_MODULES),
            "lib": rng.choice(tpl.NOISE_LIBS),
            "n": str(rng.randint(2, 40)),
            "m": str(rng.randint(0, 20)),
        }
        text_s, text_c = summary.format(**kw), content.format(**kw)
        out.append(Draft(key, ns, ts, text_s[:1].upper() + text_s[1:], text_c[:1].upper() + text_c[1:], (ns,)))
        events.append(Event("noise", key, "noise"))
    return out
