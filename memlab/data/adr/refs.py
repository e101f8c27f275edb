"""References from one decision record to others: record links, record numbers, record file names.

A *record link* is a link whose target names a record file of the repository (its file stem is one of
the repository's, or looks like one: ``0012-use-x``, ``adr-012``, ``ADR012``, ``/adr/7``). A *record
number* is ``ADR-0012``, ``ADR 12``, ``ADR#12``, ``ADR012`` or ``#12``; a *record file name* is a bare
``0012-use-x.md``. :func:`rewrite` removes each reference whose key ``keep`` refuses, keeping a link's text
without its number; :func:`mentions_record` says whether a text refers to any record at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath

#: ``keep(key) -> bool``: whether a reference stays as written; the key is a file stem or a number.
Keep = Callable[[str], bool]

_LINK = re.compile(
    r"(?<!!)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"
    r"\(\s*<?([^()\s<>]*(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+\"[^\"]*\")?\s*\)"
)
_REF_LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\[\]]*\])+)\]\[([^\[\]]*)\]")
LINK_DEF = re.compile(r"^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+.*)?$")
_RST_LINK = re.compile(r"(?::doc:)?`([^`<]*?)\s*<([^>`]+)>`_{0,2}")
_ADOC_XREF = re.compile(r"\b(?:xref|link):([^\[\s]+)\[([^\]]*)\]")
_ADOC_ANGLE = re.compile(r"<<([^,<>]+)(?:,([^<>]*))?>>")
_NUMBER = re.compile(r"(?i)\bADR(?:s)?[-_ ]?(?:#\s?)?0*(\d{1,5})\b|(?<![\w&/#])#0*(\d{1,4})\b")
_FILE = re.compile(r"(?i)(?<![\w/.-])((?:adr[-_]?)?(\d{1,5})[-_][\w.+-]*?)\.(?:md|markdown|rst|adoc|txt)\b")
_STEM_LIKE = re.compile(r"(?i)^(?:adr[-_ ]?)?0*(\d{1,5})(?:[-_.].*)?$")
_RECORD_EXT = (".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".txt", ".html")
#: A record number at the start of a title or link text: ``12. ``, ``ADR-0012: ``, ``#12 ``, ``0012-``.
_LEADING_NUMBER = re.compile(
    r"^\s*(?:(?:ADR|Decision|Record)s?\s*[-_ ]?\s*#?\s*\d+|#\s*\d+|\d+)\s*(?:[.:)\]\-–—_|]+\s*|\s+|$)", re.IGNORECASE
)
_LEADING_ADR = re.compile(r"^\s*ADR\s*[:\-–—]\s*", re.IGNORECASE)


def file_stem(path: str) -> str:
    """A record file's handle: its name without extension (``index``/``README``: its folder's name)."""
    pure = PurePosixPath(path.split("#")[0].split("?")[0].rstrip("/"))
    stem = pure.stem if pure.suffix.lower() in _RECORD_EXT else pure.name
    if stem.lower() in ("index", "readme") and pure.parent.name:
        return pure.parent.name
    return stem


def link_key(target: str, stems: frozenset[str]) -> str | None:
    """The key of a link target that names a record file, else ``None``."""
    target = target.strip()
    if not target or target.startswith(("mailto:", "#")):
        return None
    stem = file_stem(target)
    if stem in stems:
        return stem
    if target.startswith(("http://", "https://")) and "adr" not in target.lower() and "decision" not in target.lower():
        return None
    return stem if _STEM_LIKE.match(stem) else None


def key_number(key: str) -> str | None:
    """The number a key carries (``"0012-use-x"`` -> ``"12"``), if any."""
    match = _STEM_LIKE.match(key)
    return str(int(match.group(1))) if match else None


def strip_leading_number(text: str, number: int | None = None) -> str:
    """``text`` without a leading record number (``12. X``, ``ADR-0012: X``, ``#12 X``, ``0012-X``).

    A bare leading number is removed only when it is the record's own ``number``, has leading zeros, or
    ends with a separator (``12.``), so that a title such as ``2 regions per service`` keeps its words.
    """
    match = _LEADING_NUMBER.match(text)
    if match:
        token = match.group(0)
        digits = re.search(r"\d+", token)
        bare = not re.search(r"(?i)adr|decision|record|#", token)
        if digits and bare and not re.search(r"[.:)\]\-–—_|]", token):
            value = digits.group(0)
            if not (value.startswith("0") or (number is not None and int(value) == number)):
                return text.strip()
        text = text[match.end() :]
    return _LEADING_ADR.sub("", text).strip()


def mentions_record(text: str, stems: frozenset[str], defs: dict[str, str] | None = None) -> bool:
    """Whether ``text`` names a record by link, number or file name (``defs``: reference-style targets)."""
    for match in _LINK.finditer(text):
        if link_key(match.group(2), stems):
            return True
    for match in _RST_LINK.finditer(text):
        if link_key(match.group(2), stems):
            return True
    if any(link_key(m.group(1), stems) for m in _ADOC_XREF.finditer(text)):
        return True
    for match in _REF_LINK.finditer(text):
        target = (defs or {}).get((match.group(2) or match.group(1)).strip().lower())
        if target and link_key(target, stems):
            return True
    return bool(_NUMBER.search(text) or _FILE.search(text))


def rewrite(text: str, stems: frozenset[str], keep: Keep, defs: dict[str, str]) -> str:
    """``text`` with every record reference that ``keep`` refuses removed (link text kept without number).

    Args:
        text: A piece of prose (not code).
        stems: The repository's record file stems.
        keep: Whether a reference (by key) stays as written.
        defs: Reference-style link definitions of the record (label, lower case -> target).
    """

    def link(label: str, target: str, whole: str) -> str:
        key = link_key(target, stems)
        if key is None or keep(key):
            return whole
        return strip_leading_number(label)

    text = _LINK.sub(lambda m: link(m.group(1), m.group(2), m.group(0)), text)

    def ref_link(m: re.Match) -> str:
        label = (m.group(2) or m.group(1)).strip().lower()
        target = defs.get(label)
        if target is None:
            return m.group(0)
        return link(m.group(1), target, m.group(0))

    text = _REF_LINK.sub(ref_link, text)
    text = _RST_LINK.sub(lambda m: link(m.group(1), m.group(2), m.group(0)), text)
    text = _ADOC_XREF.sub(lambda m: link(m.group(2), m.group(1), m.group(0)), text)
    text = _ADOC_ANGLE.sub(lambda m: link(m.group(2) or "", m.group(1), m.group(0)), text)

    def number(m: re.Match) -> str:
        value = str(int(m.group(1) or m.group(2)))
        return m.group(0) if keep(value) else ""

    def bare_file(m: re.Match) -> str:
        key = m.group(1)
        if keep(key if key in stems else str(int(m.group(2)))):
            return m.group(0)
        return strip_leading_number(key.replace("_", " ").replace("-", " "), int(m.group(2))).strip()

    text = _FILE.sub(bare_file, text)
    return _NUMBER.sub(number, text)
