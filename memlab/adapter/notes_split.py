"""Splitting a note into memories line by line, with a cap per memory, from text or from a stream.

The splitting rule (``datasets/git-notes-memory-notes/SOURCE.md``): a memory **starts** at a line that is
exactly ``---``, is the note's first line or follows an empty line, and is followed by a line starting with
``type:``. The splitter needs one line of look-ahead and holds at most one memory, so a note of any size is
read in bounded memory; a memory over the cap is dropped whole (its size reported), never its neighbours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import IO, NamedTuple

#: A memory start candidate in a whole note's text: ``---`` then ``type:`` (a literal prefix the regular
#: expression engine finds fast; where it may stand is checked by :func:`_starts`).
_START = re.compile(r"---\n(?=type:)")


class Long(NamedTuple):
    """A line longer than the reader's cap (its text was not kept)."""

    size: int


class Chunk(NamedTuple):
    """One memory's text (``None`` when it was over the cap) and its size in bytes (UTF-8)."""

    text: str | None
    size: int


def bounded_lines(stream: IO[bytes], cap: int) -> Iterator[str | Long]:
    r"""Lines of a binary stream (no line ends; ``\\r\\n`` read as ``\\n``), one over ``cap`` bytes as :class:`Long`."""
    while True:
        raw = stream.readline(cap + 1)
        if not raw:
            return
        if len(raw) > cap and not raw.endswith(b"\n"):
            size = len(raw)
            while True:
                more = stream.readline(1 << 20)
                size += len(more)
                if not more or more.endswith(b"\n"):
                    break
            yield Long(size)
            continue
        yield raw.rstrip(b"\n").removesuffix(b"\r").decode("utf-8", "replace")


def iter_chunks(lines: Iterable[str | Long], cap: int | None = None) -> Iterator[Chunk]:
    """Memory chunks of a note's lines (each starting with its opening ``---``), in order.

    Text before the first memory start becomes its own chunk when it is not blank (stripped; it then
    fails to parse and is reported). A chunk over ``cap`` bytes comes back with ``text=None``.
    """
    cur: list[str] = []
    size = 0
    over = False
    head = True
    prev_empty = True
    pending = False

    def add(line: str | Long) -> None:
        nonlocal size, over
        n = line.size if isinstance(line, Long) else len(line) + 1
        if not isinstance(line, Long) and not line.isascii():
            n = len(line.encode("utf-8", "replace")) + 1
        size += n
        if over:
            return
        if isinstance(line, Long) or (cap is not None and size > cap):
            over, cur[:] = True, []
            return
        cur.append(line)

    def flush() -> Chunk | None:
        nonlocal cur, size, over, head
        if head and over:
            chunk: Chunk | None = Chunk(None, size)
        elif head:
            text = "\n".join(cur).strip()
            chunk = Chunk(text, size) if text else None
        else:
            chunk = Chunk(None if over else "\n".join(cur), size)
        cur, size, over, head = [], 0, False, False
        return chunk

    for line in lines:
        if pending:
            pending = False
            if isinstance(line, str) and line.startswith("type:"):
                chunk = flush()
                if chunk is not None:
                    yield chunk
                head = False
            add("---")
        if line == "---" and prev_empty:
            pending, prev_empty = True, False
            continue
        add(line)
        prev_empty = line == ""
    if pending:
        add("---")
    chunk = flush()
    if chunk is not None:
        yield chunk


def _starts(text: str) -> list[int]:
    """Offsets of the memory starts of a whole note: a ``---`` line opening the note or following an empty
    line (the note's first line counts as one), then a line starting with ``type:``.
    """
    found = []
    for match in _START.finditer(text):
        at = match.start()
        if at == 0 or (text[at - 1] == "\n" and (at == 1 or text[at - 2] == "\n")):
            found.append(at)
    return found


def split_text(text: str, cap: int | None = None) -> list[Chunk]:
    r""":func:`iter_chunks` of a whole note's text (``\n`` line ends), by one regular-expression scan."""
    starts = _starts(text)
    out: list[Chunk] = []
    if starts == [0]:  # one memory, the note's whole text (the common note)
        pieces = [(False, text)]
    else:
        head = text[: starts[0] if starts else len(text)]
        bounds = [(s, (starts[k + 1] - 1) if k + 1 < len(starts) else len(text)) for k, s in enumerate(starts)]
        pieces = [(True, head)] + [(False, text[a:b]) for a, b in bounds]
    for is_head, piece in pieces:
        if is_head:
            piece = piece.strip()
            if not piece:
                continue
        size = len(piece) if piece.isascii() else len(piece.encode("utf-8", "replace"))
        over = cap is not None and size + 1 > cap
        out.append(Chunk(None if over else piece, size + 1))
    return out
