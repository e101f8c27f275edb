"""Reference judge: the newer memory names the older one and says what it does to it ("Supersedes ADR-0004")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase
from memlab.text.lexical import tokens
from memlab.text.references import Reference, number, read

#: Words that say nothing about which record a title names ("Use X", "Decision on X").
TITLE_STOPWORDS = frozenset({"use", "using", "adr", "decision", "record", "we", "our", "will", "is", "are", "be", "it"})


@dataclass(frozen=True)
class Entry:
    """What a memory is called by others: its number and file stem (``meta["handles"]``) and its title words."""

    id: str
    timestamp: datetime
    number: str
    stem: str
    title: frozenset[str]


def entry(memory: Memory) -> Entry:
    """The index entry of ``memory`` (malformed handles are ignored)."""
    handles = memory.meta.get("handles") if isinstance(memory.meta, Mapping) else None
    num = stem = ""
    if isinstance(handles, (list, tuple)):
        if len(handles) > 0 and isinstance(handles[0], (str, int)) and str(handles[0]).strip().isdigit():
            num = number(str(handles[0]).strip())
        if len(handles) > 1 and isinstance(handles[1], str):
            stem = handles[1].strip().lower()
    return Entry(memory.id, memory.timestamp, num, stem, title_words(memory.summary))


def title_words(text: str) -> frozenset[str]:
    """Content words of a title (lower case, light stemming, no stop words or leading record number)."""
    return frozenset(t for t in tokens(text) if t not in TITLE_STOPWORDS and not t.isdigit())


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    """Dice overlap of two word sets (0 when either is empty)."""
    return 2.0 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


class ReferenceJudge(JudgeBase):
    """Reads explicit references in the newer memory (summary and content) and resolves them to earlier ones.

    References and their verbs are read by :mod:`memlab.text.references`: by handle (a record number, a file
    name, a link to the file) or by title (a quoted or linked title, ``Supersedes: <title>``, ``the decision to
    use Kafka``); the governing verb gives SUPERSEDE (supersede, replace, obsolete, deprecate in favour of) or
    MERGE (amend, extend, update, refine, clarify). A handle resolves through the memories' ``meta["handles"]``
    (``(number, file stem)``: the names other records use for it): a file stem first, then a number; a title
    resolves to the earlier memory whose summary shares the most words with it (Dice overlap at least
    ``title_threshold`` and ahead of the runner-up by ``title_margin``). Only memories recorded at or before
    the newer one are candidates (the store given to :meth:`observe`, plus the pair's older memory).

    Verdicts: a governed reference that resolves to the older memory alone → its relation with confidence
    ``confidence`` (SUPERSEDE wins over MERGE when both are read); one whose resolution is ambiguous and
    includes the older memory → COEXIST (0.5); otherwise the judge has nothing to say (:meth:`read` returns
    ``None``, :meth:`judge` COEXIST with confidence 0.5) — unless ``others_coexist`` and the newer memory
    supersedes or amends other earlier memories by explicit reference, none of them the older: COEXIST with
    confidence ``confidence``.

    Args:
        confidence: Confidence of a verdict read from an unambiguous reference.
        title_threshold: Least Dice overlap of a title reference with a memory's summary words.
        title_margin: Least lead of the best title match over the runner-up.
        others_coexist: Answer COEXIST (with ``confidence``) for an older memory the newer one does not name
            when it names others as what it supersedes or amends.
    """

    name: ClassVar[str] = "reference"
    version: ClassVar[int] = 1
    observes: ClassVar[bool] = True

    def __init__(
        self,
        confidence: float = 0.95,
        title_threshold: float = 0.6,
        title_margin: float = 0.1,
        others_coexist: bool = False,
    ) -> None:
        self.confidence = confidence
        self.title_threshold = title_threshold
        self.title_margin = title_margin
        self.others_coexist = others_coexist
        self.index_: dict[str, Entry] = {}
        self.cache_: dict[str, tuple[str, list[tuple[Reference, frozenset[str]]]]] = {}

    def observe(self, memories: Sequence[Memory]) -> None:
        """Index the store: every memory's handles and title words (a new store clears the cached readings)."""
        index = {m.id: entry(m) for m in memories}
        if index != self.index_:
            self.cache_.clear()
        self.index_ = index

    def _resolve(self, ref: Reference, pool: Sequence[Entry]) -> frozenset[str]:
        """Ids ``ref`` may name among ``pool`` (empty: none; more than one: ambiguous)."""
        for stem in ref.stems:
            hit = frozenset(e.id for e in pool if e.stem and e.stem == stem)
            if hit:
                return hit
        for num in ref.numbers:
            hit = [e for e in pool if e.number == num]
            if len(hit) > 1 and ref.title:  # two records with one number: the title decides
                best = self._by_title(ref.title, hit)
                if best:
                    return best
            if hit:
                return frozenset(e.id for e in hit)
        if ref.title and not ref.numbers and not ref.stems:
            return self._by_title(ref.title, pool)
        if ref.title and ref.stems and not any(e.stem for e in pool):  # links in a store without handles
            return self._by_title(ref.title, pool)
        return frozenset()

    def _by_title(self, title: str, pool: Sequence[Entry]) -> frozenset[str]:
        words = title_words(title)
        scored = sorted(((dice(words, e.title), e.id) for e in pool), reverse=True)
        if not scored or scored[0][0] < self.title_threshold:
            return frozenset()
        return frozenset(i for s, i in scored if s > scored[0][0] - self.title_margin)

    def references(self, newer: Memory, older: Memory | None = None) -> list[tuple[Reference, frozenset[str]]]:
        """The references of ``newer`` with the ids each resolves to (memories recorded after it excluded)."""
        key = newer.text
        cached = self.cache_.get(newer.id)
        if cached is not None and cached[0] == key and (older is None or older.id in self.index_):
            return cached[1]
        index = dict(self.index_)
        for m in (older, newer):
            if m is not None and m.id not in index:
                index[m.id] = entry(m)
        pool = [e for e in index.values() if e.id != newer.id and e.timestamp <= newer.timestamp]
        out = [(ref, self._resolve(ref, pool)) for ref in read(newer.text)]
        if older is None or older.id in self.index_:
            self.cache_[newer.id] = (key, out)
        return out

    def cites(self, memories: Sequence[Memory]) -> bool:
        """Whether any of ``memories`` names an earlier one, unambiguously, as what it supersedes or amends
        (call after :meth:`observe` of the store).
        """
        return any(r.relation is not None and len(ids) == 1 for m in memories for r, ids in self.references(m))

    def read(self, older: Memory, newer: Memory) -> Verdict | None:
        """The verdict the newer memory's explicit references give on ``older``; ``None`` when they give none."""
        if older.timestamp > newer.timestamp or older.id == newer.id:
            return None
        refs = [(r, ids) for r, ids in self.references(newer, older) if r.relation is not None and ids]
        mine = [(r, ids) for r, ids in refs if older.id in ids]
        sure = [r for r, ids in mine if len(ids) == 1]
        if sure:
            relation = Relation.SUPERSEDE if any(r.relation is Relation.SUPERSEDE for r in sure) else Relation.MERGE
            what = next(r for r in sure if r.relation is relation)
            named = ", ".join(what.stems or what.numbers or (what.title,))
            return Verdict(relation, self.confidence, f"newer {relation.value.lower()}s {named} by explicit reference")
        if mine:
            return Verdict(Relation.COEXIST, 0.5, "explicit reference, ambiguous")
        if self.others_coexist and any(len(ids) == 1 for _, ids in refs):
            return Verdict(Relation.COEXIST, self.confidence, "newer names other records as what it changes")
        return None

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """The verdict of :meth:`read`, COEXIST (0.5) when the newer memory's references say nothing on ``older``."""
        try:
            verdict = self.read(older, newer)
        except Exception:  # odd text must never fail a run (SupersessionJudge contract)
            return Verdict(Relation.COEXIST, 0.0, "reference reader failed")
        return verdict if verdict is not None else Verdict(Relation.COEXIST, 0.5, "no explicit reference")
