"""Headings and sections of a decision record in Markdown, reStructuredText or AsciiDoc.

Only what the stripper needs: where each heading is, its level and text, and which lines a section spans
(from its heading to the next heading of the same or a higher level). Lines inside fenced or delimited
code blocks are never headings (a ``# comment`` in a shell block is not a section).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_ADOC = re.compile(r"^(={1,6})\s+(\S.*?)\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_ADOC_BLOCK = re.compile(r"^(-{4,}|\.{4,}|={4,}|\+{4,}|_{4,}|\*{4,})\s*$")
_RST_ADORN = re.compile(r"^([=\-~^\"'`#*+:._])\1{2,}\s*$")
_MD_UNDER = re.compile(r"^\s{0,3}(=+|-+)\s*$")


@dataclass(frozen=True)
class Heading:
    """A heading: ``start`` is its first line, ``body`` the first line after it (both 0-based)."""

    start: int
    body: int
    level: int
    text: str


def text_format(path: str) -> str:
    """``md``, ``rst`` or ``adoc`` from the record file's extension (anything else is read as Markdown)."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in (".rst", ".rest"):
        return "rst"
    if suffix in (".adoc", ".asciidoc", ".asc"):
        return "adoc"
    return "md"


def code_lines(lines: list[str], fmt: str) -> set[int]:
    """Indexes of lines inside (or delimiting) code blocks."""
    out: set[int] = set()
    pattern = _ADOC_BLOCK if fmt == "adoc" else _FENCE
    inside: str | None = None
    for i, line in enumerate(lines):
        match = pattern.match(line)
        if inside is None and match:
            inside = match.group(1)[:3]
            out.add(i)
        elif inside is not None:
            out.add(i)
            if match and match.group(1)[:3] == inside:
                inside = None
    return out


def headings(lines: list[str], fmt: str) -> list[Heading]:
    """Every heading of the record, in order.

    Markdown: ATX (``## Decision``) and setext (text underlined with ``===`` or ``---``). AsciiDoc:
    ``== Decision``. reStructuredText: a text line underlined (optionally also overlined) by a repeated
    punctuation character; levels follow the order in which adornment styles first appear.
    """
    code = code_lines(lines, fmt)
    out: list[Heading] = []
    styles: list[tuple[str, bool]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if i in code:
            i += 1
            continue
        if fmt == "adoc":
            match = _ADOC.match(line)
            if match:
                out.append(Heading(i, i + 1, len(match.group(1)), match.group(2)))
            i += 1
            continue
        match = _ATX.match(line) if fmt == "md" else None
        if match:
            out.append(Heading(i, i + 1, len(match.group(1)), match.group(2)))
            i += 1
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if fmt == "rst":
            over = bool(_RST_ADORN.match(line)) and i + 2 < len(lines) and lines[i + 2].strip() == line.strip()
            text, under = (lines[i + 1], lines[i + 2]) if over else (line, nxt)
            adorned = text.strip() and not _RST_ADORN.match(text) and _RST_ADORN.match(under) and i + 1 not in code
            if adorned and (len(under.strip()) >= len(text.strip()) or over):
                style = (under.strip()[0], over)
                if style not in styles:
                    styles.append(style)
                start, body = (i, i + 3) if over else (i, i + 2)
                out.append(Heading(start, body, styles.index(style) + 1, text.strip()))
                i = body
                continue
        elif _setext(lines, i, code, out):
            out.append(Heading(i, i + 2, 1 if nxt.strip()[0] == "=" else 2, line.strip()))
            i += 2
            continue
        i += 1
    return out


def _setext(lines: list[str], i: int, code: set[int], found: list[Heading]) -> bool:
    """Whether line ``i`` is a Markdown setext heading (a one-line paragraph underlined by ``===``/``---``)."""
    line, nxt = lines[i], lines[i + 1] if i + 1 < len(lines) else ""
    if not line.strip() or not _MD_UNDER.match(nxt) or i + 1 in code or _MD_UNDER.match(line):
        return False
    if re.match(r"^\s{0,3}([-*+]\s|\d+[.)]\s|>|\||<)", line) or len(nxt.strip()) < 3:
        return False
    prev = lines[i - 1].strip() if i else ""
    return not prev or bool(found and found[-1].body == i)  # a paragraph's last line would be a multi-line heading


def section_end(heads: list[Heading], index: int, n_lines: int) -> int:
    """The line after the section of ``heads[index]`` (its subsections included)."""
    level = heads[index].level
    for later in heads[index + 1 :]:
        if later.level <= level:
            return later.start
    return n_lines
