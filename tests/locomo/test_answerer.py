"""The no-LLM temporal answerer: resolve against each memory's own time, render in LoCoMo's style."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlab.benchmarks.locomo.answerer import AnswerConfig, answer_temporal, render
from memlab.benchmarks.locomo.ingest import ingest
from memlab.benchmarks.locomo.loader import load
from memlab.core.types import TemporalRef
from memlab.strategies.temporal.none import NoResolver
from memlab.strategies.temporal.pattern_table import PatternTableResolver
from memlab.strategies.temporal.rules import RulesResolver
from tests.locomo.tiny import tiny, write


def _ref(text: str, start: tuple[int, int, int], end: tuple[int, int, int], grain: str) -> TemporalRef:
    return TemporalRef(text, (0, len(text)), datetime(*start, tzinfo=UTC), datetime(*end, tzinfo=UTC), grain)


ANCHOR_JUNE9 = datetime(2023, 6, 9, 10, 0, tzinfo=UTC)  # a Friday


@pytest.mark.parametrize(
    ("ref", "anchor", "text"),
    [
        (_ref("yesterday", (2023, 5, 7), (2023, 5, 8), "day"), datetime(2023, 5, 8, 13, 56, tzinfo=UTC), "7 May 2023"),
        (_ref("last week", (2023, 5, 29), (2023, 6, 5), "week"), ANCHOR_JUNE9, "The week before 9 June 2023"),
        (_ref("last week", (2023, 6, 2), (2023, 6, 9), "week"), ANCHOR_JUNE9, "The week before 9 June 2023"),
        (_ref("two weeks ago", (2023, 5, 22), (2023, 5, 29), "week"), ANCHOR_JUNE9, "Two weeks before 9 June 2023"),
        (_ref("next week", (2023, 6, 12), (2023, 6, 19), "week"), ANCHOR_JUNE9, "The week after 9 June 2023"),
        (_ref("last weekend", (2023, 6, 3), (2023, 6, 5), "weekend"), ANCHOR_JUNE9, "The weekend before 9 June 2023"),
        (
            _ref("two weekends ago", (2023, 7, 8), (2023, 7, 10), "weekend"),
            datetime(2023, 7, 17, tzinfo=UTC),
            "Two weekends before 17 July 2023",
        ),
        (_ref("last Friday", (2023, 6, 2), (2023, 6, 3), "day"), ANCHOR_JUNE9, "The Friday before 9 June 2023"),
        (_ref("last month", (2023, 5, 1), (2023, 6, 1), "month"), ANCHOR_JUNE9, "May 2023"),
        (_ref("last year", (2022, 1, 1), (2023, 1, 1), "year"), ANCHOR_JUNE9, "2022"),
        (_ref("last summer", (2022, 6, 1), (2022, 9, 1), "season"), ANCHOR_JUNE9, "summer 2022"),
        # LoCoMo writes "this weekend" said on a Monday as the weekend of that day, and abbreviated weekdays alike
        (
            _ref("this weekend", (2022, 8, 27), (2022, 8, 29), "weekend"),
            datetime(2022, 8, 22, tzinfo=UTC),
            "The weekend of 22 August 2022",
        ),
        (_ref("this weekend", (2023, 6, 10), (2023, 6, 12), "weekend"), ANCHOR_JUNE9, "The weekend of 9 June 2023"),
        (_ref("last Fri", (2023, 6, 2), (2023, 6, 3), "day"), ANCHOR_JUNE9, "The Friday before 9 June 2023"),
        (_ref("this week", (2023, 6, 5), (2023, 6, 12), "week"), ANCHOR_JUNE9, "The week of 9 June 2023"),
        (
            _ref("the week before 23 May", (2023, 5, 16), (2023, 5, 23), "week"),
            ANCHOR_JUNE9,
            "The week before 23 May 2023",
        ),
    ],
)
def test_render_in_locomo_style(ref, anchor, text) -> None:
    assert render(ref, anchor) == text


def _ranked(tmp_path):
    conv = load(write(tmp_path / "t.json", tiny())).conversations[0]
    return {m.meta["dia_id"]: m for m in ingest(conv)}


@pytest.mark.parametrize("resolver", [RulesResolver(), PatternTableResolver()])
def test_yesterday_resolves_against_the_memorys_own_date(tmp_path, resolver) -> None:
    mems = _ranked(tmp_path)
    ans = answer_temporal(
        "When did Bob go to the pottery class?", [mems["D1:2"], mems["D2:1"]], resolver, AnswerConfig()
    )
    assert ans is not None and ans.text == "7 May 2023" and ans.source == mems["D1:2"].id


def test_last_week_in_a_later_session(tmp_path) -> None:
    mems = _ranked(tmp_path)
    ans = answer_temporal("When did Bob adopt Rex?", [mems["D2:1"]], RulesResolver(), AnswerConfig())
    assert ans is not None and ans.text == "The week before 9 June 2023"


def test_no_expression_gives_the_session_date(tmp_path) -> None:
    mems = _ranked(tmp_path)
    ans = answer_temporal("When did Ann paint a sunrise?", [mems["D2:2"]], NoResolver(), AnswerConfig())
    assert ans is not None and ans.text == "9 June 2023" and ans.expression == "(session date)"
    assert answer_temporal("When?", [], NoResolver(), AnswerConfig()) is None


def test_expression_bonus_and_year_hint(tmp_path) -> None:
    mems = _ranked(tmp_path)
    ranked = [mems["D2:2"], mems["D1:2"]]  # rank 0 has no expression, rank 1 says "yesterday"
    # no event words: rank prior 0.25/1 vs 0.25/2 + bonus x confidence 1.0
    weak = answer_temporal("When?", ranked, RulesResolver(), AnswerConfig(expression_bonus=0.1))
    strong = answer_temporal("When?", ranked, RulesResolver(), AnswerConfig(expression_bonus=0.5))
    assert weak.text == "9 June 2023" and strong.text == "7 May 2023"
    year = answer_temporal("In which year did Bob go?", ranked, RulesResolver(), AnswerConfig(expression_bonus=0.5))
    assert year.text == "2023"


class _Broken:
    name = "broken"
    version = 1

    def resolve(self, text, anchor):
        raise RuntimeError("boom")


def test_a_failing_resolver_does_not_break_the_answerer(tmp_path) -> None:
    mems = _ranked(tmp_path)
    ans = answer_temporal("When?", [mems["D1:2"]], _Broken(), AnswerConfig())
    assert ans.text == "8 May 2023"
