"""Every gold date equals the date the expression implies at the mentioning session's day.

The resolver here is written independently of the generator (string matching plus day-by-day search),
so a wrong convention in either shows up as a mismatch.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from memlab.data.locomo_synth.config import SynthConfig
from memlab.data.locomo_synth.expressions import KINDS
from memlab.data.locomo_synth.generator import generate

from .helpers import parse_stamp, turns_by_id

WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
D = timedelta(days=1)


def text(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def num(word: str) -> int:
    return WORDS.get(word) or int(word)


def month_span(a: date, delta: int) -> tuple[date, date, str]:
    first = a.replace(day=1)
    for _ in range(abs(delta)):
        first = (first - D).replace(day=1) if delta < 0 else (first + 32 * D).replace(day=1)
    nxt = (first + 32 * D).replace(day=1)
    return first, nxt, f"{MONTHS[first.month - 1]} {first.year}"


def latest_day(a: date, month: int, day: int) -> date:
    return max(date(y, month, day) for y in (a.year - 1, a.year) if date(y, month, day) < a)


def month_day(s: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+) (\w+)|(\w+) (\d+)(?:st|nd|rd|th)?", s)
    return (MONTHS.index(m[2]) + 1, int(m[1])) if m[1] else (MONTHS.index(m[3]) + 1, int(m[4]))


def resolve(phrase: str, a: date) -> tuple[date, date, str]:
    """(start, end, LoCoMo answer) implied by ``phrase`` said on day ``a``."""
    if phrase in ("this morning", "earlier today", "today"):
        return a, a + D, text(a)
    if phrase.startswith("yesterday") or phrase == "last night":
        return a - D, a, text(a - D)
    if m := re.fullmatch(r"(\w+) days ago", phrase):
        day = a - num(m[1]) * D
        return day, day + D, text(day)
    if m := re.fullmatch(r"(?:last|on|this past) (\w+day)", phrase):
        day = next(a - k * D for k in range(1, 8) if (a - k * D).weekday() == WEEKDAYS.index(m[1]))
        return day, day + D, f"The {m[1]} before {text(a)}"
    if m := re.fullmatch(r"on (.+)", phrase):
        day = latest_day(a, *month_day(m[1]))
        return day, day + D, text(day)
    if phrase.endswith("last week"):
        return a - 7 * D, a, f"The week before {text(a)}"
    if m := re.fullmatch(r"(\w+) weeks ago", phrase):
        target = a - 7 * num(m[1]) * D
        monday = date.fromisocalendar(*target.isocalendar()[:2], 1)
        return monday, monday + 7 * D, f"The week of {text(monday)}"
    if m := re.fullmatch(r"the week before (.+)", phrase):
        ref = latest_day(a, *month_day(m[1]))
        return ref - 7 * D, ref, f"The week before {text(ref)}"
    if phrase in ("last weekend", "over the weekend", "this past weekend"):
        sat = next(a - k * D for k in range(1, 8) if (a - k * D).weekday() == 5)
        return sat, sat + 2 * D, f"The weekend before {text(a)}"
    if phrase.endswith("last month"):
        return month_span(a, -1)
    if m := re.fullmatch(r"(\w+) months ago", phrase):
        return month_span(a, -num(m[1]))
    if m := re.fullmatch(r"(?:in|back in) (\w+)", phrase):
        back = next(k for k in range(1, 13) if month_span(a, -k)[0].month == MONTHS.index(m[1]) + 1)
        return month_span(a, -back)
    if phrase.endswith("next month"):
        return month_span(a, 1)
    if phrase in ("last summer", "this past summer"):
        year = max(y for y in (a.year - 1, a.year) if date(y, 9, 1) <= a)
        return date(year, 6, 1), date(year, 9, 1), f"Summer {year}"
    if m := re.fullmatch(r"(?:last|sometime last) year|(\w+) years ago", phrase):
        year = a.year - (num(m[1]) if m[1] else 1)
        return date(year, 1, 1), date(year + 1, 1, 1), str(year)
    raise AssertionError(f"test resolver does not know {phrase!r}")


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_gold_matches_independent_resolution(seed):
    data, gold = generate(SynthConfig(seed=seed, n_conversations=4))
    convs = {c["sample_id"]: c for c in data}
    kinds = set()
    for item in gold["items"]:
        conv = convs[item["sample_id"]]
        stamp = conv["conversation"][f"session_{item['session']}_date_time"]
        anchor = parse_stamp(stamp).date()
        start, end, answer = resolve(item["phrase"], anchor)
        assert (item["start"], item["end"]) == (start.isoformat(), end.isoformat()), item
        assert item["answer"] == answer == conv["qa"][item["qa_index"]]["answer"]
        assert item["start"] <= item["event_date"] < item["end"]
        assert (item["event_date"] > item["anchor"]) == item["future"]
        turn = turns_by_id(conv["conversation"])[item["mention"]]
        assert item["phrase"].lower() in turn["text"].lower()
        assert re.match(rf"When (did|is) {re.escape(turn['speaker'])} ", item["question"])
        kinds.add(item["kind"])
    assert len(kinds) >= 12


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_alone_resolves_independently(kind):
    data, gold = generate(SynthConfig(seed=11, n_conversations=2, expression_mix={kind: 1.0}))
    convs = {c["sample_id"]: c for c in data}
    assert gold["items"], kind
    for item in gold["items"]:
        assert item["kind"] == kind
        stamp = convs[item["sample_id"]]["conversation"][f"session_{item['session']}_date_time"]
        start, end, answer = resolve(item["phrase"], parse_stamp(stamp).date())
        assert (item["start"], item["end"], item["answer"]) == (start.isoformat(), end.isoformat(), answer)


def test_sessions_after_midnight_use_their_own_calendar_day():
    data, gold = generate(SynthConfig(seed=0, n_conversations=5, expression_mix={"yesterday": 1.0}))
    convs = {c["sample_id"]: c for c in data}
    late = [
        i
        for i in gold["items"]
        if parse_stamp(convs[i["sample_id"]]["conversation"][f"session_{i['session']}_date_time"]).hour == 0
    ]
    assert late
    for item in late:
        assert date.fromisoformat(item["start"]) == date.fromisoformat(item["anchor"]) - D
