"""git-notes-memory's note format: YAML front-matter memories appended one after another in a note.

Splitting rule (see ``datasets/git-notes-memory-notes/SOURCE.md``): a memory **starts** at a line that is
exactly ``---``, is the note's first line or follows an empty line, and is followed by a line starting with
``type:``. Its front matter runs to the next line that is exactly ``---``; the body runs to the next memory
start. Any other ``---`` line is body text (markdown rules, nested front matter), kept whole.

Notes come from anyone who can push to the repository, so parsing is bounded: front matter longer than
:data:`MAX_FRONT_MATTER` or using YAML anchors/aliases (a 500-byte alias bomb expands to gigabytes; memory
writers never use them) is rejected, and readers skip notes larger than :data:`MAX_NOTE_BYTES`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

_START_GUARD = re.compile(r"(^|\n)(\n)---(\ntype:)")
#: Largest note blob read (git-notes-memory caps one memory at 100 KB; real notes hold up to ~400 memories).
MAX_NOTE_BYTES = 4 * 1024 * 1024
#: Largest front matter parsed, in characters.
MAX_FRONT_MATTER = 64 * 1024
#: A ``&`` or ``*`` where YAML could read an anchor or alias (checked exactly with the event stream).
_MAYBE_ALIAS = re.compile(r"(^|[\s\[\]{},:?-])[&*][^\s,\[\]{}]")


@dataclass(frozen=True)
class RawMemory:
    """One memory as found in a note (before deduplication by content)."""

    namespace: str
    timestamp: datetime
    summary: str
    content: str
    tags: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


def split_note(text: str) -> list[str]:
    """Split a note into memory chunks (each starting with its opening ``---``).

    Text before the first memory start (never written by git-notes-memory) becomes its own chunk, which
    then fails to parse and is reported.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    starts = [
        i
        for i, line in enumerate(lines)
        if line == "---" and (i == 0 or lines[i - 1] == "") and i + 1 < len(lines) and lines[i + 1].startswith("type:")
    ]
    chunks: list[str] = []
    if not starts or starts[0] > 0:
        head = "\n".join(lines[: starts[0] if starts else len(lines)]).strip()
        if head:
            chunks.append(head)
    for k, s in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunks.append("\n".join(lines[s:end]))
    return chunks


def _timestamp(value: Any) -> datetime:
    if isinstance(value, datetime):
        ts = value
    elif isinstance(value, str):
        ts = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    else:
        raise ValueError(f"timestamp is {type(value).__name__}, not a date-time")
    return ts if ts.tzinfo else ts.replace(tzinfo=UTC)


def parse_chunk(chunk: str, namespace: str) -> RawMemory:
    """Parse one chunk into a :class:`RawMemory`.

    Raises:
        ValueError: No front matter, YAML error, or missing ``timestamp``/``summary``.
    """
    import yaml

    lines = chunk.split("\n")
    if not lines or lines[0] != "---":
        raise ValueError("text outside any memory (no opening '---')")
    try:
        close = lines.index("---", 1)
    except ValueError:
        raise ValueError("front matter never closed by '---'") from None
    text = "\n".join(lines[1:close])
    if len(text) > MAX_FRONT_MATTER:
        raise ValueError(f"front matter longer than {MAX_FRONT_MATTER} characters")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if _MAYBE_ALIAS.search(text) and any(
            isinstance(e, yaml.AliasEvent) or getattr(e, "anchor", None) for e in yaml.parse(text, Loader=loader)
        ):
            raise ValueError("front matter uses YAML anchors or aliases (not allowed in memories)")
        front = yaml.load(text, Loader=loader)
    except (yaml.YAMLError, RecursionError) as exc:
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise ValueError(f"front matter is not valid YAML ({first})") from None
    if not isinstance(front, dict):
        raise ValueError("front matter is not a mapping")
    if "timestamp" not in front:
        raise ValueError("front matter has no timestamp")
    summary = front.get("summary")
    content = "\n".join(lines[close + 1 :]).strip()
    if summary is None and not content:
        raise ValueError("memory has neither summary nor content")
    tags = front.get("tags") or ()
    if isinstance(tags, str):
        tags = (tags,)
    known = {"type", "timestamp", "summary", "tags"}
    return RawMemory(
        namespace=namespace,
        timestamp=_timestamp(front["timestamp"]),
        summary=str(summary if summary is not None else "").strip(),
        content=content,
        tags=tuple(str(t) for t in tags),
        extra={k: v for k, v in front.items() if k not in known and v is not None},
    )


def parse_note(text: str, namespace: str) -> tuple[list[RawMemory], list[str]]:
    """All memories of a note, plus one message per chunk that failed to parse."""
    good: list[RawMemory] = []
    bad: list[str] = []
    for i, chunk in enumerate(split_note(text)):
        try:
            good.append(parse_chunk(chunk, namespace))
        except Exception as exc:
            bad.append(f"memory #{i}: {str(exc)[:200] or type(exc).__name__}")
    return good, bad


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
    import yaml

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
