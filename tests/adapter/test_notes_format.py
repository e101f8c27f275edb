"""The note format: splitting rule, parsing, writing, content ids."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.adapter.notes_format import format_memory, memory_id, parse_note, split_note, stripspace
from tests.adapter.conftest import upstream_memory


def test_body_with_rules_and_nested_front_matter_stays_whole():
    body = "## A\n\n---\n\ntext\n\n---\ndocument_type: retrospective\n---\n\nend"
    note = (
        upstream_memory("decisions", "2025-12-20T10:00:00+00:00", "s1", body)
        + "\n"
        + upstream_memory("decisions", "2025-12-21T10:00:00+00:00", "s2", "b2")
    )
    good, bad = parse_note(note, "decisions")
    assert bad == []
    assert [m.summary for m in good] == ["s1", "s2"]
    assert good[0].content == body
    assert good[0].timestamp == datetime(2025, 12, 20, 10, tzinfo=UTC)


def test_bad_chunks_are_reported_not_fatal():
    note = (
        "garbage before\n\n" + upstream_memory("d", "2025-12-20T10:00:00+00:00", "ok", "b") + "\n---\ntype: [x\n---\n"
    )
    good, bad = parse_note(note, "d")
    assert [m.summary for m in good] == ["ok"]
    assert len(bad) == 2


def test_memory_without_timestamp_is_skipped():
    good, bad = parse_note("---\ntype: d\nsummary: s\n---\n\nbody\n", "d")
    assert good == [] and "timestamp" in bad[0]


def test_split_first_line_only_when_type_follows():
    assert len(split_note("---\ntype: a\ntimestamp: 1\n---\n\nx\n\n---\ntype: b\n---\n")) == 2
    assert len(split_note("---\ntype: a\ntimestamp: 1\n---\nx\n---\ntype: b\n---\n")) == 1


def test_id_is_content_hash():
    assert memory_id("a", "b") == memory_id(" a ", "b\n")
    assert memory_id("a", "b") != memory_id("a", "c")


lines = st.sampled_from(["---", "type: x", "", "text", "  ---", "# h", "- item", "timestamp: 3", "a: b"])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(lines, min_size=1, max_size=12).map("\n".join).filter(lambda s: s.strip()),
    st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(
        lambda s: s.strip()
    ),
)
def test_written_memory_reads_back_as_one(body, summary):
    ts = datetime(2025, 12, 20, 10, tzinfo=UTC)
    text = format_memory("decisions", ts, summary, body, ("a",))
    twice = text + "\n" + text
    good, bad = parse_note(twice, "decisions")
    assert bad == []
    assert len(good) == 2
    assert good[0].summary == summary.strip()
    assert good[0].timestamp == ts
    assert good[0].tags == ("a",)
    assert stripspace(good[0].content) == good[0].content


def _reference_split(text: str) -> list[str]:
    """The list-based splitting rule the streaming splitter replaced (kept as the oracle)."""
    lines = text.replace("\r\n", "\n").split("\n")
    starts = [
        i
        for i, line in enumerate(lines)
        if line == "---" and (i == 0 or lines[i - 1] == "") and i + 1 < len(lines) and lines[i + 1].startswith("type:")
    ]
    chunks = []
    head = "\n".join(lines[: starts[0] if starts else len(lines)]).strip()
    if head:
        chunks.append(head)
    for k, s in enumerate(starts):
        chunks.append("\n".join(lines[s : starts[k + 1] if k + 1 < len(starts) else len(lines)]))
    return chunks


_LINES = st.sampled_from(["---", "type: x", "type:", "", "text", " ---", "---\r", "- item", "é"])


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), st.lists(_LINES, max_size=30).map("\n".join)))
def test_streaming_splitter_matches_the_splitting_rule(text):
    import io

    from memlab.adapter.notes_split import bounded_lines, iter_chunks

    assert split_note(text) == _reference_split(text)
    streamed = [c.text for c in iter_chunks(bounded_lines(io.BytesIO(text.encode()), 1 << 20))]
    assert [c.strip() for c in streamed] == [c.strip() for c in _reference_split(text)]


def test_a_memory_over_the_cap_is_dropped_alone():
    import io

    from memlab.adapter.notes_split import bounded_lines, iter_chunks

    note = "---\ntype: a\n---\n\nsmall\n\n---\ntype: b\n---\n\n" + "x" * 500 + "\n\n---\ntype: c\n---\n\nsmall\n"
    from memlab.adapter.notes_split import split_text

    for chunks in (
        list(iter_chunks(note.split("\n"), 200)),
        list(iter_chunks(bounded_lines(io.BytesIO(note.encode()), 100), 200)),
        split_text(note, 200),
    ):
        assert [c.text is None for c in chunks] == [False, True, False] and chunks[1].size > 500


def _reference_parse(chunk: str):
    """``parse_chunk`` as first written, splitting the chunk into lines (the rule it must keep)."""
    from memlab.adapter import notes_format as nf

    lines = chunk.split("\n")
    if lines[0] != "---":
        raise ValueError("text outside any memory (no opening '---')")
    try:
        close = lines.index("---", 1)
    except ValueError:
        raise ValueError("front matter never closed by '---'") from None
    text = "\n".join(lines[1:close])
    if len(text) > nf.MAX_FRONT_MATTER:
        raise ValueError(f"front matter longer than {nf.MAX_FRONT_MATTER} characters")
    front = nf.read_simple(text)
    if front is None:
        front = nf._yaml_front(text)
    if not isinstance(front, dict):
        raise ValueError("front matter is not a mapping")
    if "timestamp" not in front:
        raise ValueError("front matter has no timestamp")
    summary = front.get("summary")
    content = "\n".join(lines[close + 1 :]).strip()
    if summary is None and not content:
        raise ValueError("memory has neither summary nor content")
    tags = front.get("tags") or ()
    tags = (tags,) if isinstance(tags, str) else tags
    return nf.RawMemory(
        namespace="x",
        timestamp=nf._timestamp(front["timestamp"]),
        summary=str(summary if summary is not None else "").strip(),
        content=content,
        tags=tuple(str(t) for t in tags),
    )


def _outcome(parse, chunk: str):
    try:
        return parse(chunk)
    except Exception as exc:
        return type(exc).__name__, str(exc)


_CHUNK_LINES = st.sampled_from(
    [
        "---",
        "--- ",
        "----",
        "-- -",
        "---\r",
        "",
        " ",
        "type: x",
        "timestamp: 2025-01-01T00:00:00+00:00",
        "summary: s",
        "b",
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.lists(_CHUNK_LINES, min_size=1, max_size=12).map("\n".join),
        st.text(alphabet="-\n tyx:é", max_size=40),
        st.text(max_size=30).map(lambda body: "---\ntimestamp: 2025-01-01T00:00:00Z\n---" + body),
    )
)
def test_parsing_finds_front_matter_and_body_where_the_line_rule_puts_them(chunk):
    from memlab.adapter.notes_format import parse_chunk

    assert _outcome(lambda c: parse_chunk(c, "x"), chunk) == _outcome(_reference_parse, chunk)
