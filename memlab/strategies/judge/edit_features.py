"""Features of a pair of short facts read as an edit: how much of the older line the newer one keeps, what changed.

Built for memory files (CLAUDE.md, AGENTS.md, memory banks), where a fact changes by being edited in place —
``yarn run lint`` becomes ``npm run lint``, a path moves, a bullet is reworded — and a new fact is added beside
an old one just as often. Nothing here names a phrasing: every feature is a measure of overlap, position or
time, so that what the model learns from one repository's edits can carry to another's.

Tokens are lower-case runs of word characters that keep ``. / - _ @ :`` inside them (paths, flags, versions and
package names stay whole, as in the data's own pairing). :class:`EditContext` holds the memories of the store
(observed by the judge) and answers the rank features against the memories recorded no later than the newer one
only, so a memory recorded after the newer never changes a pair's features.

Features (:data:`FEATURES`, :data:`FEATURES_VERSION` 1):

* ``ratio``: difflib's ratio of the normalised texts (first :data:`MAX_CHARS` characters);
* ``jaccard``, ``containment``: token Jaccard, and the shared tokens over the shorter side's;
* ``cosine``: the candidate pair's embedding similarity (the pipeline's hint);
* ``prefix``, ``suffix``: shared leading / trailing tokens over the shorter side's (a kept label or a kept tail);
* ``n_diff``: ``log1p`` of the tokens in one side only; ``value_diff``: their share that look like values
  (a digit, or ``. / - _ @ :`` inside: versions, paths, flags, commands);
* ``len_ratio``: shorter over longer, in tokens;
* ``same_time``: both recorded at one time (one commit, one session: written side by side);
* ``old_rank``: ``1 / (1 + rank)`` of the older among the newer's earlier memories by Jaccard (1: its best match);
* ``new_rank``: ``1 / (1 + rank)`` of the newer among the memories recorded with it, by Jaccard with the older;
* ``session_size``: ``log1p`` of the memories recorded at the newer's time;
* ``same_lead``: both start with the same kind of mark (a bullet, a number, a table cell, a tree branch, a
  comment sign, a code span, a word): one fact kept in two shapes (a command in a code block and in a list)
  stands twice in a file, an edit keeps its shape.
"""

from __future__ import annotations

import bisect
import difflib
import math
import re
from collections.abc import Sequence
from datetime import datetime

from memlab.core.types import Memory
from memlab.text.tokens import jaccard

FEATURES_VERSION = 1
FEATURES: tuple[str, ...] = (
    "ratio", "jaccard", "containment", "cosine", "prefix", "suffix", "n_diff", "value_diff", "len_ratio", "same_time",
    "old_rank", "new_rank", "session_size", "same_lead",
)  # fmt: skip
#: Characters of each text difflib compares (long paragraphs: their start carries the edit as often as not).
MAX_CHARS = 400
_TOKEN = re.compile(r"[\w@][\w./@:-]*[\w@/]|[\w@]")
_VALUE = re.compile(r"\d|\w[./_@:-]\w|/")
_LEADS = (("bullet", re.compile(r"[-*+]\s")), ("number", re.compile(r"\d+[.)]\s")), ("table", re.compile(r"\|")),
          ("tree", re.compile(r"[│├└]")), ("comment", re.compile(r"(#|//)")), ("code", re.compile(r"`")))  # fmt: skip


def lead(text: str) -> str:
    """The kind of mark a fact starts with (:data:`_LEADS`; ``word`` when none)."""
    start = text.lstrip()
    return next((name for name, pattern in _LEADS if pattern.match(start)), "word")


def tokens(text: str) -> tuple[str, ...]:
    """Lower-case tokens keeping ``. / - _ @ :`` inside (see the module docstring)."""
    return tuple(_TOKEN.findall(text.lower()))


def normal(text: str) -> str:
    """Lower case, whitespace collapsed, cut to :data:`MAX_CHARS`."""
    return " ".join(text.lower().split())[:MAX_CHARS]


def is_value(token: str) -> bool:
    """Whether a token looks like a value: a digit, a path, a flag, a dotted or scoped name."""
    return bool(_VALUE.search(token))


def _shared_run(a: Sequence[str], b: Sequence[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def pair_features(
    older: str, newer: str, similarity: float | None, same_time: bool, old_rank: int, new_rank: int, session: int
) -> list[float]:
    """The :data:`FEATURES` row of one pair, from the texts and the context's ranks (0 = best)."""
    ta, tb = tokens(older), tokens(newer)
    sa, sb = frozenset(ta), frozenset(tb)
    shorter = max(1, min(len(ta), len(tb)))
    diff = sa ^ sb
    return [
        difflib.SequenceMatcher(None, normal(older), normal(newer), autojunk=False).ratio(),
        jaccard(sa, sb),
        len(sa & sb) / max(1, min(len(sa), len(sb))),
        float(similarity) if similarity is not None and math.isfinite(similarity) else jaccard(sa, sb),
        _shared_run(ta, tb) / shorter,
        _shared_run(ta[::-1], tb[::-1]) / shorter,
        math.log1p(len(diff)),
        sum(1 for t in diff if is_value(t)) / len(diff) if diff else 0.0,
        min(len(ta), len(tb)) / max(1, len(ta), len(tb)),
        float(same_time),
        1.0 / (1 + old_rank),
        1.0 / (1 + new_rank),
        math.log1p(session),
        float(lead(older) == lead(newer)),
    ]


class EditContext:
    """The observed memories: token sets, times, and the rank features of a pair (see the module docstring)."""

    def __init__(self, memories: Sequence[Memory]) -> None:
        self.sets: dict[str, frozenset[str]] = {}
        self.times: dict[str, datetime] = {}
        self.by_time: dict[datetime, list[str]] = {}
        self.scores: dict[str, list[float]] = {}
        self.add(memories)

    def add(self, memories: Sequence[Memory]) -> None:
        """Take in memories not seen before."""
        for m in memories:
            if m.id not in self.sets:
                self.sets[m.id] = frozenset(tokens(m.text))
                self.times[m.id] = m.timestamp
                self.by_time.setdefault(m.timestamp, []).append(m.id)

    def _earlier_scores(self, newer: str) -> list[float]:
        """Minus the Jaccard of ``newer`` with every memory recorded before it, ascending (cached: the memories
        recorded before it are all observed by the time it is judged, and never change).
        """
        if newer not in self.scores:
            t, target = self.times[newer], self.sets[newer]
            self.scores[newer] = sorted(-jaccard(target, s) for i, s in self.sets.items() if self.times[i] < t)
        return self.scores[newer]

    def features(self, older: Memory, newer: Memory, similarity: float | None) -> list[float]:
        """The pair's :data:`FEATURES` row (memories not observed are taken in first)."""
        self.add([older, newer])
        score = jaccard(self.sets[older.id], self.sets[newer.id])
        old_rank = bisect.bisect_left(self._earlier_scores(newer.id), -score)  # earlier memories closer than the older
        session = self.by_time[newer.timestamp]
        new_rank = sum(1 for i in session if i != newer.id and jaccard(self.sets[older.id], self.sets[i]) > score)
        same = older.timestamp == newer.timestamp
        return pair_features(older.text, newer.text, similarity, same, old_rank, new_rank, len(session))
