"""Temporal expression kinds: the phrase a speaker says, its exact gold interval and LoCoMo-style answer.

Every kind is a function of the mentioning session's calendar day (the anchor) and a random generator.
It returns ``None`` when the phrase would be ambiguous at that anchor (``last weekend`` said on a Sunday,
``last summer`` said in July). Conventions (half-open day intervals):

- ``yesterday`` / ``N days ago`` / ``last <weekday>`` / ``on 7 May``: one day; ``last Saturday`` is the
  latest Saturday strictly before the anchor day (never the anchor's own weekday, so never 7 days back).
- ``last week``: the seven days before the anchor, rendered ``The week before <anchor>``; the event falls
  in the part of that window that is also the previous calendar week, so both readings are true.
- ``N weeks ago``: the calendar week (Monday start) holding anchor − 7N days, rendered ``The week of
  <Monday>``. ``the week before 20 May``: the seven days before that date.
- ``last weekend``: the Saturday and Sunday before a weekday anchor. ``last month`` / ``N months ago`` /
  ``in March``: a calendar month. ``last summer``: 1 June–31 August of the latest finished summer.
  ``last year`` / ``N years ago``: a calendar year. ``next month``: a plan for the next calendar month.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from memlab.data.locomo_synth.dates import (
    MONTHS,
    NUMBER_WORDS,
    WEEKDAYS,
    add_months,
    day_text,
    month_interval,
    month_text,
    ordinal,
    previous_weekday,
    summer_interval,
    week_start,
    year_interval,
)


@dataclass(frozen=True)
class Expression:
    """One resolved mention.

    Attributes:
        kind: Expression kind (a key of :data:`KINDS`).
        phrase: The words used in the turn (``last Saturday``).
        start: First day of the gold interval.
        end: Day after the last day of the gold interval.
        grain: ``day``, ``week``, ``weekend``, ``month``, ``season`` or ``year``.
        answer: The gold answer in LoCoMo's style.
        event_day: The day the event happened (inside ``[start, end)``).
        future: A plan (``next month``) rather than a past event.
    """

    kind: str
    phrase: str
    start: date
    end: date
    grain: str
    answer: str
    event_day: date
    future: bool = False


def _day(kind: str, phrase: str, day: date, answer: str | None = None) -> Expression:
    return Expression(kind, phrase, day, day + timedelta(days=1), "day", answer or day_text(day), day)


def _within(rng: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rng.randrange((end - start).days))


def _count(rng: random.Random, n: int) -> str:
    return NUMBER_WORDS[n] if rng.random() < 0.75 else str(n)


def today(a: date, rng: random.Random) -> Expression:
    """``this morning``: the anchor day."""
    return _day("today", rng.choice(("this morning", "earlier today", "today")), a)


def yesterday(a: date, rng: random.Random) -> Expression:
    """``yesterday``: the day before the anchor."""
    phrase = rng.choice(("yesterday", "yesterday afternoon", "yesterday evening", "last night"))
    return _day("yesterday", phrase, a - timedelta(days=1))


def days_ago(a: date, rng: random.Random) -> Expression:
    """``three days ago``: one day, 2-5 days back."""
    n = rng.randint(2, 5)
    return _day("days_ago", f"{_count(rng, n)} days ago", a - timedelta(days=n))


def last_weekday(a: date, rng: random.Random) -> Expression:
    """``last Saturday``: the latest such weekday strictly before the anchor."""
    weekday = rng.choice([w for w in range(7) if w != a.weekday()])
    day = previous_weekday(a, weekday)
    phrase = rng.choice((f"last {WEEKDAYS[weekday]}", f"on {WEEKDAYS[weekday]}", f"this past {WEEKDAYS[weekday]}"))
    return _day("last_weekday", phrase, day, f"The {WEEKDAYS[weekday]} before {day_text(a)}")


def explicit(a: date, rng: random.Random) -> Expression:
    """``on 7 May``: a day 3-45 days back, year implied by the anchor."""
    day = a - timedelta(days=rng.randint(3, 45))
    month = MONTHS[day.month - 1]
    phrase = rng.choice((f"on {day.day} {month}", f"on {month} {ordinal(day.day)}", f"on {month} {day.day}"))
    return _day("explicit", phrase, day)


def last_week(a: date, rng: random.Random) -> Expression:
    """``last week``: the seven days before the anchor."""
    start = a - timedelta(days=7)
    event = _within(rng, start, week_start(a))
    phrase = rng.choice(("last week", "sometime last week", "earlier last week"))
    return Expression("last_week", phrase, start, a, "week", f"The week before {day_text(a)}", event)


def weeks_ago(a: date, rng: random.Random) -> Expression:
    """``two weeks ago``: the calendar week holding anchor - 7N days."""
    n = rng.randint(2, 3)
    start = week_start(a - timedelta(days=7 * n))
    end = start + timedelta(days=7)
    phrase = f"{_count(rng, n)} weeks ago"
    return Expression(
        "weeks_ago", phrase, start, end, "week", f"The week of {day_text(start)}", _within(rng, start, end)
    )


def week_before_date(a: date, rng: random.Random) -> Expression:
    """``the week before 20 May``: the seven days before that date."""
    ref = a - timedelta(days=rng.randint(4, 35))
    month = MONTHS[ref.month - 1]
    phrase = rng.choice((f"the week before {ref.day} {month}", f"the week before {month} {ordinal(ref.day)}"))
    start = ref - timedelta(days=7)
    answer = f"The week before {day_text(ref)}"
    return Expression("week_before_date", phrase, start, ref, "week", answer, _within(rng, start, ref))


def last_weekend(a: date, rng: random.Random) -> Expression | None:
    """``last weekend``: the Saturday and Sunday before a weekday anchor."""
    if a.weekday() >= 5:
        return None
    saturday = previous_weekday(a, 5)
    end = saturday + timedelta(days=2)
    phrase = rng.choice(("last weekend", "over the weekend", "this past weekend"))
    answer = f"The weekend before {day_text(a)}"
    return Expression("last_weekend", phrase, saturday, end, "weekend", answer, _within(rng, saturday, end))


def _month(kind: str, phrase: str, ym: tuple[int, int], rng: random.Random, future: bool = False) -> Expression:
    start, end = month_interval(*ym)
    return Expression(kind, phrase, start, end, "month", month_text(*ym), _within(rng, start, end), future)


def last_month(a: date, rng: random.Random) -> Expression:
    """``last month``: the previous calendar month."""
    phrase = rng.choice(("last month", "sometime last month"))
    return _month("last_month", phrase, add_months(a.year, a.month, -1), rng)


def months_ago(a: date, rng: random.Random) -> Expression:
    """``two months ago``: a calendar month 2-4 months back."""
    n = rng.randint(2, 4)
    return _month("months_ago", f"{_count(rng, n)} months ago", add_months(a.year, a.month, -n), rng)


def month_name(a: date, rng: random.Random) -> Expression:
    """``in March``: a month 2-7 months back, named without its year."""
    ym = add_months(a.year, a.month, -rng.randint(2, 7))
    return _month("month_name", rng.choice(("in", "back in")) + f" {MONTHS[ym[1] - 1]}", ym, rng)


def next_month(a: date, rng: random.Random) -> Expression:
    """``next month``: a plan for the next calendar month."""
    phrase = rng.choice(("next month", "sometime next month"))
    return _month("next_month", phrase, add_months(a.year, a.month, 1), rng, future=True)


def last_summer(a: date, rng: random.Random) -> Expression | None:
    """``last summer``: the latest finished summer (June-August)."""
    if 6 <= a.month <= 8:
        return None
    year = a.year if a.month >= 9 else a.year - 1
    start, end = summer_interval(year)
    phrase = rng.choice(("last summer", "this past summer"))
    return Expression("last_summer", phrase, start, end, "season", f"Summer {year}", _within(rng, start, end))


def _year(kind: str, phrase: str, year: int, rng: random.Random) -> Expression:
    start, end = year_interval(year)
    return Expression(kind, phrase, start, end, "year", str(year), _within(rng, start, end))


def last_year(a: date, rng: random.Random) -> Expression:
    """``last year``: the previous calendar year."""
    return _year("last_year", rng.choice(("last year", "sometime last year")), a.year - 1, rng)


def years_ago(a: date, rng: random.Random) -> Expression:
    """``two years ago``: a calendar year 2-4 years back."""
    n = rng.randint(2, 4)
    return _year("years_ago", f"{_count(rng, n)} years ago", a.year - n, rng)


#: Every expression kind by name (the keys of the ``expression_mix`` knob).
KINDS: dict[str, Callable[[date, random.Random], Expression | None]] = {
    "today": today,
    "yesterday": yesterday,
    "days_ago": days_ago,
    "last_weekday": last_weekday,
    "explicit": explicit,
    "last_week": last_week,
    "weeks_ago": weeks_ago,
    "week_before_date": week_before_date,
    "last_weekend": last_weekend,
    "last_month": last_month,
    "months_ago": months_ago,
    "month_name": month_name,
    "next_month": next_month,
    "last_summer": last_summer,
    "last_year": last_year,
    "years_ago": years_ago,
}


def draw(anchor: date, rng: random.Random, mix: dict[str, float], future_ok: bool = True) -> Expression | None:
    """Draw a kind by ``mix`` weights and resolve it at ``anchor``; ``None`` if every draw was ambiguous."""
    names = [k for k in sorted(mix) if mix[k] > 0 and (future_ok or k != "next_month")]
    weights = [mix[k] for k in names]
    if not names:
        return None
    for _ in range(50):
        expr = KINDS[rng.choices(names, weights)[0]](anchor, rng)
        if expr is not None:
            return expr
    return None
