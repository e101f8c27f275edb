"""Temporal answers without an LLM (category 2): find the turn that narrates the event, date it, write it.

The answerer reads only the query's selected context (units in retrieval order) and works in three steps.

1. **Which unit tells the event.** Each of the first ``top_n`` units gets an *event score*: the share of the
   question's event terms (:mod:`memlab.benchmarks.locomo.question`) its text contains, each term weighted
   by its rarity among those units (``log(1 + n/df)``: a speaker's name in every turn weighs little), plus
   ``rank_weight / (rank + 1)`` for the retriever's opinion.
2. **Which time in it.** The unit's text is split into sentences; the sentence holding the most event terms
   is the event's sentence. A time expression there — resolved by the configured resolver against the
   unit's *own* time (its session), nearest the event's words first — dates the event; without one, the
   event is dated by an expression within ``sentence_window`` sentences (discounted by ``sentence_decay`` per
   sentence), then by a short reply of the same speaker within ``turn_window`` turns that says little but a
   time ("When was that?" — "It was two weeks ago."), then by the unit's own day (LoCoMo's "I just …" turns).
   A present-perfect sentence with a length ("I've had them for 3 years") dates the start: the year or month
   that length back. Expressions below ``min_confidence`` ("recently") are ignored. A candidate dated by an
   expression gets ``expression_bonus × confidence`` on top of its unit's score. A cluster summary is dated
   only through its lead line (it quotes the newest source, whose time the summary carries); its other lines
   are undated.
3. **What the question allows.** Candidates outside a period the question names ("… in June?") and, for
   questions about plans ("When is Ann going to …"), candidates before the turn's own day are dropped unless
   nothing else is left. The best remaining candidate (ties: retrieval rank) is written in LoCoMo's style
   (:mod:`memlab.benchmarks.locomo.render`); "which year" / "which month" questions get that grain.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from memlab.benchmarks.locomo.question import (
    QuestionCues,
    analyse,
    is_time_word,
    match_key,
    same_word,
    text_keys,
    within_named,
)
from memlab.benchmarks.locomo.render import at_grain, render
from memlab.core.types import Memory, TemporalRef
from memlab.pipeline.units import is_summary
from memlab.strategies.temporal.base import TemporalBase
from memlab.text.lexical import stem

__all__ = ["AnswerConfig", "TemporalAnswer", "answer_temporal", "render", "segments"]

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
#: A present-perfect clause ("I've had", "she has lived", "we have been") or "now": a length then ends at the anchor.
_PERFECT = re.compile(r"(?:\bhave|\bhas|['’]ve)\s+(?:been|had|known|done|\w+ed)\b|\bnow\b", re.IGNORECASE)
_SPAN_NOTE = re.compile(r"\s*\(\d+ related memories?, [^)]*\)\s*$")
_DIA = re.compile(r"^D(\d+):(\d+)$")
#: A reply that is all time expression ("It was two weeks ago.", "Next month, if all goes to plan.") has at most
#: this many content words outside its expressions.
_REPLY_MAX_WORDS = 3


@dataclass(frozen=True)
class AnswerConfig:
    """Hyperparameters of :func:`answer_temporal` (``dataset.answer.*``)."""

    top_n: int = 5
    rank_weight: float = 0.25
    expression_bonus: float = 0.5
    min_confidence: float = 0.5
    sentence_window: int = 1
    sentence_decay: float = 0.5
    turn_window: int = 2


@dataclass(frozen=True)
class TemporalAnswer:
    """The chosen answer and where it came from."""

    text: str
    source: str
    expression: str
    rank: int
    start: date
    end: date


@dataclass(frozen=True)
class Segment:
    """Text of a unit with the time its expressions are resolved against (``None``: cannot be dated)."""

    text: str
    anchor: datetime | None


def segments(unit: Memory) -> list[Segment]:
    """A turn is one dated segment; a summary's lead line is dated by the summary, its other lines are not."""
    if is_summary(unit):
        lead = _SPAN_NOTE.sub("", unit.summary)
        rest = [line for line in unit.content.splitlines() if line.strip() and line.strip() != lead.strip()]
        return [Segment(lead, unit.timestamp), *(Segment(line, None) for line in rest)]
    return [Segment(unit.text, unit.timestamp)]


def _day_ref(anchor: datetime, text: str = "(session date)") -> TemporalRef:
    day = anchor.replace(hour=0, minute=0, second=0, microsecond=0)
    return TemporalRef(text, (0, 0), day, day + timedelta(days=1), "day", 0.0)


def _start_ref(ref: TemporalRef) -> TemporalRef | None:
    """The year or month a length reaches back to ("for 3 years" said in 2022 -> 2019)."""
    s = ref.start.replace(hour=0, minute=0, second=0, microsecond=0)
    if ref.grain == "year":
        first = s.replace(month=1, day=1)
        return TemporalRef(ref.text, ref.span, first, first.replace(year=first.year + 1), "year", ref.confidence)
    if ref.grain == "month":
        first = s.replace(day=1)
        nxt = first.replace(year=first.year + 1, month=1) if first.month == 12 else first.replace(month=first.month + 1)
        return TemporalRef(ref.text, ref.span, first, nxt, "month", ref.confidence)
    return None


def _resolve(resolver: TemporalBase, text: str, anchor: datetime, config: AnswerConfig) -> list[TemporalRef]:
    try:
        found = list(resolver.resolve(text, anchor))
    except Exception:  # a resolver must not break the benchmark; count as no expression
        return []
    out: list[TemporalRef] = []
    for ref in found:
        if ref.confidence < config.min_confidence or not ref.start < ref.end:
            continue
        if ref.kind == "point":
            out.append(ref)
        elif ref.kind == "duration" and _PERFECT.search(_sentence_at(text, ref.span[0])):
            start = _start_ref(ref)
            if start is not None:
                out.append(start)
    return out


def _sentences(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text)] or [(0, len(text))]


def _sentence_at(text: str, pos: int) -> str:
    for a, b in _sentences(text):
        if a <= pos < b:
            return text[a:b]
    return text


def _weights(cues: QuestionCues, texts: Sequence[list[tuple[str, int]]]) -> dict[str, float]:
    """Each event term's weight: ``log(1 + n/df)`` over the units (unseen terms count as the rarest)."""
    n = max(1, len(texts))
    out = {}
    for term in cues.terms:
        df = sum(1 for keys in texts if any(same_word(term, k) for k, _ in keys))
        out[term] = math.log(1 + n / max(df, 0.5))
    return out


def _options(
    unit: Memory,
    keys: list[tuple[str, int]],
    weights: dict[str, float],
    resolver: TemporalBase,
    config: AnswerConfig,
) -> tuple[float, list[tuple[float, TemporalRef, datetime]]]:
    """The unit's event score and its datings ``(bonus, ref, anchor)`` in order of preference.

    Preference: expressions of the event's sentence (nearest the event's words first), then those of the
    sentences within ``sentence_window`` of it (nearer sentences first), then the unit's own day.
    """
    total = sum(weights.values()) or 1.0
    matched = [(t, pos) for t in weights for k, pos in keys if same_word(t, k)]
    event = sum(weights[t] for t in {t for t, _ in matched}) / total
    sentences = []  # (hits, segment, segment offset, sentence start, sentence end)
    offset = 0
    for seg in segments(unit):
        for a, b in _sentences(seg.text):
            inside = {t for t, p in matched if offset + a <= p < offset + b}
            sentences.append((sum(weights[t] for t in inside), seg, offset, a, b))
        offset += len(seg.text) + 1
    top = max(h for h, *_ in sentences)
    events = [i for i, (hits, seg, *_) in enumerate(sentences) if hits == top and seg.anchor is not None]
    ranked: list[tuple[int, float, float, TemporalRef, datetime]] = []  # distance, nearness, bonus, ref, anchor
    resolved: dict[int, list[TemporalRef]] = {}
    for i, (_, seg, off, a, b) in enumerate(sentences):
        distance = min((abs(i - j) for j in events), default=config.sentence_window + 1)
        if seg.anchor is None or distance > config.sentence_window:
            continue
        if off not in resolved:
            resolved[off] = _resolve(resolver, seg.text, seg.anchor, config)
        refs = [r for r in resolved[off] if a <= r.span[0] < b]
        near = [p - off for _, p in matched if off + a <= p < off + b] or [a]
        weight = config.expression_bonus * config.sentence_decay**distance
        for r in refs:
            nearness = min(abs(r.span[0] - p) for p in near) - r.confidence / 2
            ranked.append((distance, nearness, weight * r.confidence, r, seg.anchor))
        if distance == 0 and not refs:
            ranked.append((config.sentence_window + 1, 0.0, 0.0, _day_ref(seg.anchor), seg.anchor))
    ranked.sort(key=lambda o: (o[0], o[1], o[3].span))
    return event, [(bonus, ref, anchor) for _, _, bonus, ref, anchor in ranked]


def _position(unit: Memory) -> tuple[object, object, int, int] | None:
    """(conversation, speaker, session, turn) of a dialogue turn from its ``dia_id`` (``None`` otherwise)."""
    m = _DIA.match(str(unit.meta.get("dia_id", "")))
    if m is None or is_summary(unit):
        return None
    return unit.meta.get("sample_id"), unit.meta.get("speaker"), int(m.group(1)), int(m.group(2))


def _reply_refs(unit: Memory, resolver: TemporalBase, config: AnswerConfig) -> list[TemporalRef]:
    """The expressions of a turn that says little else than them, or ``[]``."""
    refs = _resolve(resolver, unit.text, unit.timestamp, config)
    if not refs:
        return []
    speaker = {match_key(stem(w)) for w in re.findall(r"[a-z]+", str(unit.meta.get("speaker", "")).lower())}
    words = [
        k
        for k, pos in text_keys(unit.text)
        if not any(r.span[0] <= pos < r.span[1] for r in refs) and not is_time_word(k) and not k.isdigit()
    ]
    return refs if len([w for w in words if w not in speaker]) <= _REPLY_MAX_WORDS else []


def _replies(
    unit: Memory, context: Sequence[Memory], resolver: TemporalBase, config: AnswerConfig
) -> list[tuple[float, TemporalRef, datetime]]:
    """Datings from the same speaker's short replies within ``turn_window`` turns ("When was that?" — "It was
    two weeks ago."), nearest turn first.
    """
    here = _position(unit)
    if here is None or config.turn_window <= 0:
        return []
    found = []
    for other in context:
        there = _position(other)
        if there is None or there[:3] != here[:3] or not 0 < abs(there[3] - here[3]) <= config.turn_window:
            continue
        for ref in _reply_refs(other, resolver, config):
            found.append((abs(there[3] - here[3]), ref.span, ref, other.timestamp))
    weight = config.expression_bonus * config.sentence_decay ** (config.sentence_window + 1)
    return [(weight * ref.confidence, ref, anchor) for _, _, ref, anchor in sorted(found, key=lambda f: f[:2])]


def _allowed(cues: QuestionCues, ref: TemporalRef, anchor: datetime, level: int) -> bool:
    """Level 2: the question's named periods and plan direction both hold; 1: the periods; 0: anything."""
    if level >= 1 and not within_named(cues, ref.start.date(), ref.end.date()):
        return False
    return not (level >= 2 and cues.future and ref.end.date() <= anchor.date())


def answer_temporal(
    question: str, units: Sequence[Memory], resolver: TemporalBase, config: AnswerConfig
) -> TemporalAnswer | None:
    """Answer a "when" question from the context units in retrieval order (``None`` for an empty context)."""
    cues = analyse(question)
    considered = list(units[: config.top_n])
    keyed = [text_keys("\n".join(s.text for s in segments(u))) for u in considered]
    weights = _weights(cues, keyed)
    scored = []
    for rank, (unit, keys) in enumerate(zip(considered, keyed, strict=True)):
        event, options = _options(unit, keys, weights, resolver, config)
        if event > 0 and options and options[0][1].confidence == 0.0:  # only the turn's own day so far
            options = [*_replies(unit, units, resolver, config), *options]
        scored.append((event + config.rank_weight / (rank + 1), rank, unit, options))
    for level in (2, 1, 0):
        best: tuple[float, int, TemporalRef, Memory, datetime] | None = None
        for base, rank, unit, options in scored:
            for bonus, ref, anchor in options:
                if _allowed(cues, ref, anchor, level):
                    if best is None or base + bonus > best[0]:
                        best = (base + bonus, rank, ref, unit, anchor)
                    break
        if best is not None:
            _, rank, ref, unit, anchor = best
            text = at_grain(render(ref, anchor), ref.start.date(), cues.grain)
            return TemporalAnswer(text, unit.id, ref.text, rank, ref.start.date(), ref.end.date())
    return None
