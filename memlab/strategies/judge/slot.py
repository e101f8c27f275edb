"""Slot judge: what a memory is about (subject, attribute, scope) and which value it states, by rules."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import ClassVar

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase
from memlab.text.change_reading import continues, negated_tokens, read_changes
from memlab.text.slot_parse import CUE_WORDS, MAX_CHARS, Parsed, _words, parse, parse_texts
from memlab.text.tokens import jaccard

#: Cue names that are not a change of value (handled by the blocker rule).
_RESOLUTION = "resolved"
_REVERT = frozenset({"reverted", "back to"})


class SlotJudge(JudgeBase):
    """Heuristic judge over (subject, attribute, scope, value) slots.

    Each memory is parsed by :mod:`memlab.text.slot_parse` into content tokens, salient
    tokens (values, mostly: capitalised words inside a sentence, acronyms, numbers, versions), change
    statements with their replaced (``old``) and new values, scopes and subjects; change statements are
    read by :mod:`memlab.text.change_reading` (value spans trimmed at clause modifiers, passive drops,
    arrow and swap notations; changes in a clause that plans, hedges, asks or weighs are left out). The
    rules, in order:

    1. Identical normalised text → DUPLICATE (1.0). Empty text on either side → COEXIST.
    2. Cosine ``similarity`` hint (or token Jaccard without one) below ``min_similarity`` → COEXIST.
    3. Both name a subject (``the billing service`` / ``the search service``) and they share none → COEXIST:
       same attribute, different thing.
    4. Different scopes (``in tests``, ``for staging``, ``locally``, ``in CI``, ``for the docs`` … versus
       none; ``in production`` counts as no scope) → COEXIST: a scoped variant never supersedes.
    5. The newer memory states a change (``switched from X to Y``, ``replaced X with Y``, ``X instead of
       Y``, ``no longer``, ``deprecated``/``dropped``/``stopped using``, ``moved``/``migrated to``,
       ``reverted to``, ``back to``, ``now uses``, ``took over from``):

       a. both are changes with the same replaced and new values → DUPLICATE (a restated change);
       b. the value it replaces is the value the older memory asserts (its salient words, or the new
          side of its own change; for lowercase values, words of the older text) → SUPERSEDE (0.9);
       c. after a revert cue, it moves to a value the older memory mentions without asserting it →
          SUPERSEDE (0.6); it moves to the value the older memory already asserts (no name or number of
          the new value missing from the older memory): after a revert cue (``reverted``, ``back to``) →
          COEXIST (A, A→B, back to A: the revert supersedes the change, not the first note), otherwise
          DUPLICATE (0.6);
       d. it moves to a new value, names no old one, shares attribute words (summary words that are not
          subject words, nor words of at least ``max_attribute_share`` of the store's notes) with the older
          memory and the similarity is at least ``change_similarity`` → SUPERSEDE (0.6);
       e. otherwise → COEXIST (the change concerns another slot).
    Before rule 5: a resolution (``resolved``, ``fixed``, ``unblocked``, ``outage over``, ``works again``) →
    rule 6; an older blocker in ``blockers`` is superseded (0.7) by a later ``blockers`` note on the same
    thing (rule 6's overlap) that reports no blockage (no blocker or failure word, no ongoing ``since`` /
    ``until``), and by nothing else but its resolution (COEXIST); an older memory that only plans a
    change is not superseded by a change (COEXIST); a newer memory outside ``change_namespaces`` cannot
    supersede (rules 8–11 only, SUPERSEDE demoted to COEXIST).

    6. Two resolution notes → COEXIST. The newer memory says a blocker is resolved and the older one is a
       blocker (namespace ``blockers`` or words such as *blocked*, *halted*, *outage*) sharing a
       non-generic word (the broken thing, not the subject or the time) with token Jaccard at least
       ``resolution_overlap`` → SUPERSEDE (0.8); otherwise COEXIST.
    7. Negation (``not``, ``never``, ``without`` …) of the older memory's value, in the same clause
       (comma-separated part) as the value, without a change cue → SUPERSEDE (0.55).
    8. Same value (the older memory's asserted value words appear in the newer one and the newer one
       brings fewer new salient words than it shares, attribute acronyms such as API or CI counting half;
       with no salient value words the older summary's words stand in and the similarity must reach
       ``dup_similarity``): at least ``merge_min_new_tokens`` new content words and a longer text → MERGE
       (added detail, 0.7), else DUPLICATE (restatement, 0.8); with ``graded_same_value`` either is as sure
       as the pair's similarity when that is higher. A newer memory whose summary names all of
       the older value but which brings new salient words is a MERGE when it adds enough words.
    9. Different values in the same namespace (one of ``implicit_namespaces``) on a shared attribute
       (common non-value words) with similarity ≥ ``implicit_similarity`` → SUPERSEDE (0.55) when
       ``implicit_change``; otherwise COEXIST.
    10. No salient words on either side and token Jaccard ≥ ``dup_jaccard`` → DUPLICATE (0.6).
    11. Otherwise COEXIST.

    After the rules: a SUPERSEDE below 0.8 (not an explicit replacement of the older value, not a resolution)
    from a newer memory that says a value continues (``still``, ``stays``, ``remains``, a reminder) →
    COEXIST.

    Any internal failure gives COEXIST (confidence 0) with the error in the reason; never raises.

    Args:
        min_similarity: Below this cosine (or Jaccard without a hint) the pair is unrelated.
        implicit_similarity: Minimum cosine for a change without an explicit old value (rules 5d, 9).
        implicit_change: Allow rule 9 (a different value on the same attribute without any cue).
        merge_min_new_tokens: New content words that make a same-value memory a MERGE rather than a DUPLICATE.
        dup_jaccard: Token Jaccard for a DUPLICATE when neither memory has salient words.
        resolution_overlap: Token Jaccard between a blocker and its resolution (rule 6).
        dup_similarity: Minimum similarity for rule 8 when the older memory has no salient value words (its
            summary words stand in for the value).
        change_namespaces: Namespaces a superseding (non-resolution) memory must be in; ``None`` = any. The
            conf uses ``[decisions]``: in git-notes-memory a change of decision is recorded as a decision,
            while reviews, learnings and research notes restate or detail it.
        change_similarity: Minimum cosine for rule 5d (a change naming only its new value).
        max_attribute_share: Share of the store's notes (:meth:`observe`) from which a word no longer counts as
            a shared attribute in rules 5d and 9 (1.0: every word counts).
        implicit_namespaces: Namespaces where rule 9 applies (facts with one current value; blockers,
            progress notes and learnings accumulate instead).
        graded_same_value: Rule 8's confidence is the pair's similarity when higher than its fixed 0.7 / 0.8:
            the stand-in for an LLM's own confidence in MycelicMemory's flow, whose gate (above 0.8) a fixed
            0.7 for every MERGE could never pass; off (default): the fixed values.
    """

    name: ClassVar[str] = "slot"
    version: ClassVar[int] = 1
    observes: ClassVar[bool] = True

    def __init__(
        self,
        min_similarity: float = 0.2,
        implicit_similarity: float = 0.6,
        implicit_change: bool = True,
        merge_min_new_tokens: int = 4,
        dup_jaccard: float = 0.6,
        resolution_overlap: float = 0.2,
        dup_similarity: float = 0.7,
        implicit_namespaces: Sequence[str] = ("decisions", "patterns"),
        change_namespaces: Sequence[str] | None = None,
        change_similarity: float = 0.3,
        max_attribute_share: float = 1.0,
        graded_same_value: bool = False,
    ) -> None:
        self.min_similarity = min_similarity
        self.implicit_similarity = implicit_similarity
        self.implicit_change = implicit_change
        self.merge_min_new_tokens = merge_min_new_tokens
        self.dup_jaccard = dup_jaccard
        self.resolution_overlap = resolution_overlap
        self.dup_similarity = dup_similarity
        self.implicit_namespaces = tuple(implicit_namespaces)
        self.change_namespaces = tuple(change_namespaces) if change_namespaces else None
        self.graded_same_value = graded_same_value
        self.change_similarity = change_similarity
        self.max_attribute_share = max_attribute_share
        self.common_: frozenset[str] = frozenset()

    def observe(self, memories: Sequence[Memory]) -> None:
        """Note the words too common in the store to tie two notes to one attribute (rules 5d and 9).

        A word in at least ``max_attribute_share`` of the store's notes (the component or area most notes are
        about, a form word every note of a template carries) names no attribute of its own.
        """
        if self.max_attribute_share >= 1.0 or not memories:
            self.common_ = frozenset()
            return
        counts: Counter[str] = Counter()
        for m in memories:
            counts.update(parse(m).tokens)
        floor = self.max_attribute_share * len(memories)
        self.common_ = frozenset(t for t, c in counts.items() if c >= floor)

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Judge ``newer`` against ``older`` (rules in the class docstring)."""
        try:
            verdict = self._judge(older, newer, similarity)
            if verdict.relation is Relation.SUPERSEDE and verdict.confidence < 0.8 and continues(newer.text):
                return Verdict(Relation.COEXIST, 0.55, f"the newer note says a value continues ({verdict.reason})")
            return verdict
        except Exception as exc:  # the contract: never raise
            return Verdict(Relation.COEXIST, 0.0, f"slot judge failed: {type(exc).__name__}")

    def _judge(self, older: Memory, newer: Memory, similarity: float | None) -> Verdict:
        po, pn = read(older), read(newer)
        if po.norm and po.norm == pn.norm:
            return Verdict(Relation.DUPLICATE, 1.0, "identical text")
        if not po.tokens or not pn.tokens:
            return Verdict(Relation.COEXIST, 0.5, "no content to compare")
        sim = float(similarity) if similarity is not None else jaccard(po.tokens, pn.tokens)
        if sim != sim:  # NaN
            sim = jaccard(po.tokens, pn.tokens)
        if sim < self.min_similarity:
            return Verdict(Relation.COEXIST, 0.8, f"unrelated (similarity {sim:.2f})")
        if po.subjects and pn.subjects and not po.subjects & pn.subjects:
            return Verdict(Relation.COEXIST, 0.8, f"different subjects: {_fmt(po.subjects)} vs {_fmt(pn.subjects)}")
        if po.scopes != pn.scopes:
            scopes = f"{_fmt(po.scopes) or 'default'} vs {_fmt(pn.scopes) or 'default'}"
            return Verdict(Relation.COEXIST, 0.8, f"different scopes: {scopes}")
        same_ns = older.namespace == newer.namespace
        older_resolution = _RESOLUTION in po.cues
        is_blocker = not older_resolution and (older.namespace == "blockers" or bool(po.tokens & _BLOCKER_WORDS))
        if _RESOLUTION in pn.cues:
            if older_resolution:
                return Verdict(Relation.COEXIST, 0.6, "two resolutions")
            if is_blocker:
                ignore = CUE_WORDS | po.subject_tokens | pn.subject_tokens | _GENERIC_BLOCKER
                shared = (po.tokens & pn.tokens) - ignore
                overlap = jaccard(po.tokens - ignore, pn.tokens - ignore)
                if shared and overlap >= self.resolution_overlap:
                    return Verdict(Relation.SUPERSEDE, 0.8, f"resolves the blocker on {_fmt(shared)}")
                return Verdict(Relation.COEXIST, 0.6, "resolves another blocker")
        implicit = older.namespace == newer.namespace == "blockers" and _reports_blockage(older.text)
        if is_blocker and implicit and not _reports_blockage(newer.text):
            ignore = CUE_WORDS | po.subject_tokens | pn.subject_tokens | _GENERIC_BLOCKER
            shared = (po.tokens & pn.tokens) - ignore
            if shared and jaccard(po.tokens - ignore, pn.tokens - ignore) >= self.resolution_overlap:
                return Verdict(Relation.SUPERSEDE, 0.7, f"a later blockers note on {_fmt(shared)} reports no blockage")
        if is_blocker and older.namespace == "blockers":
            return Verdict(Relation.COEXIST, 0.6, "a blocker ends only with its resolution")
        if older_resolution:
            return Verdict(Relation.COEXIST, 0.6, "a resolution note is not superseded")
        if po.planned and pn.changes:
            return Verdict(Relation.COEXIST, 0.6, "the older note plans a change; a change does not supersede it")
        if self.change_namespaces and newer.namespace not in self.change_namespaces:
            verdict = self._value_rule(po, pn, sim, same_ns, newer.namespace)
            if verdict.relation is Relation.SUPERSEDE:
                return Verdict(Relation.COEXIST, 0.55, f"{newer.namespace} notes do not change decisions")
            return verdict
        verdict = self._change_rule(po, pn, sim, same_ns)
        if verdict is not None:
            return verdict
        return self._value_rule(po, pn, sim, same_ns, newer.namespace)

    def _change_rule(self, po: Parsed, pn: Parsed, sim: float, same_ns: bool) -> Verdict | None:
        changes = [c for c in pn.changes if c.cue != _RESOLUTION]
        if not changes:
            return None
        rep = frozenset().union(*(c.old for c in changes))
        new = frozenset().union(*(c.new for c in changes))
        cues = {c.cue for c in changes}
        old_changes = [c for c in po.changes if c.cue != _RESOLUTION]
        if old_changes and rep and new:
            o_rep = frozenset().union(*(c.old for c in old_changes))
            o_new = frozenset().union(*(c.new for c in old_changes))
            common = (rep | o_rep) & (new | o_new)  # unit words such as "characters" on both sides
            if rep - common and new - common and rep - common == o_rep - common and new - common == o_new - common:
                return Verdict(Relation.DUPLICATE, 0.85, f"restates the change {_fmt(rep)} → {_fmt(new)}")
        asserted = po.asserted
        pool = asserted | (po.tokens - po.replaced)
        hit = rep & pool
        strong = {t for t in hit if not _acronym(t)}
        if strong and (hit & (asserted | pn.salient) or len(hit) * 2 >= len(rep)):
            if new and new <= po.replaced and not cues & _REVERT:
                return Verdict(Relation.COEXIST, 0.5, "newer moves to a value the older one dropped")
            return Verdict(Relation.SUPERSEDE, 0.9, f"replaces {_fmt(hit)} ({', '.join(sorted(cues))})")
        if new and cues & _REVERT and new <= po.tokens and not new & asserted:
            return Verdict(Relation.SUPERSEDE, 0.6, f"reverts to {_fmt(new)}")
        fresh = (new - po.tokens) & pn.salient  # a name or number of the new value the older never states
        if new and new & asserted and not fresh:
            if cues & _REVERT:
                return Verdict(Relation.COEXIST, 0.6, f"returns to the value it states: {_fmt(new & asserted)}")
            return Verdict(Relation.DUPLICATE, 0.6, f"moves to the value already stated: {_fmt(new & asserted)}")
        shared_attr = (po.summary_tokens & pn.summary_tokens) - CUE_WORDS - new - rep - po.subject_tokens
        shared_attr -= self.common_
        if new and (fresh or not new & po.tokens) and not rep and shared_attr and sim >= self.change_similarity:
            return Verdict(Relation.SUPERSEDE, 0.6, f"changes {_fmt(shared_attr)} to {_fmt(new)}")
        return Verdict(Relation.COEXIST, 0.6, "the change concerns another value")

    def _value_rule(self, po: Parsed, pn: Reading, sim: float, same_ns: bool, namespace: str) -> Verdict:
        so = po.asserted
        weak = not so
        if weak:  # no salient value (lowercase values): fall back to the older summary's words
            so = po.summary_tokens - CUE_WORDS
        shared_val = so & pn.tokens
        only_new = pn.salient - po.tokens
        only_old = so - pn.tokens
        negated = (shared_val & pn.negated_tokens) - self.common_
        if negated and not po.negated and same_ns:
            return Verdict(Relation.SUPERSEDE, 0.55, f"negates {_fmt(negated)}")
        new_weight = sum(0.5 if _acronym(t) else 1.0 for t in only_new)
        same = new_weight < (1 if weak else len(shared_val))
        headline = bool(shared_val & pn.summary_tokens) and not only_old and not weak
        if shared_val and (same or headline) and (not weak or sim >= self.dup_similarity):
            extra = pn.tokens - po.tokens - CUE_WORDS
            sure = sim if self.graded_same_value else 0.0  # near-identical texts: surely one fact
            if len(extra) >= self.merge_min_new_tokens and pn.n_words > po.n_words:
                why = f"same value {_fmt(shared_val)} with {len(extra)} new words"
                return Verdict(Relation.MERGE, max(0.7, sure), why)
            if not same:
                return Verdict(Relation.COEXIST, 0.5, f"mentions {_fmt(shared_val)} with other values")
            return Verdict(Relation.DUPLICATE, max(0.8, sure), f"restates {_fmt(shared_val)}")
        shared_attr = (po.tokens & pn.tokens) - po.salient - pn.salient - CUE_WORDS - po.subject_tokens
        shared_attr -= self.common_
        if (
            self.implicit_change
            and only_old
            and only_new
            and shared_attr
            and same_ns
            and namespace in self.implicit_namespaces
            and sim >= self.implicit_similarity
        ):
            return Verdict(Relation.SUPERSEDE, 0.55, f"{_fmt(shared_attr)}: {_fmt(only_old)} → {_fmt(only_new)}")
        if not po.salient and not pn.salient and jaccard(po.tokens, pn.tokens) >= self.dup_jaccard:
            return Verdict(Relation.DUPLICATE, 0.6, "same words")
        return Verdict(Relation.COEXIST, 0.6, "no shared slot and value")


@dataclass(frozen=True)
class Reading(Parsed):
    """What the slot rules see of a memory: :class:`~memlab.text.slot_parse.Parsed` with the change statements
    of :mod:`memlab.text.change_reading`, the tokens of its negated clauses and whether it only plans a change
    (it states changes, every one of them in a clause that plans, hedges, asks or weighs).
    """

    negated_tokens: frozenset[str] = frozenset()
    planned: bool = False


def read(memory: Memory) -> Reading:
    """:func:`~memlab.text.slot_parse.parse` read the slot judge's way (:class:`Reading`); cached on the texts."""
    return _read_texts((memory.summary or "")[:MAX_CHARS], (memory.text or "")[:MAX_CHARS])


@lru_cache(maxsize=1 << 17)  # as slot_parse's cache: a 100,000-memory store's distinct texts
def _read_texts(summary: str, text: str) -> Reading:
    """The reading of one memory's summary and text."""
    parsed = parse_texts(summary, text)
    chs = read_changes(text, parsed.subject_tokens)
    fields_ = {f.name: getattr(parsed, f.name) for f in fields(parsed)}
    planned = bool(parsed.changes) and not chs
    fields_.update(
        changes=chs, cues=frozenset(c.cue for c in chs), negated_tokens=negated_tokens(text), planned=planned
    )
    return Reading(**fields_)


#: Words every blocker/resolution note may share; they do not tie a resolution to its blocker.
_GENERIC_BLOCKER = _words(
    """blocked blocker blockers deploys deploy halted works resolved outage issue problem broken breaking keeps hold
    work failing fails started since last ago days two week weeks yesterday today root cause closed resumed over
    monday tuesday wednesday thursday friday saturday sunday morning"""
)
_BLOCKER_WORDS = frozenset({"blocked", "blocker", "halted", "broken", "breaking", "outage"})
#: A note that reports a blockage: blocker words, a failing or unavailable state, or a state that has lasted
#: ``since`` some time or holds ``until`` something happens (ongoing aspect, as blockers are written).
_BLOCKAGE = re.compile(
    r"\b(?:blocked|blocking|blocker|halted|broken|breaking|outage|fail(?:s|ing)?|down|stuck|frozen|paused|"
    r"errors?|unavailable|incident|on\s+hold|since|until)\b",
    re.IGNORECASE,
)


def _reports_blockage(text: str) -> bool:
    return bool(_BLOCKAGE.search(text))


def _acronym(token: str) -> bool:
    return token.isalpha() and len(token) <= 4 and token.upper() in _ACRONYMS


#: Short upper-case words that usually name an attribute rather than a value (half weight in rule 8).
_ACRONYMS = frozenset(["API", "HTTP", "REST", "CI", "CD", "URL", "URLS", "SQL", "DB", "UI", "UX", "SDK", "CLI", "OS"])


def _fmt(tokens: frozenset[str] | set[str]) -> str:
    return "/".join(sorted(tokens)[:4])
