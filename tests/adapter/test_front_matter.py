"""The standard-library front-matter reader agrees with PyYAML on everything it accepts."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlab.adapter.front_matter import read_simple

KEYS = st.sampled_from(["type", "timestamp", "summary", "tags", "spec", "on", "Yes", "null", "a_b", "x-y", "1a", "k"])
TRICKY = st.sampled_from(
    [
        "decisions",
        "2025-12-20T10:00:00+00:00",
        "2025-12-20T10:00:00Z",
        "2025-12-20T10:00:00.5",
        "2025-12-20",
        "12",
        "1e5",
        "0x1F",
        "1_000",
        "190:20:30",
        ".inf",
        "~",
        "null",
        "yes",
        "No",
        "on",
        "y",
        "=",
        "<<",
        "a: b",
        "a #b",
        "a#b",
        "a:b",
        "x:",
        "'quoted'",
        "'it''s'",
        "'bad' x",
        '"dq"',
        "&anchor",
        "*alias",
        "!tag",
        "|",
        ">",
        "-",
        "- x",
        "? x",
        "[a]",
        "{a: 1}",
        "%x",
        "@x",
        "`x",
        "é ü",
        "a\u00a0b",
        "tab\there",
        " lead",
        "trail ",
        "Use FastAPI — for the API",
        "true story",
        "None",
        "NaN",
        ".nan",
        "+1",
        "-1",
        "0o17",
        "1:2",
    ]
)
VALUES = st.one_of(TRICKY, st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20))


def _line(pair: tuple[str, object]) -> str:
    key, value = pair
    if isinstance(value, list):
        return "\n".join([f"{key}:", *(f"- {v}" for v in value)])
    return f"{key}: {value}" if value != "" else f"{key}:"


FRONT = st.lists(st.tuples(KEYS, st.one_of(VALUES, st.lists(VALUES, max_size=3))), max_size=6).map(
    lambda pairs: "\n".join(_line(p) for p in pairs)
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(FRONT, st.text(max_size=60)))
def test_whatever_the_reader_accepts_pyyaml_reads_the_same(text):
    ours = read_simple(text)
    if ours is None:
        return
    theirs = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert ours == theirs, (text, ours, theirs)
    assert all(type(ours[k]) is type(theirs[k]) for k in ours)


def test_what_git_notes_memory_writes_is_read_without_pyyaml():
    text = "type: decisions\ntimestamp: 2025-12-20T10:00:00+00:00\nsummary: Use Flask for the API\ntags:\n- web\n- api"
    front = read_simple(text)
    assert front is not None and front["summary"] == "Use Flask for the API" and front["tags"] == ["web", "api"]
    quoted = "type: decisions\ntimestamp: '2025-12-20T10:00:00+00:00'\nsummary: 'Use: it''s fine'"
    assert read_simple(quoted) == {
        "type": "decisions",
        "timestamp": "2025-12-20T10:00:00+00:00",
        "summary": "Use: it's fine",
    }
    assert read_simple("summary: [a, b]") is None and read_simple("on: x") is None
