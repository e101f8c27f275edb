"""git-notes-memory's note format: YAML front-matter memories appended one after another in a note.

Splitting rule (see ``datasets/git-notes-memory-notes/SOURCE.md``): a memory **starts** at a line that is
exactly ``---``, is the note's first line or follows an empty line, and is followed by a line starting with
``type:``. Its front matter runs to the next line that is exactly ``---``; the body runs to the next memory
start. Any other ``---`` line is body text (markdown rules, nested front matter), kept whole.

Notes come from anyone who can push to the repository, so parsing is bounded: a memory over
:data:`MAX_MEMORY_BYTES` is skipped on its own (never its note: notes are split as a stream,
:mod:`memlab.adapter.notes_split`); front matter over :data:`MAX_FRONT_MATTER` characters, nested deeper
than :data:`MAX_DEPTH` (checked before libyaml, which recurses in C) or using YAML anchors/aliases (a
500-byte alias bomb expands to gigabytes; memory writers never use them) is rejected.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, NamedTuple

from memlab.adapter.front_matter import read_simple
from memlab.adapter.notes_split import Chunk, Long, iter_chunks, split_text

_START_GUARD = re.compile(r"(^|\n)(\n)---(\ntype:)")
#: Note blobs up to this size are read whole in one batch; larger ones are streamed memory by memory.
MAX_NOTE_BYTES = 4 * 1024 * 1024
#: Largest memory (front matter and body, UTF-8 bytes) read or captured; git-notes-memory caps a memory
#: at 100 KB, so every memory it writes fits.
MAX_MEMORY_BYTES = 128 * 1024
#: Largest front matter parsed, in characters (git-notes-memory writes a few hundred).
MAX_FRONT_MATTER = 8 * 1024
#: Deepest nesting accepted in front matter (indentation levels + compact ``- `` runs + open brackets).
MAX_DEPTH = 32
#: A ``&`` or ``*`` where YAML could read an anchor or alias (checked exactly with the event stream).
_MAYBE_ALIAS = re.compile(r"(^|[\s\[\]{},:?-])[&*][^\s,\[\]{}]")
_INDICATORS = re.compile(r"(?:[-?:](?: +|$))+")


class RawMemory(NamedTuple):
    """One memory as found in a note (before deduplication by content): a tuple, built 100,000 times by a cold
    read at a fifth of a frozen dataclass's cost; other front-matter keys are not kept (nothing reads them).
    """

    namespace: str
    timestamp: datetime
    summary: str
    content: str
    tags: tuple[str, ...] = ()


def split_note(text: str) -> list[str]:
    """Split a note into memory chunks (each starting with its opening ``---``), with no size cap.

    Text before the first memory start (never written by git-notes-memory) becomes its own chunk, which
    then fails to parse and is reported.
    """
    return [c.text for c in split_text(text.replace("\r\n", "\n")) if c.text is not None]


def nesting_depth(text: str) -> int:
    """An upper bound of the YAML nesting depth of ``text`` (block indentation levels, compact ``- ``/``? ``
    runs at a line start, and open flow brackets), computed in one pass without parsing.
    """
    deepest = 0
    indents = [0]
    flow = 0
    for line in text.split("\n"):
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        indent = len(line) - len(body)
        while indents and indents[-1] > indent:
            indents.pop()
        if not indents or indents[-1] < indent:
            indents.append(indent)
        run = _INDICATORS.match(body)
        compact = len(run.group(0).replace(" ", "")) if run else 0
        for ch in body:
            if ch in "[{":
                flow += 1
                deepest = max(deepest, len(indents) + compact + flow)
            elif ch in "]}" and flow:
                flow -= 1
        deepest = max(deepest, len(indents) + compact + flow)
    return deepest


def _timestamp(value: Any) -> datetime:
    if isinstance(value, datetime):
        ts = value
    elif isinstance(value, str):
        ts = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    else:
        raise ValueError(f"timestamp is {type(value).__name__}, not a date-time")
    return ts if ts.tzinfo else ts.replace(tzinfo=UTC)


def _yaml_front(text: str) -> Any:
    """Front matter outside :func:`read_simple`'s subset, through PyYAML: depth checked first (libyaml
    recurses in C), anchors and aliases refused.
    """
    if nesting_depth(text) > MAX_DEPTH:
        raise ValueError(f"front matter nested deeper than {MAX_DEPTH} levels")
    from memlab.adapter.yaml_import import load_yaml

    yaml = load_yaml()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if _MAYBE_ALIAS.search(text) and any(
            isinstance(e, yaml.AliasEvent) or getattr(e, "anchor", None) for e in yaml.parse(text, Loader=loader)
        ):
            raise ValueError("front matter uses YAML anchors or aliases (not allowed in memories)")
        return yaml.load(text, Loader=loader)
    except (yaml.YAMLError, RecursionError) as exc:
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise ValueError(f"front matter is not valid YAML ({first})") from None


def parse_chunk(chunk: str, namespace: str) -> RawMemory:
    """Parse one chunk into a :class:`RawMemory`.

    Raises:
        ValueError: No front matter, YAML error, or missing ``timestamp``/``summary``.
    """
    if chunk != "---" and not chunk.startswith("---\n"):
        raise ValueError("text outside any memory (no opening '---')")
    close = chunk.find("\n---", 3)  # the next line that is exactly '---'
    while close != -1 and close + 4 < len(chunk) and chunk[close + 4] != "\n":
        close = chunk.find("\n---", close + 1)
    if close == -1:
        raise ValueError("front matter never closed by '---'")
    text = chunk[4:close]
    if len(text) > MAX_FRONT_MATTER:
        raise ValueError(f"front matter longer than {MAX_FRONT_MATTER} characters")
    front: Any = read_simple(text)
    if front is None:
        front = _yaml_front(text)
    if not isinstance(front, dict):
        raise ValueError("front matter is not a mapping")
    if "timestamp" not in front:
        raise ValueError("front matter has no timestamp")
    summary = front.get("summary")
    content = chunk[close + 5 :].strip()
    if summary is None and not content:
        raise ValueError("memory has neither summary nor content")
    tags = front.get("tags") or ()
    if isinstance(tags, str):
        tags = (tags,)
    summary = str(summary if summary is not None else "").strip()
    return RawMemory(namespace, _timestamp(front["timestamp"]), summary, content, tuple(map(str, tags)))


def parse_chunks(chunks: Iterable[Chunk], namespace: str) -> tuple[list[RawMemory], list[str]]:
    """Memories of split chunks, plus one message per chunk skipped (over the cap, or failing to parse)."""
    good: list[RawMemory] = []
    bad: list[str] = []
    for i, chunk in enumerate(chunks):
        if chunk.text is None:
            bad.append(f"memory #{i}: {chunk.size} bytes, over the {MAX_MEMORY_BYTES}-byte limit of one memory")
            continue
        try:
            good.append(parse_chunk(chunk.text, namespace))
        except Exception as exc:
            bad.append(f"memory #{i}: {str(exc)[:200] or type(exc).__name__}")
    return good, bad


def parse_note(text: str, namespace: str) -> tuple[list[RawMemory], list[str]]:
    """All memories of a note, plus one message per chunk skipped (over :data:`MAX_MEMORY_BYTES`, or bad)."""
    return parse_chunks(split_text(text.replace("\r\n", "\n"), MAX_MEMORY_BYTES), namespace)


def parse_lines(lines: Iterable[str | Long], namespace: str) -> tuple[list[RawMemory], list[str]]:
    """:func:`parse_note` over a note's lines (a stream: :func:`memlab.adapter.notes_split.bounded_lines`)."""
    return parse_chunks(iter_chunks(lines, MAX_MEMORY_BYTES), namespace)


def memory_id(summary: str, content: str) -> str:
    """Content hash of a memory (summary and body, whitespace-trimmed): stable across reindexing and clones."""
    digest = hashlib.sha256(f"{summary.strip()}\x00{content.strip()}".encode()).hexdigest()
    return "m_" + digest[:16]


def stripspace(text: str) -> str:
    """What ``git notes`` does to a message: trailing whitespace per line off, blank runs collapsed, ends trimmed."""
    out: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line.rstrip()
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n")


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar: backslash, quote, control and line-break characters escaped."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '\\"':
            out.append("\\" + ch)
        elif code < 0x20 or 0x7F <= code <= 0x9F or ch in "\u2028\u2029\ufeff":
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def format_memory(namespace: str, timestamp: datetime, summary: str, content: str, tags: tuple[str, ...] = ()) -> str:
    """One memory in git-notes-memory's format (front matter + body).

    A body line ``---`` that would read as a new memory start (after an empty line, before ``type:``) is
    written as ``- - -`` so the note splits back into exactly this memory.
    """
    from memlab.adapter.yaml_import import load_yaml

    yaml = load_yaml()
    front: dict[str, Any] = {"type": namespace, "timestamp": timestamp.isoformat(), "summary": summary}
    if tags:
        front["tags"] = list(tags)
    head = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=10_000).rstrip("\n")
    if "\x85" in summary or any("\x85" in t for t in tags):
        # PyYAML folds U+0085 inside the single-quoted scalars it writes: write double-quoted scalars instead
        head = yaml.safe_dump({"type": namespace, "timestamp": timestamp.isoformat()}, sort_keys=False).rstrip("\n")
        head += f"\nsummary: {_quoted(summary)}"
        head += "".join(["\ntags:", *(f"\n- {_quoted(t)}" for t in tags)]) if tags else ""
    body = content.strip()
    while _START_GUARD.search("\n" + body):
        body = _START_GUARD.sub(r"\1\2- - -\3", "\n" + body)[1:]
    return stripspace(f"---\n{head}\n---\n\n{body}") + "\n"
