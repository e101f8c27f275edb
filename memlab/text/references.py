"""Explicit references from one record to earlier ones, and the verb that governs each (pure functions).

A record refers to an earlier one by *handle* (its number: ``ADR-0004``, ``ADR 4``, ``ADR#4``, ``adr0008``,
``#4``, ``[0004](…)``; its file: ``0004-tenant-isolation.md``, ``./0004-…``, a link to it) or by *title* (a
quoted title, ``Supersedes: Use Kafka for events``, ``the decision to use Kafka``, ``the decision on X``, a
link's text). What the record does to the referenced one comes from the verb that governs the reference in
its clause (:data:`VERBS`, small and generic on purpose):

* ``supersede`` (and the common ``supercede``), ``replace``, ``obsolete`` and ``deprecate … in favour of``:
  the earlier record is superseded;
* ``amend``, ``extend``, ``update``, ``refine``, ``clarify``: the earlier record is amended (both stay true).

A verb governs the references that follow it in the same clause within :data:`WINDOW` words (a list of
references shares one verb); a passive verb governs the reference before it (``ADR 4 is superseded``,
``ADR 4 is now obsolete``) unless another record is named as its agent. A reference after ``superseded by``,
``replaced with`` or ``in favour of`` names the replacement, not the replaced record, and gets no relation.
A negated verb (``does not supersede``, ``rather than replacing``) governs nothing. A reference with no
governing verb (``see ADR 4``, ``builds on ADR 4``) is still returned, with relation ``None``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from memlab.core.types import Relation

#: Verb stems -> the relation the verb gives the record it governs.
VERBS: tuple[tuple[str, Relation], ...] = (
    (r"super[sc]ed(?:e|es|ed|ing)", Relation.SUPERSEDE),
    (r"replac(?:e|es|ed|ing)", Relation.SUPERSEDE),
    (r"obsolet(?:e|es|ed|ing)", Relation.SUPERSEDE),
    (r"deprecat(?:e|es|ed|ing)", Relation.SUPERSEDE),  # active form only with "in favour of" in the clause
    (r"amend(?:s|ed|ing)?", Relation.MERGE),
    (r"extend(?:s|ed|ing)?", Relation.MERGE),
    (r"updat(?:e|es|ed|ing)", Relation.MERGE),
    (r"refin(?:e|es|ed|ing)", Relation.MERGE),
    (r"clarif(?:y|ies|ied|ying)", Relation.MERGE),
)
#: Words a verb may be from the reference it governs (other references in between do not count).
WINDOW = 12

_VERB = re.compile(r"\b(" + "|".join(v for v, _ in VERBS) + r")\b", re.IGNORECASE)
_VERB_RELATION = [(re.compile(rf"^{v}$", re.IGNORECASE), r) for v, r in VERBS]
_NEGATION = re.compile(r"\b(?:not|never|no|without|neither|nor|rather|instead)\b|n't\b|n’t\b", re.IGNORECASE)
_ASIDE = re.compile(
    r"\b(?:as\s+per|per|according\s+to|see|cf|following|based\s+on|consistent\s+with|in\s+line\s+with)\b", re.IGNORECASE
)
_FAVOUR = re.compile(r"\bin\s+favou?r\s+of\b", re.IGNORECASE)
_AUX = re.compile(r"\b(?:is|are|was|were|be|been|being|becomes?|became|now|hereby|makes?|made|renders?|rendered)\b")
_SELF = re.compile(r"^\W*(?:this|the\s+present|the\s+current)\s+(?:adr|decision|record|document|note|proposal)\b")
_WORD = re.compile(r"[A-Za-z0-9]+")
_MASK = "\x01"

#: Handle-shaped references (the number or file they name).
_LINK = re.compile(r"\[([^\]\n]{0,200})\]\(\s*<?([^()\s>]{0,300})>?(?:\s+\"[^\"]*\")?\s*\)")
_RST_LINK = re.compile(r"`([^`<\n]{0,200})<([^>\s]{1,300})>`_{1,2}")
_FILE = re.compile(r"(?<![\w/.])(?:\.{0,2}/)?(?:[\w.-]+/)*([\w-]+)\.(?:md|markdown|rst|adoc|txt)\b", re.IGNORECASE)
_ADR = re.compile(r"\badrs?\s*(?:no\.?|number)?\s*[#:_-]?\s*(\d{1,5})\b", re.IGNORECASE)
_HASH = re.compile(r"(?<![\w#&])#\s?0*(\d{1,4})(?![\w#])")
_NUMBER = re.compile(
    r"^\W*(?:(?:decision|record|adr)\s*)?(?:no\.?\s*)?#?\s*(0\d{1,4}|\d{1,4}(?=\s*(?:$|[.,;:)\]]|and\b|or\b)))"
)
_STEM_NUMBER = re.compile(r"^(?:adr)?[\s_-]*0*(\d{1,5})(?=$|[-_\s])", re.IGNORECASE)
_TEXT_NUMBER = re.compile(r"^\W*(?:adr\s*[#:_-]?\s*)?#?0*(\d{1,5})\b\.?\s*(.*)$", re.IGNORECASE | re.DOTALL)

#: Title-shaped references right after a verb (group ``title``).
_TITLE_AFTER = (
    re.compile(r"^\s*:\s*[\"“‘'`]?(?P<title>[^\n\"”’`]{3,160})"),
    re.compile(r"^\s+(?:of\s+)?(?:the\s+)?(?:decision|adr|record)?\s*[\"“‘'`](?P<title>[^\n\"”’`]{3,160})[\"”’'`]"),
    re.compile(
        r"^\s+(?:of\s+)?(?:the|our|my|an?)\s+(?:(?:earlier|previous|prior|old|original|existing|former|initial)\s+)?"
        r"(?:decision|adr|record|choice|note)\s+(?:to|on|about|regarding|for|of|that|over)\s+(?P<title>[^\n]{3,160})",
        re.IGNORECASE,
    ),
)
_TITLE_END = re.compile(
    r"[.;:!?,()\[\]]|\s(?:because|since|as|which|so|in\s+favou?r|with|by|and\s+(?:instead|now|we|use))\b", re.IGNORECASE
)


@dataclass(frozen=True)
class Reference:
    """One reference to another record.

    Attributes:
        start: Offset of the reference in the text.
        end: End offset.
        numbers: Record numbers it names (no leading zeros), most specific first.
        stems: File stems it names (lower case, no extension).
        title: A title it names (for fuzzy matching), ``""`` when none.
        relation: SUPERSEDE or MERGE from the governing verb; ``None`` when no verb governs it.
    """

    start: int
    end: int
    numbers: tuple[str, ...] = ()
    stems: tuple[str, ...] = ()
    title: str = ""
    relation: Relation | None = None


def number(text: str) -> str:
    """A record number without leading zeros (``"0004"`` -> ``"4"``, ``"0"`` stays)."""
    return text.lstrip("0") or "0"


def stem_of(target: str) -> str:
    """The file stem a link target names (``./docs/0004-x.md#y`` -> ``0004-x``), lower case."""
    path = re.split(r"[?#]", target, maxsplit=1)[0].rstrip("/")
    if re.match(r"^[a-z]+://[^/]+$", path, re.IGNORECASE):
        return ""
    base = path.rsplit("/", 1)[-1]
    return re.sub(r"\.(?:md|markdown|rst|adoc|txt|html?)$", "", base, flags=re.IGNORECASE).lower()


def record_target(target: str) -> bool:
    """Whether a link target may name a record file: a relative path, or a URL that says ``adr`` or ``decision``."""
    if target.startswith(("mailto:", "#")) or not stem_of(target):
        return False
    return not re.match(r"^[a-z]+:", target, re.IGNORECASE) or bool(re.search(r"adr|decision", target, re.IGNORECASE))


def _link(start: int, end: int, text: str, target: str) -> Reference:
    stem = stem_of(target)
    numbers: list[str] = []
    found = _STEM_NUMBER.match(stem) if stem else None
    if found:
        numbers.append(number(found.group(1)))
    title = text.strip().strip("`*_ ")
    inner = _TEXT_NUMBER.match(title)
    if inner:
        numbers.append(number(inner.group(1)))
        title = inner.group(2).strip()
    return Reference(start, end, tuple(dict.fromkeys(numbers)), (stem,) if stem else (), title)


def handles(text: str) -> list[Reference]:
    """Every handle-shaped reference in ``text`` (links, file names, ``ADR 4``, ``#4``), in order, disjoint."""
    found: list[Reference] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for pattern in (_LINK, _RST_LINK):
        for m in pattern.finditer(text):
            if free(*m.span()):
                taken.append(m.span())  # a link to elsewhere is no reference, and nothing inside it is one
                if record_target(m.group(2)):
                    found.append(_link(m.start(), m.end(), m.group(1), m.group(2)))
    for m in _FILE.finditer(text):
        if free(*m.span()):
            found.append(_link(m.start(), m.end(), "", m.group(0)))
            taken.append(m.span())
    for pattern in (_ADR, _HASH):
        for m in pattern.finditer(text):
            if free(*m.span()):
                found.append(Reference(m.start(), m.end(), (number(m.group(1)),)))
                taken.append(m.span())
    return sorted(found, key=lambda r: r.start)


def _clauses(masked: str) -> list[tuple[int, int]]:
    """Clause spans: sentences, semicolons, blank lines and lines that start a list item or heading."""
    ends = re.finditer(r"[.!?;](?=\s|$)|\n\s*\n|\n(?=\s*(?:[-*+#>|]|\d+[.)]\s))", masked)
    cuts = [0, *(m.end() for m in ends), len(masked)]
    return [(a, b) for a, b in itertools.pairwise(cuts) if b > a]


def _words(text: str) -> int:
    return len(_WORD.findall(text))


def _relation(verb: str) -> Relation:
    return next(r for pattern, r in _VERB_RELATION if pattern.match(verb))


def _negated(masked: str, clause_start: int, verb_start: int) -> bool:
    before = _WORD.findall(masked[clause_start:verb_start].replace("’", "'"))[-3:]
    return bool(_NEGATION.search(" ".join(before)) or re.search(r"n't\s*$", masked[clause_start:verb_start]))


def read(text: str) -> list[Reference]:
    """References in ``text`` (handles and titles), each with the relation its governing verb gives."""
    refs = handles(text)
    masked = list(text)
    for ref in refs:
        masked[ref.start : ref.end] = _MASK * (ref.end - ref.start)
    flat = "".join(masked)
    out: dict[int, Reference] = {r.start: r for r in refs}
    for c_start, c_end in _clauses(flat):
        inside = [r for r in refs if c_start <= r.start < c_end]
        for verb in _VERB.finditer(flat, c_start, c_end):
            if _negated(flat, c_start, verb.start()):
                continue
            relation, word = _relation(verb.group(1)), verb.group(1).lower()
            clause_rest = flat[verb.end() : c_end]
            if word.startswith("deprecat") and not word.endswith("ed") and not _FAVOUR.search(clause_rest):
                continue
            passive = word.endswith(("ed", "obsolete"))
            agent = re.match(r"^\s*(?:\w+\s+)?(?:by|with)\b", clause_rest) if passive else None
            aux = passive and re.search(
                r"\b(?:is|are|was|were|be|been|being)\s+(?:\w+\s+)?$", flat[c_start : verb.start()]
            )
            # active (or participle) use: the references after the verb
            if not agent and not aux:
                last = verb.end()
                governed = 0
                for ref in (r for r in inside if r.start >= verb.end()):
                    between = flat[last : ref.start]
                    if (
                        _words(between) > WINDOW
                        or _VERB.search(between)
                        or _FAVOUR.search(flat[verb.end() : ref.start])
                        or _ASIDE.search(between)
                    ):
                        break
                    if word.startswith("replac") and re.search(r"\bwith\b", flat[verb.end() : ref.start]):
                        break
                    out[ref.start] = _with(out[ref.start], relation)
                    governed += 1
                    last = ref.end
                if not governed:
                    named = _after_verb(text, verb.end(), c_end, relation)
                    if named is not None:
                        out[named.start] = named
            # passive use: the references before the verb, unless another record is the agent
            if passive:
                by = re.match(r"^\s*(?:\w+\s+)?by\b(.*)$", clause_rest, re.DOTALL)
                if by is None or _SELF.match(by.group(1)):
                    for ref in _subjects(flat, inside, c_start, verb.start(), word):
                        out[ref.start] = _with(out[ref.start], relation)
    return sorted(out.values(), key=lambda r: r.start)


def _subjects(flat: str, inside: list[Reference], c_start: int, verb_start: int, word: str) -> list[Reference]:
    """The references a passive verb at ``verb_start`` is said of (``ADR 3 and ADR 4 are superseded``)."""
    before = [r for r in inside if r.end <= verb_start]
    if not before or _words(flat[before[-1].end : verb_start]) > 4:
        return []
    group = [before[-1]]
    for ref in reversed(before[:-1]):
        if not re.fullmatch(r"\s*(?:,|and|or|&|,\s*and)?\s*", flat[ref.end : group[0].start]):
            break
        group.insert(0, ref)
    lead = flat[group[-1].end : verb_start]
    made = flat[max(c_start, group[0].start - 20) : group[0].start]
    if _AUX.search(lead) or "(" in lead or (word == "obsolete" and _AUX.search(made)):
        return group
    return []


def _with(ref: Reference, relation: Relation) -> Reference:
    current = ref.relation
    if current is Relation.SUPERSEDE:
        return ref
    return Reference(ref.start, ref.end, ref.numbers, ref.stems, ref.title, relation)


def _after_verb(text: str, start: int, end: int, relation: Relation) -> Reference | None:
    """A bare number (``replaces 0003``) or a title (quoted, after a colon, ``the decision to …``) right after a
    verb, trimmed at the clause's end; ``None`` when the verb is followed by neither.
    """
    rest = text[start:end]
    bare = _NUMBER.match(rest)
    if bare:
        return Reference(start + bare.start(1), start + bare.end(1), (number(bare.group(1)),), relation=relation)
    for pattern in _TITLE_AFTER:
        m = pattern.match(rest)
        if m:
            title = m.group("title")
            cut = _TITLE_END.search(title)
            title = (title[: cut.start()] if cut else title).strip(" \"'`“”‘’*_")
            if _WORD.search(title):
                at = start + m.start("title")
                return Reference(at, at + len(title), title=title, relation=relation)
    return None
