"""temporal=rules reads the sentence: tense cues, the anchor's own weekday, year choice, years, modifiers,
quarters, holidays and zones. Every expected date is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlab.benchmarks.temporal_norm.scoring import choose
from memlab.core.types import TemporalRef
from memlab.strategies.temporal.rules import RulesResolver

R = RulesResolver()


def d(y: int, m: int, day: int, h: int = 0, mi: int = 0) -> datetime:
    return datetime(y, m, day, h, mi, tzinfo=UTC)


def ref(text: str, phrase: str, anchor: datetime, resolver: RulesResolver = R) -> TemporalRef:
    """The reference standing for ``phrase`` (its first occurrence) in ``text``."""
    i = text.index(phrase)
    got = choose(resolver.resolve(text, anchor), (i, i + len(phrase)))
    assert got is not None, f"nothing for {phrase!r} in {text!r}"
    return got


def start(text: str, phrase: str, anchor: datetime, resolver: RulesResolver = R) -> datetime:
    return ref(text, phrase, anchor, resolver).start


WED = d(2023, 5, 10, 12)  # a Wednesday; the Friday before is 5 May, the one after 12 May


# --- tense cues decide the direction ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I will see him Friday.", d(2023, 5, 12)),  # will: the coming Friday
        ("I saw him Friday.", d(2023, 5, 5)),  # saw: the Friday before
        ("She says Friday works.", d(2023, 5, 12)),  # present: the nearer one (2 days ahead, 5 back)
        ("The vote is scheduled for Friday.", d(2023, 5, 12)),  # scheduled for: future
        ("The report was released Friday.", d(2023, 5, 5)),  # an -ed verb
        # the cue nearest the expression governs, not any cue in the sentence
        ("Exiles will appeal the ruling, the paper reported Friday.", d(2023, 5, 5)),
    ],
)
def test_tense_cue_decides_the_weekday(text: str, expected: datetime) -> None:
    assert start(text, "Friday", WED) == expected


def test_prefer_applies_only_without_a_cue() -> None:
    assert start("Friday", "Friday", WED) == d(2023, 5, 12)  # default prefer=future
    assert start("Friday", "Friday", WED, RulesResolver(prefer="past")) == d(2023, 5, 5)
    assert start("Friday", "Friday", WED, RulesResolver(prefer="nearest")) == d(2023, 5, 12)  # 2 ahead < 5 back
    assert start("I saw him Friday.", "Friday", WED, RulesResolver(prefer="future")) == d(2023, 5, 5)
    assert RulesResolver(default_direction="past").resolve("Friday", WED)[0].start == d(2023, 5, 5)  # v1 name


# --- a weekday equal to the anchor's own --------------------------------------------------------------------
FRI = d(1998, 8, 7, 12)  # a Friday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Witnesses said Friday that two bombs exploded.", d(1998, 8, 7)),  # that very Friday
        ("Talks will resume Friday.", d(1998, 8, 7)),  # a cue: the anchor's day too
        ("Friday", d(1998, 8, 14)),  # no cue, prefer=future: the assistant's "Friday" is next week's
        ("next Friday", d(1998, 8, 14)),  # the Friday of next week
        ("last Friday", d(1998, 7, 31)),  # strictly before
        ("Friday's edition of the paper", d(1998, 8, 7)),  # a possessive reads nearest: that day
    ],
)
def test_the_anchors_own_weekday(text: str, expected: datetime) -> None:
    assert start(text, "Friday", FRI) == expected


# --- month and month-day without a year: the nearest plausible occurrence given the tense -------------------
@pytest.mark.parametrize(
    ("text", "phrase", "anchor", "expected"),
    [
        # no cue: 6 days back (x 8 = 48) beats 359 days ahead
        ("The incidents of Aug. 7 underscore the danger.", "Aug. 7", d(1998, 8, 13, 12), d(1998, 8, 7)),
        ("JOHANNESBURG, August 7 (Xinhua) --", "August 7", d(1998, 8, 8, 12), d(1998, 8, 7)),  # a dateline
        # "will arrive": a strong future cue is a wall
        ("The envoy will arrive on Aug. 7.", "Aug. 7", d(1998, 8, 13, 12), d(1999, 8, 7)),
        # an infinitive is a weak future lean: 34 days ahead x 1 < 331 days back x 4
        ("He subpoenaed the boy to testify on Feb. 10.", "Feb. 10", d(2000, 1, 7, 12), d(2000, 2, 10)),
        # a strong past verb: last December even though this one is 36 days away
        ("The firm changed its fiscal year in December.", "December", d(1989, 10, 26, 12), d(1988, 12, 1)),
        ("We went camping in June.", "June", d(2023, 5, 25, 12), d(2022, 6, 1)),
        ("We will go there in April.", "April", d(2023, 5, 8, 12), d(2024, 4, 1)),
        # "effective" + date: a weak future lean
        ("The merger is effective Feb. 1.", "Feb. 1", d(1989, 10, 26, 12), d(1990, 2, 1)),
        # a month followed by a year expression moves into that year
        ("The process began in February this year.", "February", d(1998, 12, 3, 12), d(1998, 2, 1)),
    ],
)
def test_year_choice(text: str, phrase: str, anchor: datetime, expected: datetime) -> None:
    assert start(text, phrase, anchor) == expected


# --- years ---------------------------------------------------------------------------------------------------
A = d(2000, 1, 7, 12)


def test_bare_years() -> None:
    law = ref("A 1996 law strengthened the 1959 embargo.", "1996", A)
    assert (law.start, law.end, law.grain) == (d(1996, 1, 1), d(1997, 1, 1), "year")
    assert start("A 1996 law strengthened the 1959 embargo.", "1959", A) == d(1959, 1, 1)
    both = R.resolve("The number declined in 1982 and 1992.", A)  # a list, not a range
    assert [(r.text, r.start.year) for r in both] == [("in 1982", 1982), ("1992", 1992)]
    (span,) = R.resolve("It grew between 1982 and 1992.", A)  # "between ... and": a range
    assert (span.start, span.end) == (d(1982, 1, 1), d(1993, 1, 1))
    for text in ("It cost $1990.", "About 1,990 people came.", "1990 people came.", "It is 2000 feet high."):
        assert R.resolve(text, A) == [], text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It was overturned in nineteen ninety-six.", (d(1996, 1, 1), d(1997, 1, 1), "year")),
        ("the year two thousand and one", (d(2001, 1, 1), d(2002, 1, 1), "year")),
        ("in the nineteen-nineties", (d(1990, 1, 1), d(2000, 1, 1), "decade")),
        ("in the late 1980s", (d(1987, 1, 1), d(1990, 1, 1), "year")),  # late = the decade's years 7-9
        ("the early nineties", (d(1990, 1, 1), d(1994, 1, 1), "year")),  # early = years 0-3
        ("Profit in fiscal 1990 rose.", (d(1990, 1, 1), d(1991, 1, 1), "year")),  # calendar reading
        ("FY89 results", (d(1989, 1, 1), d(1990, 1, 1), "year")),
    ],
)
def test_spelled_out_years_decades_and_fiscal_years(text: str, expected: tuple) -> None:
    (got,) = [r for r in R.resolve(text, A) if r.kind == "point"]
    assert (got.start, got.end, got.grain) == expected


# --- modifiers as sub-intervals --------------------------------------------------------------------------
OCT89 = d(1989, 10, 26, 12)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hewlett plans to ship it early next year.", (d(1990, 1, 1), d(1990, 4, 1))),  # year begin = Jan-Mar
        ("The boat sank in late November.", (d(1988, 11, 21), d(1988, 12, 1))),  # sank: last November, days 21+
        ("It expects results in mid-November.", (d(1989, 11, 11), d(1989, 11, 21))),  # month mid = days 11-20
        ("They hope to finish at the end of 1990.", (d(1990, 9, 1), d(1991, 1, 1))),  # year end = Sep-Dec
        ("Construction starts in early 1991.", (d(1991, 1, 1), d(1991, 4, 1))),
        ("in the middle of October", (d(1989, 10, 11), d(1989, 10, 21))),
    ],
)
def test_modifiers_are_sub_intervals(text: str, expected: tuple[datetime, datetime]) -> None:
    got = max(R.resolve(text, OCT89), key=lambda r: r.span[1] - r.span[0])
    assert (got.start, got.end) == expected


def test_or_later_is_read_on_its_boundary() -> None:
    (got,) = R.resolve("Delivery is planned for 1994 or later.", OCT89)
    assert (got.text, got.start, got.end) == ("1994 or later", d(1994, 1, 1), d(1995, 1, 1))
    assert got.confidence <= 0.8


# --- quarters, halves, first months -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "phrase", "expected"),
    [
        ("Du Pont reported third-quarter profit rose.", "third-quarter", (d(1989, 7, 1), d(1989, 10, 1))),
        ("It expects to report earnings for the third quarter.", "third quarter", (d(1989, 7, 1), d(1989, 10, 1))),
        ("Sales in the fourth quarter will rise.", "fourth quarter", (d(1989, 10, 1), d(1990, 1, 1))),  # now
        ("Sales in the latest quarter rose.", "latest quarter", (d(1989, 7, 1), d(1989, 10, 1))),
        ("In the 1988 third quarter, it lost money.", "1988 third quarter", (d(1988, 7, 1), d(1988, 10, 1))),
        ("It could start in next year's first quarter.", "first quarter", (d(1990, 1, 1), d(1990, 4, 1))),
        ("The fiscal second-quarter net rose.", "second-quarter", (d(1989, 4, 1), d(1989, 7, 1))),
        ("Q2 2023 revenue", "Q2 2023", (d(2023, 4, 1), d(2023, 7, 1))),
        ("in the first half of 1989", "first half", (d(1989, 1, 1), d(1989, 7, 1))),
        ("Profit rose in the first nine months.", "first nine months", (d(1989, 1, 1), d(1989, 10, 1))),
    ],
)
def test_quarters_and_halves(text: str, phrase: str, expected: tuple[datetime, datetime]) -> None:
    got = ref(text, phrase, OCT89)
    assert (got.start, got.end) == expected


# --- holidays -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "phrase", "anchor", "expected"),
    [
        # the fourth Thursday of November 1999 is the 25th; "was found" points back from January 2000
        ("Elian was found Thanksgiving Day at sea.", "Thanksgiving Day", A, (d(1999, 11, 25), d(1999, 11, 26))),
        ("Christmas 2013", "Christmas", A, (d(2013, 12, 25), d(2013, 12, 26))),
        # Easter 2000 was 23 April: its ISO week runs 17-24 April
        (
            "Protesters prayed as Easter week began.",
            "Easter week",
            d(2000, 4, 17, 12),
            (d(2000, 4, 17), d(2000, 4, 24)),
        ),
        ("Good Friday 2024", "Good Friday", A, (d(2024, 3, 29), d(2024, 3, 30))),  # Easter 2024: 31 March
        # the Tuesday after the first Monday of November 1998 (the 2nd) is the 3rd
        ("a theme from now to Election Day", "Election Day", d(1998, 10, 26, 12), (d(1998, 11, 3), d(1998, 11, 4))),
        ("We met last Christmas.", "Christmas", A, (d(1999, 12, 25), d(1999, 12, 26))),
    ],
)
def test_holidays(text: str, phrase: str, anchor: datetime, expected: tuple[datetime, datetime]) -> None:
    got = ref(text, phrase, anchor)
    assert (got.start, got.end) == expected


# --- explicit zones -----------------------------------------------------------------------------------------
def test_explicit_zones_are_converted_to_the_anchors_zone() -> None:
    anchor = d(2000, 4, 5, 12)  # a Wednesday, UTC
    # 18:40 at GMT+8 is 10:40 UTC; "landed" points back to Friday 31 March
    got = ref("The plane landed at 6:40 p.m. (GMT +8) on Friday.", "6:40 p.m.", anchor)
    assert (got.start, got.end, got.grain) == (d(2000, 3, 31, 10, 40), d(2000, 3, 31, 10, 41), "minute")
    assert start("at 9:30 UTC-05:30", "9:30", anchor) == d(2000, 4, 5, 15)  # 9:30 + 5:30
    assert start("at 3pm EST", "3pm", anchor) == d(2000, 4, 5, 20)
    eastern = datetime(2000, 4, 5, 12, tzinfo=UTC).astimezone(__import__("datetime").timezone(timedelta(hours=-4)))
    assert start("at 4 a.m. EDT", "4 a.m.", eastern).hour == 4  # same zone as the anchor: unchanged


def test_every_holiday_name_is_found() -> None:
    from memlab.text.temporal.rules_holidays import NAMES, holiday

    for name in NAMES:
        text = f"{name.title()} 2014"
        (got,) = R.resolve(text, A)
        day = holiday(name, 2014)
        assert (got.text, got.start.date()) == (text, day), name
