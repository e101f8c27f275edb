"""Generate LoCoMo-format conversations whose temporal questions have exact gold.

Each conversation: two speakers, ``n_sessions`` sessions a few days to weeks apart (times of day drawn
from the whole clock, so some sessions fall just after midnight), each session ``turns_per_session``
turns. Events are mentioned through relative expressions resolved against the mentioning session's
calendar day (:mod:`memlab.data.locomo_synth.expressions`); the questions ask for them in LoCoMo's
answer style. Distractor turns mention similar events at other dates. Single-hop (job, hometown,
instrument), multi-hop (two pets in two sessions) and adversarial items (the event asked about the
speaker who never did it) complete the format.
"""

from __future__ import annotations

import random
import re
from datetime import date, datetime, time, timedelta
from typing import Any

from memlab.data.locomo_synth.catalog import EVENTS, Event
from memlab.data.locomo_synth.chatter import (
    FACTS,
    FOLLOW_UPS,
    NAMES,
    PET_FIRST,
    PET_KINDS,
    PET_NAMES,
    PET_SECOND,
    PLAN_FOLLOW_UPS,
    PLAN_REACTIONS,
    REACTIONS,
)
from memlab.data.locomo_synth.config import SynthConfig
from memlab.data.locomo_synth.dates import session_stamp
from memlab.data.locomo_synth.expressions import Expression, draw
from memlab.data.locomo_synth.session import Beat, lay_out

LEADS: tuple[str, ...] = ("", "", "", "Guess what? ", "Oh, I meant to tell you: ", "So, ", "Funny story: ")


def _sentence(template: str, obj: str, phrase: str, rng: random.Random, leads: tuple[str, ...] = LEADS) -> str:
    text = template.format(o=obj, w=phrase)
    lead = rng.choice(leads)
    if lead.endswith((": ", ", ")) and not text.startswith(("I ", "I'")):
        return lead + text[0].lower() + text[1:]
    return lead + (text[0].upper() + text[1:])


def _mention(session: int, speaker: int, event: Event, variant: str, expr: Expression, rng, tag: str, split=False):
    templates = event.plan if expr.future else event.past
    reaction = rng.choice(PLAN_REACTIONS if expr.future else REACTIONS)
    data = {"event": event.key, "variant": variant, "expr": expr}
    if not split:
        return Beat(session, speaker, _sentence(rng.choice(templates), variant, expr.phrase, rng), reaction, tag, data)
    template = rng.choice([t for t in templates if "was {w}" not in t])
    statement = re.sub(r" +([.;,!])", r"\1", " ".join(template.replace("{w}", "").split()))
    ask, answer = rng.choice(PLAN_FOLLOW_UPS if expr.future else FOLLOW_UPS)
    follow = (ask, _sentence(answer, variant, expr.phrase, rng, ("",)))
    return Beat(session, speaker, _sentence(statement, variant, "", rng), reaction, tag, data, follow)


def _overlaps(a: Expression, b: Expression) -> bool:
    return a.start < b.end and b.start < a.end


def _session_times(cfg: SynthConfig, rng: random.Random) -> list[datetime]:
    day = date(2022, 1, 3) + timedelta(days=rng.randrange(730))
    out = []
    for _ in range(cfg.n_sessions):
        out.append(datetime.combine(day, time(rng.randrange(24), rng.randrange(60))))
        day += timedelta(days=rng.randint(cfg.min_gap_days, cfg.max_gap_days))
    return out


def _plan_events(cfg: SynthConfig, rng: random.Random, anchors: list[date]) -> list[Beat]:
    pool = [(e, v) for e in EVENTS for v in e.variants]
    rng.shuffle(pool)
    used: set[str] = set()
    beats: list[Beat] = []
    for s, anchor in enumerate(anchors, start=1):
        for _ in range(cfg.events_per_session):
            free = [(e, v) for e, v in pool if v not in used]
            expr = draw(anchor, rng, cfg.expression_mix)
            if not free or expr is None:
                continue
            event, variant = free[0]
            used.add(variant)
            owner = rng.randrange(2)
            main = _mention(s, owner, event, variant, expr, rng, "event", rng.random() < cfg.split_rate)
            beats.append(main)
            if rng.random() >= cfg.distractor_rate:
                continue
            siblings = [v for v in event.variants if v not in used]
            if siblings and rng.random() < 0.5:
                d_speaker, d_variant, mode = owner, rng.choice(siblings), "sibling"
                used.add(d_variant)
            else:
                d_speaker, d_variant, mode = 1 - owner, variant, "other_speaker"
            d_session = rng.randint(1, len(anchors))
            for _ in range(20):
                d_expr = draw(anchors[d_session - 1], rng, cfg.expression_mix)
                if d_expr is not None and not _overlaps(d_expr, expr) and d_expr.answer != expr.answer:
                    split = rng.random() < cfg.split_rate
                    distractor = _mention(d_session, d_speaker, event, d_variant, d_expr, rng, "distractor", split)
                    distractor.data.update(mode=mode, of=main)
                    beats.append(distractor)
                    break
    return beats


def _plan_facts(rng: random.Random, n_sessions: int) -> list[Beat]:
    beats = []
    for speaker in (0, 1):
        for key, template, question, options in rng.sample(FACTS, 2):
            value = rng.choice(options)
            data = {"key": key, "question": question, "answer": value}
            beats.append(
                Beat(rng.randint(1, n_sessions), speaker, template.format(v=value), rng.choice(REACTIONS), "fact", data)
            )
        kinds, pets = rng.sample(PET_KINDS, 2), rng.sample(PET_NAMES, 2)
        first = rng.randint(1, n_sessions)
        second = rng.randint(first, n_sessions)
        for s, template, kind, pet in ((first, PET_FIRST, kinds[0], pets[0]), (second, PET_SECOND, kinds[1], pets[1])):
            beats.append(
                Beat(s, speaker, template.format(kind=kind, pet=pet), rng.choice(REACTIONS), "pet", {"pet": pet})
            )
    return beats


def _event_question(name: str, event: Event, variant: str, future: bool) -> str:
    what = event.q.format(o=variant)
    return f"When is {name} planning to {what}?" if future else f"When did {name} {what}?"


def _questions(cfg, rng, sample_id, names, beats, stamps) -> tuple[list[dict], list[dict]]:
    placed = [b for b in beats if b.dia_id is not None]
    entries: list[tuple[str, dict, dict | None]] = []  # (first evidence id, qa, gold)
    for beat in placed:
        if beat.tag == "event":
            expr: Expression = beat.data["expr"]
            question = _event_question(
                names[beat.speaker], EVENTS_BY_KEY[beat.data["event"]], beat.data["variant"], expr.future
            )
            qa = {"question": question, "answer": expr.answer, "evidence": beat.evidence, "category": 2}
            others = [b.mention_id for b in placed if b.tag == "distractor" and b.data["of"] is beat]
            gold = {
                "kind": expr.kind, "phrase": expr.phrase, "mention": beat.mention_id, "session": beat.session,
                "session_date_time": stamps[beat.session - 1], "anchor": stamps_day(stamps[beat.session - 1]),
                "start": expr.start.isoformat(), "end": expr.end.isoformat(), "grain": expr.grain,
                "event_date": expr.event_day.isoformat(), "future": expr.future, "distractors": others,
            }  # fmt: skip
            entries.append((beat.dia_id, qa, gold))
        elif beat.tag == "fact":
            qa = {"question": beat.data["question"].format(name=names[beat.speaker]), "answer": beat.data["answer"]}
            entries.append((beat.dia_id, {**qa, "evidence": [beat.dia_id], "category": 4}, None))
    for speaker in (0, 1):
        pets = [b for b in placed if b.tag == "pet" and b.speaker == speaker]
        if len(pets) == 2:
            qa = {"question": f"What are the names of {names[speaker]}'s pets?"}
            qa |= {"answer": " and ".join(b.data["pet"] for b in pets), "evidence": [b.dia_id for b in pets]}
            entries.append((pets[-1].dia_id, {**qa, "category": 1}, None))
    done = {(b.speaker, b.data["variant"]) for b in placed if b.tag in ("event", "distractor")}
    candidates = [b for b in placed if b.tag == "event" and (1 - b.speaker, b.data["variant"]) not in done]
    for beat in rng.sample(candidates, min(cfg.n_adversarial, len(candidates))):
        event = EVENTS_BY_KEY[beat.data["event"]]
        question = _event_question(names[1 - beat.speaker], event, beat.data["variant"], beat.data["expr"].future)
        qa = {"question": question, "evidence": beat.evidence, "category": 5}
        entries.append((beat.dia_id, {**qa, "adversarial_answer": beat.data["expr"].answer}, None))
    entries.sort(key=lambda e: _dia_order(e[0]))
    qas, golds = [], []
    for index, (_, qa, gold) in enumerate(entries):
        qas.append(qa)
        if gold is not None:
            golds.append(
                {"sample_id": sample_id, "qa_index": index, "question": qa["question"], "answer": qa["answer"], **gold}
            )
    return qas, golds


EVENTS_BY_KEY: dict[str, Event] = {e.key: e for e in EVENTS}


def _dia_order(dia_id: str) -> tuple[int, int]:
    session, turn = dia_id[1:].split(":")
    return int(session), int(turn)


def stamps_day(stamp: str) -> str:
    """ISO day of a ``1:56 pm on 8 May, 2023`` stamp."""
    return datetime.strptime(stamp.split(" on ", 1)[1], "%d %B, %Y").date().isoformat()


def generate_conversation(cfg: SynthConfig, index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One conversation object (LoCoMo format) and the gold records of its temporal questions."""
    rng = random.Random(f"locomo_synth:{cfg.seed}:{index}")
    names = tuple(rng.sample(NAMES, 2))
    times = _session_times(cfg, rng)
    stamps = [session_stamp(t) for t in times]
    beats = _plan_events(cfg, rng, [t.date() for t in times]) + _plan_facts(rng, cfg.n_sessions)
    conversation: dict[str, Any] = {"speaker_a": names[0], "speaker_b": names[1]}
    for s in range(1, cfg.n_sessions + 1):
        mine = [b for b in beats if b.session == s]
        rng.shuffle(mine)
        conversation[f"session_{s}_date_time"] = stamps[s - 1]
        conversation[f"session_{s}"] = lay_out(s, mine, names, cfg.turns_per_session, rng)
    sample_id = f"synth-{cfg.seed}-{index}"
    qas, golds = _questions(cfg, rng, sample_id, names, beats, stamps)
    return {"qa": qas, "conversation": conversation, "sample_id": sample_id}, golds


def generate(cfg: SynthConfig) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The LoCoMo-format list of conversations and the gold document (knobs + one record per temporal item)."""
    data, items = [], []
    for index in range(cfg.n_conversations):
        conversation, golds = generate_conversation(cfg, index)
        data.append(conversation)
        items.extend(golds)
    gold = {"format": "memlab.locomo_synth.gold/1", "config": cfg.as_dict(), "items": items}
    return data, gold
