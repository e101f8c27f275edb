"""A decision record as a memory's summary and content, without what a system could use without reading.

``refs="strip"`` removes every trace of the links between records: status sections and front matter,
status/date/deciders lines, "superseded"/"deprecated" marks in titles, record numbers, links to other
record files (their text stays, without the number) and whole sentences that name another record as
superseded, replaced or amended. ``refs="keep"`` leaves the newer record's references to older records
as written (numbers, links, "Supersedes ..." sentences; those found in its status section or outside the
chosen content are put in front of the content) and removes only what the record could not have known
when it was written. In both modes the record's own status and any superseded/deprecated mark on it go:
they were edited in later, and a memory recorded at its date cannot know its future. A reference in
``keep`` mode to a record that is not earlier than this one is such a later edit too, and is removed. Records a
record lists rather than names in a sentence (a front-matter ``supersedes:`` key, a "Supercedes" section of bare
items: :mod:`memlab.data.adr.listed`) are put in front of the content in ``keep`` mode as ``Supersedes: <item>``.

Content is the record's Decision section (the first heading, at any level, whose text starts with
"Decision" — "Decision", "Decisions", "Decision Outcome" — but not MADR's "Decision Drivers" or
"Decision Makers", which precede the outcome), else the body without the title and status section; it is
cut at ``max_chars`` characters on a word boundary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memlab.data.adr import listed as listed_refs
from memlab.data.adr import refs as rf
from memlab.data.adr.sections import Heading, code_lines, headings, section_end, text_format
from memlab.data.adr.titles import strip_title

REFS = ("strip", "keep")

_COMMENT = re.compile(r"<!--.*?-->", re.S)
_BADGE = re.compile(r"!\[[^\]]*\]\([^)]*(?:shields\.io|badge)[^)]*\)", re.I)
_META_LINE = re.compile(
    r"(?i)^\s*(?:[-*+]\s+)?:?(?:\*\*|__|\*|_)?\s*(?:status|(?:created?\s+|last\s+updated?\s+|decision\s+)?date|deciders?"
    r"|decision[- ]makers?|decided\s+by)\s*(?:\*\*|__|\*|_)?\s*:(?:\*\*|__|\*|_)?(?:\s|$)"
)
_STATUS_HEAD = re.compile(
    r"(?i)^\W*(?:status\b|(?:deprecat|supersed|superced|obsolet)\w*(?:\s+(?:reason|notice|note|by))?\W*$)"
)
_DECISION_HEAD = re.compile(
    r"(?i)^\W*(?:the\s+)?decisions?\b(?!\s*[-_]?\s*(?:drivers?|makers?|date|criteria|factors|records?|log|status|context))"
)
_RELATION = r"(?:supersed|superced|replac|amend|obsolet|deprecat|refine|extend|overrid|overrul)\w*"
_RELATION_RE = re.compile(rf"(?i)\b{_RELATION}")
_PASSIVE = re.compile(rf"(?i)\b{_RELATION}\s+(?:\([^)]*\)\s+)?by\b|\bdeprecat\w*|\bin\s+favou?r\s+of\b")
_ACTIVE_START = re.compile(
    r"(?i)^\W*(?:this\s+(?:adr|decision|record|document)\s+)?(?:\w+ly\s+)?"
    r"(?:supersedes|supercedes|replaces|amends|refines|extends|obsoletes|overrides)\b"
)
#: An active verb of this record acting on another ("replaces [ADR-56] (now deprecated)"): a reference, not a mark.
_ACTIVE_VERB = re.compile(
    r"(?i)\b(?:supersedes|supercedes|replaces|amends|refines|extends|obsoletes|overrides)\b(?!\s+(?:\([^)]*\)\s+)?by\b)"
)
_SELF_MARK = re.compile(
    r"(?i)\b(?:this|the)\s+(?:adr|decision|record|document|proposal)\b[^.]*?\b(?:is|was|has\s+been|have\s+been|been)\s+"
    r"(?:now\s+|since\s+|partially\s+|partly\s+|officially\s+|fully\s+|marked\s+as\s+|\*\*|__|\*|_)*(?:deprecated|superseded|superceded|replaced"
    r"|obsolete|withdrawn|rejected|retired|abandoned|no\s+longer)"
)
_ABBREV = re.compile(r"(?i)(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bno|\bapprox)\.$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_SECTION_NAMES = frozenset({"context", "status", "decision", "background", "summary", "consequences", "overview"})


@dataclass(frozen=True)
class Cleaned:
    """A record as a memory: ``summary`` (title without number or mark) and ``content``."""

    summary: str
    content: str


def _sentences(unit: str) -> list[str]:
    """Sentences of a paragraph: split after ``.``, ``!`` or ``?`` and a space, never inside brackets or code."""
    out: list[str] = []
    depth, code, begin = 0, False, 0
    for i, char in enumerate(unit):
        if char == "`":
            code = not code
        elif code:
            continue
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth = max(0, depth - 1)
        elif char in ".!?" and depth == 0 and i + 1 < len(unit) and unit[i + 1].isspace():
            piece = unit[begin : i + 1]
            if not _ABBREV.search(piece):
                out.append(piece.strip())
                begin = i + 1
    tail = unit[begin:].strip()
    if tail:
        out.append(tail)
    return [s for s in out if s]


class _Cleaner:
    """The cleaning of one record's text (see the module docstring)."""

    def __init__(self, refs: str, stems: frozenset[str], keep: rf.Keep, defs: dict[str, str]) -> None:
        self.strip = refs == "strip"
        self.stems = stems
        self.keep = (lambda key: False) if self.strip else keep
        self.defs = defs

    def drop_sentence(self, sentence: str) -> bool:
        if _SELF_MARK.search(sentence):
            return True
        has_relation = bool(_RELATION_RE.search(sentence))
        if not has_relation:
            return False
        names_record = rf.mentions_record(sentence, self.stems, self.defs)
        if _PASSIVE.search(sentence) and (names_record or not self.strip):
            # "Superseded by ..." / "deprecated": a mark on this record, edited in later; but in keep mode
            # "which replaces [ADR-56] (now deprecated)" is this record's reference to an older one
            return self.strip or not (names_record and _ACTIVE_VERB.search(sentence))
        return self.strip and (names_record or bool(_ACTIVE_START.match(sentence)))

    def is_reference(self, sentence: str) -> bool:
        """An active "supersedes/amends X" sentence naming an earlier record (kept in ``keep`` mode)."""
        if not _RELATION_RE.search(sentence) or (_PASSIVE.search(sentence) and not _ACTIVE_VERB.search(sentence)):
            return False
        return bool(_ACTIVE_START.match(sentence)) or rf.mentions_record(sentence, self.stems, self.defs)

    def prose(self, lines: list[str], fmt: str) -> list[str]:
        """Cleaned prose lines (code blocks untouched)."""
        code = code_lines(lines, fmt)
        out: list[str] = []
        unit: list[str] = []

        def flush() -> None:
            if unit:
                out.extend(self.unit(unit))
                unit.clear()

        for i, line in enumerate(lines):
            if i in code:
                flush()
                out.append(line)
            elif not line.strip() or _ITEM.match(line) or line.lstrip().startswith(("|", "#", ">")):
                flush()
                if line.strip():
                    unit.append(line)
                else:
                    out.append("")
            else:
                unit.append(line)
        flush()
        return out

    def unit(self, lines: list[str]) -> list[str]:
        """One paragraph or list item: meta lines and marked sentences out, references rewritten."""
        kept = [ln for ln in lines if not _META_LINE.match(ln) and not self.dead_def(ln)]
        if not kept:
            return []
        match = _ITEM.match(kept[0])
        lead = match.group(0) if match else ""
        body = "\n".join(kept)[len(lead) :]
        sentences = [s for s in _sentences(body) if not self.drop_sentence(s)]
        text = rf.rewrite(
            " ".join(sentences) if len(sentences) > 1 else "".join(sentences), self.stems, self.keep, self.defs
        )
        text = re.sub(r"[ \t]{2,}", " ", re.sub(r"\s+([,.;:)])", r"\1", text)).replace("()", "")
        text = re.sub(r"[,;](?=[,.;:])", "", text).strip()
        if not re.search(r"\w", text):
            return []
        return (lead + text).split("\n")

    def dead_def(self, line: str) -> bool:
        match = rf.LINK_DEF.match(line)
        if not match:
            return False
        key = rf.link_key(match.group(2), self.stems)
        return key is not None and not self.keep(key)


def _definitions(lines: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in lines:
        match = rf.LINK_DEF.match(line)
        if match:
            out[match.group(1).strip().lower()] = match.group(2)
    return out


def _front_matter_end(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for i in range(1, min(len(lines), 200)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def _title_heading(heads: list[Heading], lines: list[str], start: int, title: str) -> int | None:
    """Index into ``heads`` of the record's title heading, if it has one."""
    raw = title.strip().strip("#=").strip()
    for k, head in enumerate(heads):
        if head.text.strip() == raw:
            return k
    first = next((k for k, h in enumerate(heads) if h.start >= start), None)
    if first is not None and heads[first].level == 1:
        between = [ln for ln in lines[start : heads[first].start] if ln.strip() and not ln.startswith(":")]
        if not between:
            return first
    return None


def _cap(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars + 1]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    return (cut[:space] if space > 0 else cut[:max_chars]).rstrip()


def _tidy(lines: list[str]) -> str:
    return re.sub(r"\n{3,}", "\n\n", "\n".join(ln.rstrip() for ln in lines)).strip()


def clean_record(
    text: str,
    title: str,
    path: str,
    number: int | None = None,
    *,
    refs: str = "strip",
    stems: frozenset[str] = frozenset(),
    keep: rf.Keep = lambda key: True,
    max_chars: int = 1500,
) -> Cleaned:
    """The record as a memory's summary and content (see the module docstring).

    Args:
        text: The whole record file as written.
        title: The title as written.
        path: The record's path (its extension picks Markdown, reStructuredText or AsciiDoc).
        number: The record's own number.
        refs: ``strip`` or ``keep``.
        stems: The repository's record file stems (to recognise record links).
        keep: In ``keep`` mode, whether a reference (file stem or number) may stay: the caller refuses
            references to records that are not earlier than this one.
        max_chars: Cap of the content.
    """
    if refs not in REFS:
        raise ValueError(f"refs must be one of {REFS}, got {refs!r}")
    fmt = text_format(path)
    lines = _COMMENT.sub("", text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
    lines = [_BADGE.sub("", ln) if _BADGE.search(ln) else ln for ln in lines]
    start = _front_matter_end(lines)
    heads = headings(lines, fmt)
    heads = [h for h in heads if h.start >= start]
    cleaner = _Cleaner(refs, stems, keep, _definitions(lines))

    dropped = set(range(start))
    status_lines: list[int] = []
    title_k = _title_heading(heads, lines, start, title)
    given = title.strip()
    if title_k is not None and heads[title_k].text.strip(" :").lower() in _SECTION_NAMES:
        title_k = None  # a record without a title: its first heading is a section ("# Context")
    misread = given.startswith("[") or given.strip(" :").lower() in _SECTION_NAMES or not given
    if title_k is not None:
        dropped.update(range(heads[title_k].start, heads[title_k].body))
        if misread:
            given = heads[title_k].text  # the corpus's title is a misread line ("[source,hcl]", "Context")
    elif misread:
        given = re.sub(r"[-_]+", " ", rf.file_stem(path))  # no title at all: the file name's words
    if fmt == "adoc":
        dropped.update(i for i, ln in enumerate(lines) if re.match(r"^:[\w-]+:", ln))  # document attributes
    for k, head in enumerate(heads):
        if _STATUS_HEAD.match(head.text) and k != title_k:
            span = range(head.start, section_end(heads, k, len(lines)))
            dropped.update(span)
            status_lines.extend(span)
    decision = next((k for k, h in enumerate(heads) if _DECISION_HEAD.match(h.text) and k != title_k), None)
    body = [i for i in range(len(lines)) if i not in dropped]
    chosen: list[int] = body
    if decision is not None:
        span = range(heads[decision].body, section_end(heads, decision, len(lines)))
        chosen = [i for i in span if i not in dropped]
        if not re.search(r"\w", _tidy(cleaner.prose([lines[i] for i in chosen], fmt))):
            chosen = body
    content = _tidy(cleaner.prose([lines[i] for i in chosen], fmt))
    if not cleaner.strip:
        outside = sorted(set(status_lines) | (set(body) - set(chosen)))
        found = _references(cleaner, [lines[i] for i in outside], fmt)
        listed = listed_refs.front_matter(lines[:start]) + [
            s
            for k, h in enumerate(heads)
            for s in listed_refs.section(h.text, lines[h.body : section_end(heads, k, len(lines))])
        ]
        for sentence in listed:  # a reference to a record that is not earlier is removed; nothing left: dropped
            piece = rf.rewrite(sentence, cleaner.stems, cleaner.keep, cleaner.defs).strip()
            if re.search(r":\s*\S*\w", piece) and piece not in found:
                found.append(piece)
        if found:
            content = "\n".join(found) + ("\n\n" + content if content else "")
    summary = strip_title(given, number) or rf.file_stem(path).replace("-", " ")
    return Cleaned(summary, _cap(content, max_chars))


def _references(cleaner: _Cleaner, lines: list[str], fmt: str) -> list[str]:
    """The active "supersedes/amends X" sentences of ``lines`` (keep mode), as written, in order."""
    code = code_lines(lines, fmt)
    text = "\n".join(ln for i, ln in enumerate(lines) if i not in code and not _STATUS_HEAD.match(ln.strip("#=: ")))
    out: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)", text):
        block = _ITEM.sub("", block.strip())
        for sentence in _sentences(block.replace("\n", " ")):
            match = _RELATION_RE.search(sentence)
            if match and cleaner.is_reference(sentence[match.start() :]) and not _SELF_MARK.search(sentence):
                lead = sentence[
                    : match.start()
                ]  # "This ADR supersedes X": whole; "Accepted (Supersedes X": from the verb
                piece = (sentence if re.match(r"(?i)^\W*this\b", lead) else sentence[match.start() :]).strip()
                if piece.count(")") > piece.count("("):
                    piece = piece[: piece.rfind(")")] + piece[piece.rfind(")") + 1 :]
                piece = rf.rewrite(piece, cleaner.stems, cleaner.keep, cleaner.defs).strip()
                if piece and piece not in out:
                    out.append(piece)
    return out
