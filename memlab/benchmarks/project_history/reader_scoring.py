"""The reader's answers to the history questions, and reader accuracy (``reader_acc*``).

Every ``current``, ``as_of`` and ``when`` question is also answered by the run's ``reader``
(:class:`memlab.strategies.reader.base.ReaderBase`) from the units of the same selected context, whatever they
are (memories, cluster summaries, narratives): so a design without supersession edges is scored on the same
questions as one with them. ``history`` questions ask for a chain the store keeps, not for a value; the reader
does not answer them.

Correct answers:

* ``when``: the answer, normalised to a day (``written_day``: ``2025-03-04``, ``4 March 2025``, ``March 4th``
  ...), is the gold day within the tolerance of the question's kind (:data:`WHEN_TOLERANCE_DAYS`), 0 days for both
  kinds: ``recorded`` (the day the note that records the event was written) and ``mentioned`` (the day a note's
  relative expression refers to: "failing since yesterday"; every gold day here is a day-grain expression). One day
  of tolerance for ``mentioned`` would credit the note's own day for "since yesterday", the very answer that shows
  the expression was not read.
* ``current``, ``as_of``: the answer names the gold value and no other value of the same topic — every salient
  word of the gold value (a name, an acronym, a version: :func:`memlab.text.slot_parse.salient_tokens`; with none,
  every content word) is a word of the answer, and no word of another value the topic took (the gold answers of
  its other questions, its history chain) that is not a word of the gold value is. "FastAPI" answers "FastAPI",
  "Accept-Version" answers "an Accept-Version header"; "Flask FastAPI" answers neither.

Metrics: ``reader_acc`` (the three kinds together; its 95% interval ``reader_acc_ci_low`` / ``_ci_high``),
``reader_acc_current``, ``reader_acc_as_of``, ``reader_acc_when`` and their counts ``n_reader_<kind>``,
``n_reader``; ``reader_answered`` (fraction with a non-empty answer). A rate over no question is undefined and
absent; with ``reader=none`` no reader metric is logged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from memlab.benchmarks import metrics
from memlab.data.project_history.schema import GoldQuery
from memlab.text.slot_parse import content_tokens, salient_tokens
from memlab.text.temporal.written import written_day

#: The query kinds the reader answers.
READER_KINDS: tuple[str, ...] = ("current", "as_of", "when")
#: Days a ``when`` answer may be from the gold day, per ``answer_source`` (rule in the module docstring).
WHEN_TOLERANCE_DAYS: Mapping[str, int] = {"recorded": 0, "mentioned": 0}


def when_correct(answer: str, gold: str, at: datetime, source: str = "recorded") -> bool:
    """Whether ``answer`` names a day (:func:`~memlab.text.temporal.written.written_day`; a day without a
    year read towards the past of ``at``, when the question is asked) within ``source``'s tolerance of ``gold``.
    """
    said, wanted = written_day(answer, at, with_year=False), date.fromisoformat(gold)
    return said is not None and abs((said - wanted).days) <= WHEN_TOLERANCE_DAYS.get(source, 0)


def _words(text: str) -> frozenset[str]:
    return frozenset(content_tokens(text))


def topic_values(queries: Iterable[GoldQuery]) -> dict[str, frozenset[str]]:
    """Topic -> the words of every value gold gives it (``history`` chains split at ``->``)."""
    out: dict[str, set[str]] = {}
    for q in queries:
        if q.topic is None:
            continue
        values = q.answer.split("->") if q.kind == "history" else ([q.answer] if q.kind != "when" else [])
        for value in values:
            out.setdefault(q.topic, set()).update(_words(value))
    return {topic: frozenset(words) for topic, words in out.items()}


def value_correct(answer: str, gold: str, topic_words: frozenset[str] = frozenset()) -> bool:
    """Whether ``answer`` names ``gold`` and no other value of the topic (rules in the module docstring)."""
    said, wanted = _words(answer), _words(gold)
    required = salient_tokens(gold) or wanted
    if not required or not required <= said:
        return False
    return not (said & (topic_words - wanted))


def reader_fields(reader: Any, query: GoldQuery, question: str, units: Sequence[Any], at: Any, values: Mapping) -> dict:
    """The record fields of the reader's answer to one question (``{}``: the reader does not answer it)."""
    if reader is None or not reader.reads or query.kind not in READER_KINDS:
        return {}
    answer = reader.answer(question, units, at)
    if query.kind == "when":
        correct = when_correct(answer.text, query.answer, at, query.answer_source)
    else:
        correct = value_correct(answer.text, query.answer, values.get(query.topic, frozenset()))
    return {
        "reader_answer": answer.text,
        "reader_units": list(answer.unit_ids),
        "reader_confidence": answer.confidence,
        "reader_correct": float(correct),
    }


def reader_metrics(records: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """``reader_acc`` and its interval, ``reader_acc_<kind>``, ``reader_answered`` and their counts.

    The interval is the 95% percentile bootstrap over the questions (``reader_acc_ci_low`` / ``_ci_high``, seed 0),
    so a run's table and ``memlab best`` show it beside the main metric. Undefined rates are absent.
    """
    read = [r for r in records if "reader_correct" in r]
    if not read:
        return {}
    out: dict[str, float | None] = {
        "reader_acc": metrics.mean(r["reader_correct"] for r in read),
        **metrics.ci_metrics("reader_acc", [r["reader_correct"] for r in read]),
        "reader_answered": metrics.mean(float(bool(r["reader_answer"])) for r in read),
        "n_reader": float(len(read)),
    }
    for kind in READER_KINDS:
        rows = [r["reader_correct"] for r in read if r["kind"] == kind]
        out[f"reader_acc_{kind}"] = metrics.mean(rows)
        out[f"n_reader_{kind}"] = float(len(rows))
    return metrics.defined(out)
