"""The standard-library front-matter reader agrees with PyYAML on everything it accepts."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest
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
        '"a: b \\"c\\" \\\\ \\t \\x41 \\u00e9 \\U0001F600 \\N \\e \\/ \\ x"',
        '"\\ud83d\\ude00"',
        '"\\U00110000"',
        '"bad" x',
        '"\\q"',
        '" pad"',
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


# The reader as first written (one check per rule, no shortcut): the faster one must agree with it exactly.
_REF_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_REF_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})?\Z")
_REF_BAD_START = frozenset("-?:,[]{}#&*!|>'\"%@`~=<.+0123456789 \t")
_REF_WORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})


def _ref_plain(value: str) -> str | None:
    if (
        not value
        or value[0] in _REF_BAD_START
        or value != value.strip()
        or ": " in value
        or " #" in value
        or value.endswith(":")
        or "\t" in value
        or not value.isprintable()
        or (not value.isascii() and any(ch in value for ch in "\ufeff\u2028\u2029\x85"))
        or value.lower() in _REF_WORDS
    ):
        return None
    return value


_REF_ESCAPES = dict(zip('0abtnvfre "/\\N_LP', '\0\a\b\t\n\v\f\r\x1b "/\\\x85\xa0\u2028\u2029', strict=True))


def _ref_double(inner: str) -> str | None:
    if inner != inner.strip(" "):
        return None
    out, i = [], 0
    while i < len(inner):
        ch = inner[i]
        if ch == '"' or (ch != "\\" and not ch.isprintable()):
            return None
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        code = inner[i + 1 : i + 2]
        if code in _REF_ESCAPES:
            out.append(_REF_ESCAPES[code])
            i += 2
            continue
        width = {"x": 2, "u": 4, "U": 8}.get(code, 0)
        digits = inner[i + 2 : i + 2 + width]
        if not width or len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
            return None
        point = int(digits, 16)
        if 0xD800 <= point <= 0xDFFF or point > 0x10FFFF:
            return None
        out.append(chr(point))
        i += 2 + width
    return "".join(out)


def _ref_scalar(value: str) -> str | None:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return _ref_double(value[1:-1])
    if len(value) >= 2 and value[0] == value[-1] == "'":
        inner = value[1:-1]
        if "'" in inner.replace("''", "") or not inner.isprintable() or inner != inner.strip(" "):
            return None
        return inner.replace("''", "'")
    return _ref_plain(value)


def _ref_read_simple(text: str) -> dict | None:
    out: dict = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        key, sep, rest = lines[i].partition(":")
        if not sep or not _REF_KEY.match(key) or key.lower() in _REF_WORDS or (rest and rest[0] != " "):
            return None
        rest = rest[1:]
        if not rest:
            items = []
            while i + 1 < len(lines) and lines[i + 1].startswith("- "):
                item = _ref_scalar(lines[i + 1][2:])
                if item is None:
                    return None
                items.append(item)
                i += 1
            out[key] = items or None
        elif key == "timestamp" and _REF_ISO.match(rest):
            out[key] = datetime.fromisoformat(rest.replace("Z", "+00:00"))
        else:
            value = _ref_scalar(rest)
            if value is None:
                return None
            out[key] = value
        i += 1
    return out


#: Characters where the rules turn: blanks and breaks of every kind, indicators, quotes, case-folding letters.
_EDGE = st.sampled_from(
    [
        *" \t\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u3000\ufeff\x00\x7f:#-'\"?[]{}&*!|>%@`~=<.+",
        *["İ", "K", "ß", "é", "0", "9", "a", "Z", "_", ": ", " #", "''", "\n", "\n- ", "\n-", "\nk:", "\n  x: ["],
    ]
)
_EDGE_TEXT = st.lists(st.one_of(_EDGE, st.characters(blacklist_categories=("Cs",))), max_size=24).map("".join)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        FRONT,
        st.text(max_size=60),
        st.lists(st.tuples(KEYS, st.one_of(_EDGE_TEXT, st.lists(_EDGE_TEXT, max_size=3))), max_size=6).map(
            lambda pairs: "\n".join(_line(p) for p in pairs)
        ),
        _EDGE_TEXT.map(lambda v: f"summary: {v}"),
        _EDGE_TEXT.map(lambda v: f"summary: a{v}"),
        _EDGE_TEXT.map(lambda v: f"tags:\n- {v}\n- '{v}'"),
        _EDGE_TEXT.map(lambda v: f"summary: {json.dumps(v, ensure_ascii=False)}"),
        _EDGE_TEXT.map(lambda v: f"summary: {json.dumps(v)}"),
        _EDGE_TEXT.map(lambda v: f'summary: "{v}"'),
    )
)
def test_the_reader_agrees_exactly_with_its_reference(text):
    ours, ref = read_simple(text), _ref_read_simple(text)
    assert ours == ref, (text, ours, ref)
    assert ours is None or all(type(ours[k]) is type(ref[k]) for k in ours)


@pytest.mark.parametrize(
    "text",
    [
        "summary: it's: fine",
        "summary: a #b",
        "summary: x:",
        "summary: trail ",
        "summary: tab\there",
        "summary: \ufeffbom",
        "summary: a\u2028b",
        "summary: a\x85b",
        "summary: a\u3000",
        "summary: NULL",
        "summary: Yes",
        "summary: ÿes",
        "summary: 'q'",
        "summary: 'it''s'",
        "summary: ' pad'",
        "summary: 'a'b'",
        'summary: "a\\"b"',
        'summary: "tail\\"',
        'summary: "\\x4"',
        'summary: "\\UFFFFFFFF"',
        'summary: "\\uDBFF"',
        'summary: "\\u00e9\\N"',
        "summary: '",
        "summary: ''",
        "summary: é ü — ok",
        "summary:",
        "summary: ",
        "summary:x",
        "on: x",
        "x-y: z",
        "tags:\n- a\n- 'b: c'\n- ''",
        "tags:\n-a",
        "tags:\n- [a]",
        "timestamp: 2025-12-20T10:00:00Z",
        "timestamp: 2025-12-20T10:00:00.5+01:00",
        "timestamp: 2025-12-20",
        "a:\n  b:\n    c: [[[[",
        "[" * 200,
        "k: " + "[" * 200,
    ],
)
def test_adversarial_front_matter_reads_as_the_reference_reads_it(text):
    assert read_simple(text) == _ref_read_simple(text)
