"""Exact temporal answers on a hand-written conversation: event matching, the sentence around the event,
"the week before X" arithmetic, plans, named months, lengths, and cluster summaries in the context."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.benchmarks.locomo.answerer import AnswerConfig, answer_temporal, segments
from memlab.benchmarks.locomo.dates import date_correct
from memlab.benchmarks.locomo.ingest import ingest
from memlab.benchmarks.locomo.loader import load
from memlab.pipeline.units import summary_unit
from memlab.strategies.summarizer.extractive import ExtractiveSummarizer
from memlab.strategies.temporal.none import NoResolver
from memlab.strategies.temporal.rules import RulesResolver
from tests.locomo.tiny import write
from tests.locomo.tiny_temporal import CONVERSATION, EXPECTED, conversation


@pytest.fixture(scope="module")
def turns(tmp_path_factory):
    path = write(tmp_path_factory.mktemp("t") / "t.json", [conversation()])
    return {m.meta["dia_id"]: m for m in ingest(load(path).conversations[0])}


@pytest.mark.parametrize("question", sorted(EXPECTED))
def test_exact_answers(turns, question) -> None:
    ids, expected = EXPECTED[question]
    ans = answer_temporal(question, [turns[i] for i in ids], RulesResolver(), AnswerConfig())
    assert ans is not None and ans.text == expected
    gold = next(q["answer"] for q in CONVERSATION["qa"] if q["question"] == question)
    assert date_correct(ans.text, gold)


def test_without_the_sentence_window_the_turn_day_answers(turns) -> None:
    ans = answer_temporal(
        "When did Dana finish her first triathlon?", [turns["D1:1"]], RulesResolver(), AnswerConfig(sentence_window=0)
    )
    assert ans is not None and ans.text == "5 June 2023" and ans.expression == "(session date)"


def test_a_past_question_takes_the_better_ranked_mention(turns) -> None:
    ans = answer_temporal(
        "When did Dana go to a jazz concert?", [turns["D2:1"], turns["D1:3"]], RulesResolver(), AnswerConfig()
    )
    assert ans is not None and ans.text == "13 August 2023"


def _summary(turns, lead: str, older: str):
    memories = [turns[older], turns[lead]]
    summary = ExtractiveSummarizer().summarize(memories)
    assert summary is not None and summary.temporal_end == turns[lead].timestamp
    return summary_unit(summary)


def test_a_summary_is_dated_through_its_lead_line_only(turns) -> None:
    unit = _summary(turns, "D2:5", "D1:6")  # lead: "repainted the shed yesterday" (14 Aug); older: "fixed the roof"
    assert [s.anchor for s in segments(unit)] == [turns["D2:5"].timestamp, None]
    assert "related memories" not in segments(unit)[0].text  # the span note is not read as dates
    ans = answer_temporal("When did Eli repaint the shed?", [unit], RulesResolver(), AnswerConfig())
    assert ans is not None and ans.text == "13 August 2023" and ans.source == unit.id
    # the older line cannot be dated from the summary: no answer from it alone, the turn's own date with the turn
    assert answer_temporal("When did Eli fix the shed roof?", [unit], RulesResolver(), AnswerConfig()) is None
    ans = answer_temporal("When did Eli fix the shed roof?", [unit, turns["D1:6"]], RulesResolver(), AnswerConfig())
    assert ans is not None and ans.text == "4 June 2023"


def test_a_summary_without_expressions_gives_its_newest_day(turns) -> None:
    unit = _summary(turns, "D2:4", "D1:6")
    ans = answer_temporal("When did Dana's bakery open?", [unit], NoResolver(), AnswerConfig())
    assert ans is not None and ans.text == "14 August 2023"


def test_which_year_and_month_questions_get_that_grain(turns) -> None:
    cfg = AnswerConfig()
    assert answer_temporal("Which year did Eli adopt a kitten?", [turns["D1:2"]], RulesResolver(), cfg).text == "2023"
    month = answer_temporal("Which month did Eli adopt a kitten?", [turns["D1:2"]], RulesResolver(), cfg)
    assert month.text == "May 2023"


@settings(max_examples=30, deadline=None)
@given(order=st.permutations(["D1:1", "D1:2", "D1:3", "D1:4", "D1:5", "D2:1", "D2:3", "D2:4"]), top=st.integers(1, 8))
def test_reads_only_the_context(turns, order, top) -> None:
    """Whatever the order: the answer comes from one of the first ``top`` units of the context it was given, is a
    non-empty interval, and does not change when asked again."""
    units = [turns[i] for i in order]
    cfg = AnswerConfig(top_n=top)
    a = answer_temporal("When did Eli go hiking?", units, RulesResolver(), cfg)
    assert a is not None and a == answer_temporal("When did Eli go hiking?", units, RulesResolver(), cfg)
    assert a.source in {u.id for u in units[:top]} and a.start < a.end


def test_an_empty_context_has_no_answer() -> None:
    assert answer_temporal("When?", [], RulesResolver(), AnswerConfig()) is None


def test_anchor_is_the_units_own_time(turns) -> None:
    moved = type(turns["D1:5"])(
        id=turns["D1:5"].id,
        namespace="dialogue",
        timestamp=datetime(2023, 6, 20, 9, 0, tzinfo=UTC),
        summary=turns["D1:5"].summary,
        meta=dict(turns["D1:5"].meta),
    )
    ans = answer_temporal("When did Eli go hiking?", [moved], RulesResolver(), AnswerConfig())
    assert ans is not None and ans.text == "19 June 2023"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Eli: I have lived in Oslo for 3 years.", "2020"),
        ("Eli: I’ve kept bees for four months now.", "February 2023"),
        ("Eli: We stayed in Oslo for 3 years and then moved.", "5 June 2023"),  # not perfect: the turn's own day
    ],
)
def test_a_present_perfect_length_dates_the_start(turns, text, expected) -> None:
    unit = type(turns["D1:4"])(id="x", namespace="dialogue", timestamp=turns["D1:4"].timestamp, summary=text)
    ans = answer_temporal("When did Eli start living in Oslo or keeping bees?", [unit], RulesResolver(), AnswerConfig())
    assert ans is not None and ans.text == expected


def test_only_short_replies_of_the_same_speaker_date_a_turn(turns) -> None:
    q = "When did Dana visit the glass museum?"
    off = answer_temporal(q, [turns["D3:1"], turns["D3:3"]], RulesResolver(), AnswerConfig(turn_window=0))
    assert off is not None and off.text == "1 September 2023"
    # a turn that tells its own story is no reply, even within the window
    story = answer_temporal(q, [turns["D3:1"], turns["D3:4"]], RulesResolver(), AnswerConfig(turn_window=3))
    assert story is not None and story.text == "1 September 2023"
    # the other speaker's question in between is no dating either
    asked = answer_temporal(q, [turns["D3:1"], turns["D3:2"]], RulesResolver(), AnswerConfig())
    assert asked is not None and asked.text == "1 September 2023"
