"""Features of an (older, newer) memory pair for the learned judge.

Every feature is a float computed from the two memories, the cosine hint, the slot judge's verdict and the
store's slot profiles (:mod:`.slot_profiles`; -1 when none are given); :data:`FEATURES` names them in column
order (the order is part of a trained model's card).
"""

from __future__ import annotations

import math

from memlab.core.types import Memory, Relation
from memlab.strategies.judge.slot import SlotJudge
from memlab.strategies.judge.slot_profiles import PROFILE_FEATURES, SlotProfiles
from memlab.text.attributes import attribute_words
from memlab.text.slot_parse import CUE_WORDS, parse
from memlab.text.tokens import jaccard, word_list

FEATURES: tuple[str, ...] = (
    *word_list(
        """cosine cosine_missing jaccard_tokens jaccard_summary jaccard_salient n_shared_salient n_old_only_salient
        n_new_only_salient newer_has_change older_has_change newer_replaces_older_value newer_new_in_older
        newer_new_in_older_asserted revert_cue resolution_newer resolution_older scope_differs subject_differs
        subjects_both same_namespace older_is_blocker newer_is_decision log_gap_days len_ratio n_extra_tokens
        identical negated_newer slot_duplicate slot_supersede slot_merge slot_coexist slot_confidence attr_both
        attr_jaccard attr_disjoint"""
    ),
    *PROFILE_FEATURES,
)

#: The version of the readings behind :data:`FEATURES`: a model card records it and a model trained on another
#: version is refused, since the same feature names would carry other values. 2: the change reading reads
#: a passive replacement ("X has been replaced by Y") with X as the old value (1 read it the other way round)
#: and reads "was X; it is now Y", a reversed move, "Y is once more ...", schedule slips, "from today ..." and
#: "now ships on"; "slips again" is no return; tokens are letters and digits of any script (1: ASCII only).
FEATURES_VERSION: int = 2

_SLOT = SlotJudge()


def pair_features(
    older: Memory, newer: Memory, similarity: float | None = None, profiles: SlotProfiles | None = None
) -> list[float]:
    """The feature vector of a pair, in :data:`FEATURES` order (``profiles``: the store's slot profiles)."""
    po, pn = parse(older), parse(newer)
    sim_missing = similarity is None or similarity != similarity
    cos = 0.0 if sim_missing else float(similarity)
    rep = pn.replaced
    new = pn.asserted if pn.changes else frozenset()
    gap = abs((newer.timestamp - older.timestamp).total_seconds()) / 86400.0
    verdict = _SLOT.judge(older, newer, None if sim_missing else cos)
    cues = pn.cues
    attr_old = attribute_words(older.text, po.subject_tokens)
    attr_new = attribute_words(newer.text, pn.subject_tokens)
    attr_both = bool(attr_old and attr_new)
    values = {
        "cosine": cos,
        "cosine_missing": float(sim_missing),
        "jaccard_tokens": jaccard(po.tokens, pn.tokens),
        "jaccard_summary": jaccard(po.summary_tokens, pn.summary_tokens),
        "jaccard_salient": jaccard(po.salient, pn.salient),
        "n_shared_salient": float(len(po.salient & pn.salient)),
        "n_old_only_salient": float(len(po.salient - pn.tokens)),
        "n_new_only_salient": float(len(pn.salient - po.tokens)),
        "newer_has_change": float(bool(cues - {"resolved"})),
        "older_has_change": float(bool(po.cues - {"resolved"})),
        "newer_replaces_older_value": float(len(rep & (po.asserted | po.tokens)) / max(1, len(rep))),
        "newer_new_in_older": float(len(new & po.tokens) / max(1, len(new))),
        "newer_new_in_older_asserted": float(len(new & po.asserted) / max(1, len(new))),
        "revert_cue": float(bool(cues & {"reverted", "back to"})),
        "resolution_newer": float("resolved" in cues),
        "resolution_older": float("resolved" in po.cues),
        "scope_differs": float(po.scopes != pn.scopes),
        "subject_differs": float(bool(po.subjects and pn.subjects and not po.subjects & pn.subjects)),
        "subjects_both": float(bool(po.subjects and pn.subjects)),
        "same_namespace": float(older.namespace == newer.namespace),
        "older_is_blocker": float(older.namespace == "blockers" or "blocked" in po.tokens),
        "newer_is_decision": float(newer.namespace == "decisions"),
        "log_gap_days": math.log1p(gap),
        "len_ratio": (pn.n_words + 1) / (po.n_words + 1),
        "n_extra_tokens": float(len(pn.tokens - po.tokens - CUE_WORDS)),
        "identical": float(bool(po.norm) and po.norm == pn.norm),
        "negated_newer": float(pn.negated),
        "slot_duplicate": float(verdict.relation is Relation.DUPLICATE),
        "slot_supersede": float(verdict.relation is Relation.SUPERSEDE),
        "slot_merge": float(verdict.relation is Relation.MERGE),
        "slot_coexist": float(verdict.relation is Relation.COEXIST),
        "slot_confidence": float(verdict.confidence),
        "attr_both": float(attr_both),
        "attr_jaccard": jaccard(attr_old, attr_new),
        "attr_disjoint": float(attr_both and not attr_old & attr_new),
    }
    profile = profiles.features(older, newer) if profiles is not None else [-1.0] * len(PROFILE_FEATURES)
    values.update(zip(PROFILE_FEATURES, profile, strict=True))
    return [values[name] for name in FEATURES]
