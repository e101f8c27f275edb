"""Text analysis for the slot judge (and the learned judge's features): what a memory says, about what.

A memory is reduced to a :class:`Parsed` record: its content tokens, its *salient* tokens (the words that
usually carry a value: capitalised words that do not start a sentence, acronyms, numbers, versions,
paths), the change statements it makes (``from X to Y``, ``replaced X with Y``, ``no longer X``, ...),
its scope (``in tests``, ``for staging``, ``locally``; ``in production`` is the default scope), its
subjects (``the billing service``) and whether it negates something. Pure functions, no state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from memlab.core.types import Memory


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOPWORDS = _words(
    """a an the and or but of for to in on at by with from as is are was were be been being it its this that
    these those we our us you your they their i he she his her them there here so if then than too very can
    will would should could may might must do does did done has have had not no now also just only into over
    under about after before again all any each few more most other some such own same both which who whom
    what when where why how because while until up down out off via per use used using uses"""
)

#: Words that signal a change of value, grouped by cue name (kept out of value comparisons).
CUE_WORDS = _words(
    """switched switch switching replaced replace replacing deprecated deprecate moved move migrated migrate
    migrating dropped drop reverted revert back instead longer changed change stopped retired removed
    abandoned took over going forward anymore resolved fixed unblocked resumed now becomes became favour favor
    returns returned again adopts adopted superseded supplanted slips slipped postponed rescheduled reversed
    undone"""
)

#: Only the first characters of a memory are parsed (memories are short; this bounds the work).
MAX_CHARS = 4000

#: A token: letters and digits of any script (``[^\W_]``; on ASCII text exactly ``[A-Za-z0-9]``, so "Tomás" is
#: one token, not "tom" and "s"), with ``+#./_-`` inside and ``+#`` at the end (``c++``, ``node.js``).
_TOKEN = re.compile(r"[^\W_](?:[^\W_]|[+#./_-])*(?:[^\W_]|[+#])|[^\W_]")
#: Start of a sentence or clause (anchors patterns whose first group is lazy, keeping matching linear).
_SENTENCE_START = r"(?:^|(?<=[.;:!?\n]))\s*"
#: Start of a sentence, clause or comma-separated part ("In billing, Redis is replaced by ...").
_PART_START = r"(?:^|(?<=[;:,!?\n])|(?<=\.\s))\s*"
_CLAUSE_END = r"(?=\.(?:\s|$)|[;,:!?()\n]|\s+(?:because|since|as|so|after|which|for|due)\b|$)"

#: (cue name, pattern with optional named groups ``old`` and ``new``). Order matters only for the reason.
CHANGE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pat, re.IGNORECASE))
    for name, pat in (
        ("reverted", r"\brevert(?:ed|ing)?\b(?:\s+\w+)*?\s+(?:back\s+)?to\s+(?P<new>.+?)" + _CLAUSE_END),
        ("back to", r"\b(?:went|go|going|moved|switched|are|is)?\s*back\s+to\s+(?P<new>.+?)" + _CLAUSE_END),
        ("from-to", r"\bfrom\s+(?P<old>[^.;,:\n]+?)\s+(?:back\s+)?(?:to|onto|over to)\s+(?P<new>.+?)" + _CLAUSE_END),
        ("replaced", r"\breplac(?:ed|e|ing)\s+(?P<old>[^.;,:\n]+?)\s+(?:with|by)\s+(?P<new>.+?)" + _CLAUSE_END),
        (
            "replaced",
            _SENTENCE_START + r"(?P<new>[^.;,:\n]+?)\s+(?:replaces|replaced)\s+(?!by\b)(?P<old>.+?)" + _CLAUSE_END,
        ),
        (
            "replaced",
            _PART_START + r"(?P<old>(?:[^.;,:\n]|\.(?!\s))+?)\s+"
            r"(?:is|was|are|were|has been|have been|had been|got|gets|will be)\s+"
            r"(?:replaced|superseded|succeeded|supplanted)\s+(?:by|with)\s+(?P<new>.+?)" + _CLAUSE_END,
        ),
        (
            "was-now",
            r"\b(?:was|were|used\s+to\s+be)\s+(?!(?:\w+(?:ed|en|ing)|in|on|at|by|for|to|not|never|also|already)\b)"
            r"(?P<old>[^.;,:\n]+?)\s*[;,]\s*(?:but\s+)?"
            r"(?:(?:it|this|that|they|he|she)\s+(?:is|are)\s+now|now(?:\s+(?:it\s+is|they\s+are))?)\s+"
            r"(?P<new>.+?)" + _CLAUSE_END,
        ),
        (
            "reverted",
            r"\b(?:move|switch|migration|change|transition|upgrade)\s+(?:to|onto)\s+(?P<old>[^.;,:\n]+?)\s+"
            r"(?:was|has been|got|is being|were|have been)\s+"
            r"(?:reversed|rolled\s+back|undone|reverted|abandoned|cancell?ed|called\s+off)\b",
        ),
        ("back to", _SENTENCE_START + r"(?P<new>[^.;,:\n]+?)\s+(?:is|are)\s+once\s+(?:more|again)\b"),
        (
            "moved to",
            r"\b(?:slips?|slipped|slipping|postponed|pushed\s+back|delayed|rescheduled|moved\s+(?:back|out))\s+"
            r"(?:again\s+)?(?:to|until|till)\s+(?P<new>.+?)" + _CLAUSE_END,
        ),
        ("instead of", r"\binstead\s+of\s+(?P<old>.+?)" + _CLAUSE_END),
        (
            "no longer",
            _SENTENCE_START
            + r"(?P<old>[^.;,:\n]+?)\s+(?:is\s+)?no\s+longer\s+(?:fits|works|scales|needed|makes sense|meets)\b",
        ),
        ("no longer", r"\bno\s+longer\s+(?!fits|works|scales|needed|makes sense|meets)(?P<old>.+?)" + _CLAUSE_END),
        ("not anymore", r"\b(?:don't|do not|doesn't|does not)\s+(?P<old>.+?)\s+anymore\b"),
        (
            "dropped",
            r"\b(?:dropped|deprecated|retired|removed|abandoned|stopped using|stopped deploying to|"
            r"stopped running on|moved away from|migrated off|moved off|got rid of|ditched)\s+(?P<old>.+?)"
            + _CLAUSE_END,
        ),
        (
            "took over",
            r"\b(?P<new>\w+(?:\s+\w+)?)\s+(?:took|takes|has taken)\s+over\b"
            r"(?:\s+(?:\w+\s+){0,3}?from\s+(?P<old>.+?)" + _CLAUSE_END + r")?",
        ),
        (
            "moved to",
            r"\b(?:switched|moved|migrated|changed|switching|moving|migrating|changing|transitioned|"
            r"transitioning|upgraded)\s+(?:\w+\s+){0,4}?(?:to|onto|over to)\s+(?P<new>.+?)" + _CLAUSE_END,
        ),
        (
            "now",
            r"\bnow\s+(?:uses?|runs?\s+(?:on|under|with|in)|deploys?\s+to|lives?\s+in|goes\s+to|go\s+to|"
            r"authenticates?\s+(?:with|using|via)|(?:ships?|launch(?:es)?|releases?|starts?|goes\s+live)\s+(?:on|in|by)|"
            r"(?:is|are)\s+(?:on|in|with|handled by|owned by|done with)?)\s*"
            r"(?P<new>.+?)" + _CLAUSE_END,
        ),
        ("going forward", r"\bgoing\s+forward\s*[:,-]?\s+(?P<new>.+?)" + _CLAUSE_END),
        (
            "going forward",
            r"\b(?:from|starting|as\s+of)\s+(?:today|tomorrow|now(?:\s+on)?|this\s+(?:week|sprint|month|release))"
            r"\s*[:,]?\s+(?P<new>.+?)" + _CLAUSE_END,
        ),
        (
            "going forward",
            _SENTENCE_START + r"(?P<new>[^.;:\n]+?)\s+(?:from|starting|as\s+of)\s+(?:today|tomorrow|now(?:\s+on)?)\b",
        ),
        ("becomes", r"(?:^|[.;:]\s+)(?P<new>[^.;,:\n]+?)\s+(?:becomes|became|is now)\b"),
        ("in favour of", r"\bin\s+favou?r\s+of\s+(?P<new>.+?)" + _CLAUSE_END),
        ("back to", r"\b(?:returns?|returned|returning)\s+to\s+(?P<new>.+?)" + _CLAUSE_END),
        (
            "back to",  # "Postgres again" returns to a value; "slips again", "checked again" repeat an action
            r"(?:^|[.;:]\s+)(?P<new>[^.;,:\n]+?)(?<!ed)(?<!\bworks)(?<!\bships)(?<!\bruns)(?<!\bslips)(?<!\bfails)"
            r"(?<!\bbreaks)(?<!\bbroke)(?<!\bbroken)(?<!\bsaid)(?<!\bhappens)\s+again\b",
        ),
        ("moved to", r"\b(?:is|are)\s+now\s+(?P<new>.+?)" + _CLAUSE_END),
        (
            "resolved",
            r"\b(?:resolved|fixed|unblocked|no longer blocked|outage over|blocker closed|works again|"
            r"deploys resumed)\b",
        ),
    )
)

#: For each of :data:`CHANGE_PATTERNS`, words one of which an ASCII text must contain (lower-cased) for the
#: pattern to match: a pattern none of whose words occur is not run (the result is the same, found faster).
_CHANGE_KEYS: tuple[tuple[str, ...], ...] = (
    ("revert",),
    ("back",),
    ("from",),
    ("replac",),
    ("replace",),
    ("replaced", "superseded", "succeeded", "supplanted"),
    ("now",),
    ("reversed", "rolled", "undone", "reverted", "abandoned", "cancel", "called off"),
    ("once",),
    ("slip", "postpon", "pushed", "delayed", "reschedul", "moved"),
    ("instead",),
    ("longer",),
    ("longer",),
    ("anymore",),
    ("dropped", "deprecated", "retired", "removed", "abandoned", "stopped", "moved", "migrated", "got", "ditched"),
    ("over",),
    ("switch", "mov", "migrat", "chang", "transition", "upgraded"),
    ("now",),
    ("forward",),
    ("today", "tomorrow", "now", "this"),
    ("today", "tomorrow", "now"),
    ("becomes", "became", "is now"),
    ("favo",),
    ("return",),
    ("again",),
    ("now",),
    ("resolved", "fixed", "unblocked", "blocked", "outage", "blocker", "again", "resumed"),
)
assert len(_CHANGE_KEYS) == len(CHANGE_PATTERNS)

#: Scope phrases (regex) → canonical scope. ``production`` is the default scope and maps to ``None``.
SCOPE_PATTERNS: tuple[tuple[re.Pattern[str], str | None], ...] = tuple(
    (re.compile(pat, re.IGNORECASE), scope)
    for pat, scope in (
        (
            r"\b(?:in|for|during|within|under)\s+(?:the\s+|all\s+|our\s+)?"
            r"(?:unit\s+|integration\s+|browser\s+|load\s+|e2e\s+)?"
            r"(?:tests?|testing|test suites?|test runs?|test environment)\b",
            "tests",
        ),
        (r"\b(?:in|for|on)\s+(?:the\s+)?(?:staging|stage)(?:\s+environment)?\b", "staging"),
        (r"\b(?:staging environment|staging-only)\b", "staging"),
        (r"\blocally\b|\b(?:for|in|during)\s+(?:the\s+)?local\s+(?:development|dev|runs|machines?)\b", "local"),
        (r"\b(?:in|for|on)\s+(?:the\s+)?ci\b|\bin continuous integration\b", "ci"),
        (r"\b(?:in|for)\s+(?:the\s+)?(?:dev|development)(?:\s+environment)?\b", "dev"),
        (r"\b(?:in|for)\s+(?:the\s+)?(?:prototype|poc|proof of concept)\b", "prototype"),
        (r"\b(?:for|in)\s+(?:the\s+)?(?:preview|beta|internal preview)(?:\s+\w+)?\b", "preview"),
        (r"\bfor\s+(?:the\s+)?(?:docs|documentation)(?:\s+(?:site|build))?\b", "docs"),
        (
            r"\bfor\s+(?:the\s+)?(?:release builds|hotfixes|notebooks|generated code|one-off scripts|batch jobs)\b",
            "special",
        ),
        (r"\bfor\s+(?:the\s+)?(?:internal|admin|marketing|mobile)\s+\w+", "special"),
        (
            r"\bfor\s+(?:service-to-service|security reviews|the on-call|email templates|sql files|private helpers)\b",
            "special",
        ),
        (r"\b(?:in|for|on)\s+(?:the\s+)?(?:production|prod)\b", None),
    )
)

_SUBJECT_HEAD = re.compile(
    r"\b(service|component|module|subsystem|microservice|repository|repo|library|portal|project)\b", re.IGNORECASE
)
#: Head nouns that name a subject on their own (``the project``).
_BARE_HEADS = frozenset({"project"})
_SUBJECT_STOP = STOPWORDS | {"use", "uses", "using", "run", "runs", "built", "build"}
#: Owners before a head-noun phrase that make it an attribute (``its ... service``).
_OWNERS = frozenset({"its", "their"})
#: Determiners after ``of`` / ``for`` (then a subject) that make the preceding head-noun phrase an attribute
#: (``... service of the project``).
_OF_OWNER = frozenset({"the", "its", "their", "our"})
_NEGATION = re.compile(r"\b(?:not|never|no longer|don't|doesn't|won't|isn't|aren't|without|avoid)\b", re.I)


@dataclass(frozen=True)
class Change:
    """One change statement: tokens of the replaced value (``old``) and of the new value (``new``)."""

    cue: str
    old: frozenset[str] = frozenset()
    new: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Parsed:
    """What the slot rules see of a memory."""

    tokens: frozenset[str]
    summary_tokens: frozenset[str]
    salient: frozenset[str]
    changes: tuple[Change, ...] = ()
    scopes: frozenset[str] = frozenset()
    subjects: frozenset[str] = frozenset()
    negated: bool = False
    subject_tokens: frozenset[str] = frozenset()
    norm: str = ""
    n_words: int = 0
    cues: frozenset[str] = field(default_factory=frozenset)

    @property
    def asserted(self) -> frozenset[str]:
        """Tokens of the value the memory asserts now.

        The ``new`` side of its changes, else its salient words that it does not say were replaced.
        """
        new: set[str] = set()
        for ch in self.changes:
            new |= ch.new
        return frozenset(new) if new else self.salient - self.replaced

    @property
    def replaced(self) -> frozenset[str]:
        """Tokens of values the memory says are no longer used."""
        old: set[str] = set()
        for ch in self.changes:
            old |= ch.old
        return frozenset(old)


def content_tokens(text: str) -> list[str]:
    """Lower-cased tokens of ``text`` without stopwords."""
    return [t.lower() for t in _TOKEN.findall(text) if t.lower() not in STOPWORDS]


def _value_tokens(phrase: str) -> frozenset[str]:
    return frozenset(t for t in content_tokens(phrase) if t not in CUE_WORDS)


_SYMBOLS = frozenset("0123456789+#./_")


def salient_tokens(text: str) -> frozenset[str]:
    """Capitalised words not starting a sentence, acronyms, words with digits or symbols (values, mostly)."""
    out: set[str] = set()
    for sentence in re.split(r"(?<=[.!?:;])\s+|\n+", text):
        for i, m in enumerate(_TOKEN.finditer(sentence)):
            tok = m.group(0)
            low = tok.lower()
            if low in STOPWORDS or low in CUE_WORDS:
                continue
            has_sym = not _SYMBOLS.isdisjoint(tok)  # _TOKEN: letters, digits and +#./_ only
            rest = tok[1:]
            inner_cap = rest != rest.lower()
            if has_sym or inner_cap or (tok[0].isupper() and i > 0):
                out.add(low)
    return frozenset(out)


#: For each of :data:`SCOPE_PATTERNS`, words one of which an ASCII text must contain (lower-cased) to match.
_SCOPE_KEYS: tuple[tuple[str, ...], ...] = (
    ("test",),
    ("stag",),
    ("staging",),
    ("local",),
    ("ci", "continuous"),
    ("dev",),
    ("prototype", "poc", "proof"),
    ("preview", "beta"),
    ("doc",),
    ("for",),
    ("for",),
    ("for",),
    ("prod",),
)
assert len(_SCOPE_KEYS) == len(SCOPE_PATTERNS)


def _possessive_s(words: list[str], j: int) -> bool:
    """``words[j]`` is the ``s`` of a possessive (``service ' s``)."""
    return words[j].lower() == "s" and j > 0 and words[j - 1] in ("'", "\u2019")


def subjects(text: str) -> frozenset[str]:
    """Subject phrases like ``billing service`` (up to three words before a head noun such as *service*).

    A head-noun phrase owned by something else names an attribute, not a subject: ``the billing service's
    continuous integration service``, ``its continuous integration service``, ``the continuous integration
    service of the billing service`` and ``Continuous integration service for the billing service`` each have
    the one subject ``billing service``.
    """
    out: set[str] = set()
    words = re.findall(r"[A-Za-z0-9#/-]+|[^\sA-Za-z0-9]", text)
    for i, w in enumerate(words):
        if not _SUBJECT_HEAD.fullmatch(w):
            continue
        mods: list[str] = []
        j = i - 1
        while (
            j >= 0
            and len(mods) < 3
            and words[j][0].isalnum()
            and words[j].lower() not in _SUBJECT_STOP
            and not _possessive_s(words, j)
        ):
            mods.insert(0, words[j].lower())
            j -= 1
        owned = j >= 0 and (_possessive_s(words, j) or words[j].lower() in _OWNERS)
        of_other = (
            i + 2 < len(words)
            and words[i + 1].lower() in ("of", "for")
            and words[i + 2].lower() in _OF_OWNER
            and any(_SUBJECT_HEAD.fullmatch(x) for x in words[i + 3 : i + 7])
        )
        if owned or of_other:
            continue
        if mods or w.lower() in _BARE_HEADS:
            out.add(" ".join([*mods, w.lower()]))
    return frozenset(out)


def scopes(text: str) -> frozenset[str]:
    """Canonical non-default scopes mentioned in ``text`` (``production`` is the default and not listed)."""
    found: set[str] = set()
    low = text.lower() if text.isascii() else None  # non-ASCII: every pattern runs (Unicode case folding)
    for (pat, scope), keys in zip(SCOPE_PATTERNS, _SCOPE_KEYS, strict=True):
        if scope is None or (low is not None and not any(k in low for k in keys)):
            continue
        if pat.search(text):
            found.add(scope)
    return frozenset(found)


def changes(text: str, ignore: frozenset[str] = frozenset()) -> tuple[Change, ...]:
    """Change statements in ``text`` (``ignore``: tokens left out of the values, e.g. the subject's)."""
    out: list[Change] = []
    low = text.lower() if text.isascii() else None  # non-ASCII: every pattern runs (Unicode case folding)
    for (name, pat), keys in zip(CHANGE_PATTERNS, _CHANGE_KEYS, strict=True):
        if low is not None and not any(k in low for k in keys):
            continue
        for m in pat.finditer(text):
            groups = m.groupdict()
            old = _value_tokens(groups.get("old") or "") - ignore
            new = _value_tokens(groups.get("new") or "") - ignore
            out.append(Change(name, old, new))
    return tuple(out)


def parse(memory: Memory) -> Parsed:
    """Parse one memory (summary first, then content); cached on the memory's text."""
    return _parse_text((memory.summary or "")[:MAX_CHARS], (memory.text or "")[:MAX_CHARS])


def parse_texts(summary: str, text: str) -> Parsed:
    """:func:`parse` of a memory with this summary and text (cached on them)."""
    return _parse_text(summary[:MAX_CHARS], text[:MAX_CHARS])


@lru_cache(maxsize=1 << 17)  # a 100,000-memory store's distinct texts (a smaller cache thrashes)
def _parse_text(summary: str, text: str) -> Parsed:
    toks = content_tokens(text)
    subj = subjects(text)
    subj_tokens = frozenset(t for phrase in subj for t in phrase.split()) | {"s"}
    chs = changes(text, subj_tokens)
    return Parsed(
        tokens=frozenset(toks),
        summary_tokens=frozenset(content_tokens(summary)),
        salient=salient_tokens(text),
        changes=chs,
        scopes=scopes(text),
        subjects=subj,
        subject_tokens=subj_tokens,
        negated=bool(_NEGATION.search(text)),
        norm=" ".join(text.lower().split()),
        n_words=len(toks),
        cues=frozenset(c.cue for c in chs),
    )
