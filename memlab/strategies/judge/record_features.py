"""Features of an (older, newer) pair of long-form decision records, read against the records before the newer.

A :class:`RecordStore` holds the records a run sees in time order (timestamp, then id: the pipeline's order)
with three MiniLM embeddings each (title = ``summary``, decision text = ``content``, both = ``text``) and their
word sets. A pair's features use only the two records and the records recorded no later than the newer one:
ranks of the older among the newer's earlier records, whether the newer is the older's most similar later
record so far (mutual best), rarity of shared words with document frequencies counted over that prefix.
Nothing recorded after the newer record changes a pair's features.

:data:`FEATURES` names every feature in column order; a model card lists the subset its model reads.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from memlab.core.types import Memory
from memlab.text.tokens import jaccard, word_list

FEATURES: tuple[str, ...] = word_list(
    """cos_title cos_content cos_text cos_title_content cos_content_title log_rank_text log_rank_title top_text
    margin_text mutual_rank_text mutual_rank_title title_jaccard title_idf_share idf_cosine idf_max_shared
    log_gap_days log_between replacement_cues negation_cues log_words_older"""
)

#: Version of the readings behind :data:`FEATURES` (a model card records it; another version is refused).
FEATURES_VERSION: int = 1

_WORD = re.compile(r"[^\W\d_][\w]+", re.UNICODE)
_STOP_WORDS = (
    "the a an and or of to in for on with by is are be we will this that it as at from use using our not can "
    "should would which has have was were all any into than then there their its also more such only other "
    "these those but if when so may must new used"
)
_STOP = frozenset(_STOP_WORDS.split())
#: Generic families of change wording (replacement, moving off something, dropping it), not any one phrasing.
_CHANGE = re.compile(
    r"\b(replac\w*|instead|no longer|migrat\w*|mov(e|ed|ing) (away|to|from)|switch\w*|deprecat\w*|retir\w*|"
    r"stop\w* using|rather than|remov\w*|drop\w*|abandon\w*|previous\w*|revis\w*|revisit\w*|anymore|"
    r"going forward|from now on)\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(not|no|don't|won't|never|without|cannot|shouldn't)\b", re.IGNORECASE)


def words(text: str) -> frozenset[str]:
    """Lower-cased words of three or more characters (letters first), stop words removed."""
    return frozenset(w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOP)


class RecordStore:
    """The observed records in time order with their embeddings and word sets.

    Args:
        memories: The records (any order; each id once, the last copy wins).
        embed: ``texts -> (n, d)`` L2-normalised array (the judge's MiniLM).
    """

    def __init__(self, memories: Sequence[Memory], embed: Any) -> None:
        unique = {m.id: m for m in memories}
        self.memories = sorted(unique.values(), key=lambda m: (m.timestamp, m.id))
        self.position = {m.id: k for k, m in enumerate(self.memories)}
        n = len(self.memories)
        if n:
            self.title = np.asarray(embed([m.summary or m.text for m in self.memories]), dtype=np.float64)
            self.content = np.asarray(embed([m.content or m.text for m in self.memories]), dtype=np.float64)
            self.text = np.asarray(embed([m.text for m in self.memories]), dtype=np.float64)
        else:
            self.title = self.content = self.text = np.zeros((0, 1))
        self.title_words = [words(m.summary) for m in self.memories]
        self.all_words = [words(m.text) for m in self.memories]
        self.first_seen: dict[str, list[int]] = {}
        for k, ws in enumerate(self.all_words):
            for w in ws:
                self.first_seen.setdefault(w, []).append(k)
        self.n_change = [len(_CHANGE.findall(m.content or m.text)) for m in self.memories]
        self.n_negation = [len(_NEGATION.findall(m.content or m.text)) for m in self.memories]
        self.n_words = [len((m.content or m.text).split()) for m in self.memories]

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self.position

    def idf(self, word: str, upto: int) -> float:
        """Inverse document frequency of ``word`` among the records at positions ``0..upto``."""
        df = bisect.bisect_right(self.first_seen.get(word, []), upto)
        return math.log((upto + 2) / (df + 0.5))

    def features(self, older: Memory, newer: Memory) -> list[float]:
        """The feature vector of the pair in :data:`FEATURES` order (both must be in the store).

        The newer record's earlier records are those before it in time order; with the older not before the
        newer (equal times, opposite id order) the pair is read the other way round.
        """
        o, j = self.position[older.id], self.position[newer.id]
        if o > j:
            o, j = j, o
        values = {name: 0.0 for name in FEATURES}
        if o == j:
            return [values[name] for name in FEATURES]
        tt = self.title[:j] @ self.title[j]
        xx = self.text[:j] @ self.text[j]
        values["cos_title"] = float(tt[o])
        values["cos_content"] = float(self.content[o] @ self.content[j])
        values["cos_text"] = float(xx[o])
        values["cos_title_content"] = float(self.title[o] @ self.content[j])
        values["cos_content_title"] = float(self.content[o] @ self.title[j])
        values["log_rank_text"] = math.log(1 + int((xx > xx[o]).sum()))
        values["log_rank_title"] = math.log(1 + int((tt > tt[o]).sum()))
        values["top_text"] = float(not (xx > xx[o]).any())
        values["margin_text"] = float(xx.max() - xx[o])
        later_x = self.text[o + 1 : j] @ self.text[o]
        later_t = self.title[o + 1 : j] @ self.title[o]
        values["mutual_rank_text"] = math.log(1 + int((later_x > xx[o]).sum()))
        values["mutual_rank_title"] = math.log(1 + int((later_t > tt[o]).sum()))
        two, tnw = self.title_words[o], self.title_words[j]
        values["title_jaccard"] = jaccard(two, tnw)
        old_title_weight = sum(self.idf(w, j) for w in two)
        shared_title = sum(self.idf(w, j) for w in two & tnw)
        values["title_idf_share"] = shared_title / old_title_weight if old_title_weight > 0 else 0.0
        wo, wn = self.all_words[o], self.all_words[j]
        shared = [self.idf(w, j) for w in wo & wn]
        norm = math.sqrt(sum(self.idf(w, j) for w in wo) * sum(self.idf(w, j) for w in wn))
        values["idf_cosine"] = sum(shared) / norm if norm > 0 else 0.0
        values["idf_max_shared"] = max(shared, default=0.0)
        gap = (self.memories[j].timestamp - self.memories[o].timestamp).total_seconds() / 86400.0
        values["log_gap_days"] = math.log1p(max(0.0, gap))
        values["log_between"] = math.log1p(j - o - 1)
        values["replacement_cues"] = math.log1p(self.n_change[j])
        values["negation_cues"] = math.log1p(self.n_negation[j])
        values["log_words_older"] = math.log1p(self.n_words[o])
        return [values[name] for name in FEATURES]
