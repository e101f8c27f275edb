"""What a "when" question asks: event terms, named periods, plans, grain."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.benchmarks.locomo.question import analyse, match_key, same_word, text_keys, within_named


def test_event_terms_drop_question_time_and_light_words() -> None:
    assert analyse("When did Melanie go camping in June?").terms == ("melani", "camp")
    assert analyse("When is Nate hosting a gaming party?").terms == ("nat", "host", "gam", "parti")
    assert analyse("Which year did Bob get his dog?").terms == ("bob", "dog")


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [("race", "races", True), ("gaming", "game", True), ("married", "marry", True), ("adopt", "adoption", True)],
)
def test_same_word(a, b, same) -> None:
    ka, kb = text_keys(a)[0][0], text_keys(b)[0][0]
    assert same_word(ka, kb) is same


def test_short_keys_need_equality() -> None:
    assert not same_word("car", "career") and same_word("car", "car")


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12))
def test_same_word_is_reflexive_and_symmetric(word) -> None:
    k = match_key(word)
    assert same_word(k, k)
    assert same_word(k, "x" + k) == same_word("x" + k, k)


def test_named_periods() -> None:
    june = analyse("When did Melanie go camping in June?")
    assert june.months == {6} and not june.years
    assert within_named(june, date(2023, 6, 3), date(2023, 6, 4))
    assert within_named(june, date(2021, 5, 25), date(2021, 6, 2))  # overlaps June of any year
    assert not within_named(june, date(2023, 7, 1), date(2023, 8, 1))
    may = analyse("What did she do in May 2022?")
    assert may.months == {5} and may.years == {2022}
    assert not within_named(may, date(2023, 5, 1), date(2023, 5, 2))
    assert analyse("When may I go?").months == frozenset()
    winter = analyse("Where did they ski in winter 2023?")
    assert within_named(winter, date(2022, 12, 10), date(2022, 12, 11))  # December opens the 2023 winter
    assert not within_named(winter, date(2023, 12, 10), date(2023, 12, 11))
    assert within_named(analyse("When did it happen?"), date(1999, 1, 1), date(1999, 1, 2))


@pytest.mark.parametrize(
    ("question", "future"),
    [
        ("When is Melanie planning on going camping?", True),
        ("When is Nate hosting a gaming party?", True),
        ("When will Tim leave for Ireland?", True),
        ("When did Joanna plan to visit?", True),
        ("When does John plan on traveling with his team?", True),
        ("When did Melanie go camping?", False),
        ("When was the party?", False),
    ],
)
def test_plans(question, future) -> None:
    assert analyse(question).future is future


def test_grain() -> None:
    assert analyse("Which year did Bob go?").grain == "year"
    assert analyse("In which month did Bob go?").grain == "month"
    assert analyse("When did Bob go?").grain is None
