"""Token F1 (LoCoMo's normalisation) and the date-accuracy rule on every answer shape."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.benchmarks.locomo.dates import Interval, date_correct, fmt_day, parse_answer
from memlab.benchmarks.locomo.scoring import answer_f1, normalize_answer, token_f1


def test_normalisation_matches_upstream() -> None:
    assert normalize_answer("The week before 9 June, 2023.") == "week before 9 june 2023"
    assert normalize_answer("A cat and THE dog!") == "cat dog"
    assert normalize_answer(2022) == "2022"


def test_token_f1_exact_values() -> None:
    assert token_f1("7 May 2023", "7 May 2023") == 1.0
    assert token_f1("8 May 2023", "7 May 2023") == pytest.approx(2 / 3)
    assert token_f1("", "7 May 2023") == 0.0
    assert token_f1("May 2023", "7 May 2023") == pytest.approx(0.8)
    assert answer_f1("pottery, camping", "camping, painting", 1) == pytest.approx(0.5)
    assert answer_f1("tulips", "tulips; roses", 3) == 1.0


D = date


@pytest.mark.parametrize(
    ("text", "start", "end", "grain"),
    [
        ("7 May 2023", D(2023, 5, 7), D(2023, 5, 8), "day"),
        ("19 January, 2023", D(2023, 1, 19), D(2023, 1, 20), "day"),
        ("February 24, 2023", D(2023, 2, 24), D(2023, 2, 25), "day"),
        ("The week before October 13th, 2023.", D(2023, 10, 6), D(2023, 10, 13), "week"),
        ("the week before 21Janury, 2022", D(2022, 1, 14), D(2022, 1, 21), "week"),
        ("June 2023", D(2023, 6, 1), D(2023, 7, 1), "month"),
        ("April.2023", D(2023, 4, 1), D(2023, 5, 1), "month"),
        ("early August, 2023", D(2023, 8, 1), D(2023, 9, 1), "month"),
        ("December, 2022", D(2022, 12, 1), D(2023, 1, 1), "month"),
        ("2022", D(2022, 1, 1), D(2023, 1, 1), "year"),
        ("In 2013", D(2013, 1, 1), D(2014, 1, 1), "year"),
        ("The week before 9 June 2023", D(2023, 6, 2), D(2023, 6, 9), "week"),
        ("Two weeks before 11 August 2023", D(2023, 7, 28), D(2023, 8, 4), "week"),
        ("The week of 23 August 2023", D(2023, 8, 21), D(2023, 8, 28), "week"),  # Monday-Sunday
        ("The weekend before 17 July 2023", D(2023, 7, 15), D(2023, 7, 17), "weekend"),  # X is a Monday
        ("two weekends before 17 July 2023", D(2023, 7, 8), D(2023, 7, 10), "weekend"),
        ("The weekend after 3June, 2022.", D(2022, 6, 4), D(2022, 6, 6), "weekend"),
        ("The weekend of 24June, 2022.", D(2022, 6, 25), D(2022, 6, 27), "weekend"),  # Friday -> coming one
        ("The weekend of 22August, 2022.", D(2022, 8, 20), D(2022, 8, 22), "weekend"),  # Monday -> past one
        ("The sunday before 25 May 2023", D(2023, 5, 21), D(2023, 5, 22), "day"),
        ("The Friday before 15 July 2023", D(2023, 7, 14), D(2023, 7, 15), "day"),  # X is a Saturday
        ("The Friday before 14 July 2023", D(2023, 7, 7), D(2023, 7, 8), "day"),  # X is a Friday: a week back
        ("the day before 1 March 2024", D(2024, 2, 29), D(2024, 3, 1), "day"),  # leap day
        ("A few days before 9 June 2023", D(2023, 6, 2), D(2023, 6, 9), "few_days"),
        ("The summer of 2022", D(2022, 6, 1), D(2022, 9, 1), "season"),
        ("winter 2023", D(2022, 12, 1), D(2023, 3, 1), "season"),
        ("first weekend of August 2023", D(2023, 8, 5), D(2023, 8, 7), "weekend"),
        ("last week of September 2023", D(2023, 9, 24), D(2023, 10, 1), "week"),
        ("The week before 1 January 2023", D(2022, 12, 25), D(2023, 1, 1), "week"),  # year boundary
    ],
)
def test_answer_shapes(text, start, end, grain) -> None:
    assert parse_answer(text) == Interval(start, end, grain)


@pytest.mark.parametrize(
    "text", ["4 years", "Since 2016", "13 August", "her mother", "A few years ago", "", "31 June 2023"]
)
def test_not_datelike(text) -> None:
    assert parse_answer(text) is None


@pytest.mark.parametrize(
    ("pred", "gold", "ok"),
    [
        ("7 May 2023", "7 May 2023", True),
        ("7 May 2023", "May 2023", True),  # finer and inside
        ("May 2023", "7 May 2023", False),  # coarser
        ("8 May 2023", "7 May 2023", False),
        ("5 June 2023", "The week before 9 June 2023", True),
        ("The week before 9 June 2023", "The week before 9 June, 2023.", True),
        ("The week before 9 June 2023", "June 2023", True),
        ("The week before 2 June 2023", "June 2023", False),  # straddles May/June
        ("The weekend before 17 July 2023", "The week before 17 July 2023", True),
        ("The Saturday before 25 May 2023", "The sunday before 25 May 2023", False),
        ("2022", "2022", True),
        ("2022", "The summer of 2022", False),
        ("4 years", "4 years", True),  # non-date gold: exact normalised text
        ("5 years", "4 years", False),
        ("", "7 May 2023", False),
    ],
)
def test_date_accuracy_rule(pred, gold, ok) -> None:
    assert date_correct(pred, gold) is ok


@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2040, 12, 31)))
def test_rendered_day_round_trips(d) -> None:
    assert parse_answer(fmt_day(d)) == Interval(d, d.fromordinal(d.toordinal() + 1), "day")
    assert date_correct(fmt_day(d), fmt_day(d))
