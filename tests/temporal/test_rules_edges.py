"""Edge cases and documented conventions of temporal=rules."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memlab.strategies.temporal.rules import RulesResolver

R = RulesResolver()
TZ = timezone(timedelta(hours=-2))


def one(text: str, anchor: datetime, resolver: RulesResolver = R) -> tuple[datetime, datetime, str]:
    refs = [r for r in resolver.resolve(text, anchor) if r.kind != "duration"]
    assert refs, f"nothing resolved in {text!r}"
    best = max(refs, key=lambda r: r.span[1] - r.span[0])
    return best.start, best.end, best.grain


def day(y: int, m: int, d: int, tz=UTC) -> datetime:  # type: ignore[no-untyped-def]
    return datetime(y, m, d, tzinfo=tz)


def span_days(y: int, m: int, d: int, n: int = 1, tz=UTC) -> tuple[datetime, datetime]:  # type: ignore[no-untyped-def]
    return day(y, m, d, tz), day(y, m, d, tz) + timedelta(days=n)


# --- the conversational phrases the LoCoMo answerer relies on --------------------------------------------
A = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went to the support group yesterday", (*span_days(2023, 5, 7), "day")),
        ("I went there last Saturday", (*span_days(2023, 5, 6), "day")),
        ("we did it the week before", (day(2023, 5, 1), day(2023, 5, 8), "week")),
        ("two weekends ago we camped", (day(2023, 4, 29), day(2023, 5, 1), "day")),
        ("I moved last year", (day(2022, 1, 1), day(2023, 1, 1), "year")),
        ("We went camping in June", (day(2022, 6, 1), day(2022, 7, 1), "month")),
        ("We're going camping in June", (day(2023, 6, 1), day(2023, 7, 1), "month")),
        ("the week before 9 June 2023", (day(2023, 6, 2), day(2023, 6, 9), "week")),
        ("the day before 9 June 2023", (*span_days(2023, 6, 8), "day")),
        ("the weekend before 9 June 2023", (day(2023, 6, 3), day(2023, 6, 5), "day")),
        ("a few days ago", (*span_days(2023, 5, 5), "day")),
        ("three weeks ago", (*span_days(2023, 4, 17), "day")),
        ("2 months ago", (*span_days(2023, 3, 8), "day")),
        ("last week", (day(2023, 5, 1), day(2023, 5, 8), "week")),
        ("next month", (day(2023, 6, 1), day(2023, 7, 1), "month")),
        ("last weekend", (day(2023, 5, 6), day(2023, 5, 8), "day")),
        ("this weekend", (day(2023, 5, 13), day(2023, 5, 15), "day")),
        ("I painted it last summer", (day(2022, 6, 1), day(2022, 9, 1), "season")),
        ("the 90s", (day(1990, 1, 1), day(2000, 1, 1), "decade")),
        ("the 1990s", (day(1990, 1, 1), day(2000, 1, 1), "decade")),
        ("in May 2022", (day(2022, 5, 1), day(2022, 6, 1), "month")),
        ("We met on May 7", (*span_days(2023, 5, 7), "day")),
        ("May 7", (*span_days(2023, 5, 7), "day")),  # no cue, prefer=future, but yesterday x 8 < 365 days ahead
        ("May 9", (*span_days(2023, 5, 9), "day")),
        ("7 May 2023", (*span_days(2023, 5, 7), "day")),
        ("on the 7th of May, 2023", (*span_days(2023, 5, 7), "day")),
        ("5/7/2023", (*span_days(2023, 5, 7), "day")),
        ("2023-05-07", (*span_days(2023, 5, 7), "day")),
        ("in 2022", (day(2022, 1, 1), day(2023, 1, 1), "year")),
        (
            "1:56 pm on 8 May, 2023",
            (datetime(2023, 5, 8, 13, 56, tzinfo=UTC), datetime(2023, 5, 8, 13, 57, tzinfo=UTC), "minute"),
        ),
        ("this morning", (day(2023, 5, 8), datetime(2023, 5, 8, 12, tzinfo=UTC), "hour")),
        ("tomorrow at 5pm", (datetime(2023, 5, 9, 17, tzinfo=UTC), datetime(2023, 5, 9, 18, tzinfo=UTC), "hour")),
        ("the first Monday of June", (*span_days(2023, 6, 5), "day")),
        ("the week before last", (day(2023, 4, 24), day(2023, 5, 1), "week")),
        ("the weekend before last", (day(2023, 4, 29), day(2023, 5, 1), "day")),
        ("I read it over the weekend", (day(2023, 5, 13), day(2023, 5, 15), "day")),  # "read": no tense cue
        ("I finished it over the weekend", (day(2023, 5, 6), day(2023, 5, 8), "day")),
        ("We're going skiing in the winter", (day(2023, 12, 1), day(2024, 3, 1), "season")),
        ("We went skiing in the winter", (day(2022, 12, 1), day(2023, 3, 1), "season")),
        ("the last week of May 2023", (day(2023, 5, 22), day(2023, 5, 29), "week")),
        ("the last day of February 2024", (*span_days(2024, 2, 29), "day")),
        ("a couple of days ago", (*span_days(2023, 5, 6), "day")),
        ("back in 2019", (day(2019, 1, 1), day(2020, 1, 1), "year")),
    ],
)
def test_conversational_phrases(text: str, expected: tuple[datetime, datetime, str]) -> None:
    assert one(text, A) == expected


def test_vague_expressions_have_low_confidence() -> None:
    (recent,) = R.resolve("I've been busy recently", A)
    assert recent.confidence <= 0.3 and recent.start < A < recent.end
    (other,) = R.resolve("I saw her the other day", A)
    assert other.confidence <= 0.5 and other.end == day(2023, 5, 8)
    (before,) = R.resolve("the day before", A)  # no date: falls back on the memory's own day
    assert (before.start, before.end, before.confidence) == (*span_days(2023, 5, 7), 0.4)


def test_durations_are_kept_apart_from_points() -> None:
    refs = R.resolve("I stayed for two weeks", A)
    assert [(r.kind, r.start, r.end, r.grain) for r in refs] == [("duration", A - timedelta(weeks=2), A, "week")]


def test_conversational_false_positives() -> None:
    for text in ("It was the first step.", "That boy is great", "after a day of hiking", "a 10/10 show, 2/3 of us"):
        assert R.resolve(text, A) == [], text
    (now,) = R.resolve("I am now happy", A)
    assert now.confidence <= 0.3
    (fri,) = R.resolve("I saw it last Friday.", A)
    assert fri.text == "last Friday"


def test_may_the_verb_is_not_a_month() -> None:
    assert R.resolve("I may go to the park, we may 2 of us", A) == []
    assert R.resolve("I will sat down", A) == []


# --- month ends, leap days, year boundaries, midnight ---------------------------------------------------
@pytest.mark.parametrize(
    ("text", "anchor", "expected"),
    [
        ("a month ago", day(2023, 3, 31), (*span_days(2023, 2, 28), "day")),
        ("a month ago", day(2024, 3, 31), (*span_days(2024, 2, 29), "day")),
        ("in a month", day(2023, 1, 31), (*span_days(2023, 2, 28), "day")),
        ("next month", day(2023, 1, 31), (day(2023, 2, 1), day(2023, 3, 1), "month")),
        ("last month", day(2023, 3, 31), (day(2023, 2, 1), day(2023, 3, 1), "month")),
        # leap day: "a year ago" is month grain (the year-ago month), 12 months ago clamps to 28 Feb
        ("a year ago", day(2024, 2, 29), (day(2023, 2, 1), day(2023, 3, 1), "month")),
        ("12 months ago", day(2024, 2, 29), (*span_days(2023, 2, 28), "day")),
        ("365 days ago", day(2024, 2, 29), (*span_days(2023, 3, 1), "day")),
        ("yesterday", day(2024, 3, 1), (*span_days(2024, 2, 29), "day")),
        ("Feb 29, 2024", day(2024, 6, 1), (*span_days(2024, 2, 29), "day")),
        # year boundaries
        ("last week", day(2024, 1, 2), (day(2023, 12, 25), day(2024, 1, 1), "week")),
        ("next month", day(2023, 12, 15), (day(2024, 1, 1), day(2024, 2, 1), "month")),
        ("last year", day(2024, 1, 1), (day(2023, 1, 1), day(2024, 1, 1), "year")),
        ("next week", day(2023, 12, 28), (day(2024, 1, 1), day(2024, 1, 8), "week")),
        ("this winter", day(2024, 1, 15), (day(2023, 12, 1), day(2024, 3, 1), "season")),
        ("last December", day(2024, 1, 5), (day(2023, 12, 1), day(2024, 1, 1), "month")),
        # sessions just after midnight
        ("yesterday", datetime(2023, 5, 8, 0, 5, tzinfo=UTC), (*span_days(2023, 5, 7), "day")),
        ("today", datetime(2023, 5, 8, 0, 5, tzinfo=UTC), (*span_days(2023, 5, 8), "day")),
        ("yesterday", datetime(2024, 1, 1, 0, 5, tzinfo=TZ), (*span_days(2023, 12, 31, tz=TZ), "day")),
        (
            "last night",
            datetime(2023, 5, 8, 0, 5, tzinfo=UTC),
            (datetime(2023, 5, 7, 18, tzinfo=UTC), day(2023, 5, 8), "hour"),
        ),
    ],
)
def test_calendar_edges(text: str, anchor: datetime, expected: tuple[datetime, datetime, str]) -> None:
    assert one(text, anchor) == expected


def test_intervals_stay_in_the_anchors_timezone() -> None:
    anchor = datetime(2013, 2, 12, 4, 30, tzinfo=TZ)
    (ref,) = R.resolve("yesterday", anchor)
    assert ref.start == day(2013, 2, 11, TZ) and ref.start.utcoffset() == timedelta(hours=-2)


def test_invalid_dates_are_skipped_not_raised() -> None:
    assert R.resolve("Feb 30, 2023", A) == [] or all(r.start < r.end for r in R.resolve("Feb 30, 2023", A))
    assert R.resolve("13/13/2023", A) == []


# --- weekday arithmetic: every anchor weekday x every target weekday x last/this/next -------------------
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONDAY = datetime(2023, 5, 8, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize("anchor_wd", range(7))
@pytest.mark.parametrize("target", range(7))
def test_weekday_arithmetic(anchor_wd: int, target: int) -> None:
    anchor = MONDAY + timedelta(days=anchor_wd)
    today = anchor.replace(hour=0, minute=0)
    week = today - timedelta(days=anchor_wd)
    name = WEEKDAYS[target]
    last = one(f"last {name}", anchor)[0]
    assert last == today - timedelta(days=(anchor_wd - target) % 7 or 7)  # most recent strictly before today
    nxt = one(f"next {name}", anchor)[0]
    assert nxt == week + timedelta(weeks=1, days=target)  # that day of the next ISO week
    # with a tense cue: the nearest that day or after (future) / that day or before (past): the anchor's own
    # weekday is the anchor's day ("said Friday" in an article dated Friday)
    this_future = one(f"I will see her this {name}", anchor)[0]
    assert this_future == today + timedelta(days=(target - anchor_wd) % 7)
    this_past = one(f"I saw her this {name}", anchor)[0]
    assert this_past == today - timedelta(days=(anchor_wd - target) % 7)
    on_past = one(f"We went hiking on {name}", anchor)[0]
    assert on_past == this_past
    of_this = one(f"{name} of this week", anchor)[0]
    assert of_this == week + timedelta(days=target)
    for got in (last, nxt, this_future, this_past, of_this):
        assert got.weekday() == target


@pytest.mark.parametrize("anchor_wd", range(7))
def test_last_week_is_the_previous_iso_week(anchor_wd: int) -> None:
    anchor = MONDAY + timedelta(days=anchor_wd, hours=13)
    monday = MONDAY.replace(hour=0)
    assert one("last week", anchor) == (monday - timedelta(weeks=1), monday, "week")
    assert one("this week", anchor) == (monday, monday + timedelta(weeks=1), "week")
    assert one("next week", anchor) == (monday + timedelta(weeks=1), monday + timedelta(weeks=2), "week")
    assert one("last weekend", anchor) == (monday - timedelta(days=2), monday, "day")


def test_direction_default_is_configurable() -> None:
    past = RulesResolver(default_direction="past")
    anchor = datetime(2023, 5, 10, tzinfo=UTC)  # Wednesday
    assert one("Saturday", anchor, past)[0] == day(2023, 5, 6)
    assert one("Saturday", anchor)[0] == day(2023, 5, 13)
    assert one("on the 5th", anchor, past)[0] == day(2023, 5, 5)
    assert one("on the 5th", anchor)[0] == day(2023, 6, 5)


def test_min_confidence_filters() -> None:
    assert RulesResolver(min_confidence=0.5).resolve("recently", A) == []


# --- a point with a length, and a timezone on one end of a range -----------------------------------------
T16 = day(2023, 5, 9) + timedelta(hours=16)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # read as "from X to X + length", the end point included at its grain like every range here
        ("4pm for 30 mins", (A.replace(hour=16, minute=0), A.replace(hour=16, minute=31), "minute")),
        ("tomorrow at 4pm for 30 mins", (T16, T16 + timedelta(minutes=31), "minute")),
        ("from 18th Dec for 10 days", (day(2023, 12, 18), day(2023, 12, 29), "day")),
        ("for 10 days from 18th Dec", (day(2023, 12, 18), day(2023, 12, 29), "day")),
        ("for 3 days starting on May 20", (day(2023, 5, 20), day(2023, 5, 24), "day")),
        # a point coarser than the length keeps its own reading
        ("we met on Monday for 2 hours", (*span_days(2023, 5, 8), "day")),  # said on a Monday: that Monday
        ("we went to Japan in May for two weeks", (day(2023, 5, 1), day(2023, 6, 1), "month")),
    ],
)
def test_point_with_a_length(text: str, expected: tuple[datetime, datetime, str]) -> None:
    assert one(text, A) == expected


def test_a_length_never_takes_a_weekdays_place() -> None:
    """``last Friday for 3 days`` starts on that Friday; the length is not relabelled as the weekday's date."""
    (ref,) = R.resolve("we camped last Friday for 3 days", A)
    assert (ref.kind, ref.start, ref.end) == ("point", day(2023, 5, 5), day(2023, 5, 9))
    assert [r.kind for r in R.resolve("I worked for 3 days", A)] == ["duration"]


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("9h30 - 11h00 CST", (15, 30), (17, 1)),  # CST = UTC-6, the anchor is UTC: both ends move
        ("9:30 - 11:00 CST", (15, 30), (17, 1)),
        ("3pm - 4pm GMT", (15, 0), (16, 1)),
    ],
)
def test_a_timezone_after_a_range_applies_to_both_ends(text: str, start: tuple[int, int], end: tuple[int, int]) -> None:
    s, e, grain = one(text, A)
    assert (s.hour, s.minute, e.hour, e.minute, grain) == (*start, *end, "minute")
