"""Re-capture judge: the same passage captured again (a shifted excerpt window, other escaping) is a DUPLICATE; with
task boxes ticked or cleared, a SUPERSEDE.
"""

from __future__ import annotations

import re
from typing import ClassVar

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.base import JudgeBase

#: An excerpt cut out of a longer text starts or ends with an ellipsis.
_CUT = ("...", "…")

#: A Markdown task box, ticked or not (GitHub task lists, a memory bank's progress file).
_BOX = re.compile(r"\[[ xX]\]")


def passage(memory: Memory) -> str:
    """The captured passage of a record: its body (else its summary), escapes read, cut marks and runs of
    whitespace removed.
    """
    text = " ".join(_raw(memory).split())
    while text.startswith(_CUT):
        text = text[3 if text.startswith("...") else 1 :].lstrip()
    while text.endswith(_CUT):
        text = text[: -3 if text.endswith("...") else -1].rstrip()
    return text


def cut_edges(memory: Memory) -> tuple[bool, bool]:
    """Whether the record's passage was cut out of a longer text at its start and at its end (an ellipsis)."""
    text = _raw(memory).strip()
    return text.startswith(_CUT), text.endswith(_CUT)


def _raw(memory: Memory) -> str:
    text = memory.content or memory.summary
    return text.replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"').replace("\\'", "'")


#: Both edges cut: any common window counts (what :func:`window_overlap` assumes without ``cuts``).
OPEN = ((True, True), (True, True))


def window_overlap(
    a: str, b: str, slack: int = 3, cuts: tuple[tuple[bool, bool], tuple[bool, bool]] = OPEN
) -> tuple[int, float]:
    """Length of the passage ``a`` and ``b`` share as two windows over one text, and its share of the shorter.

    Two windows share all of the shorter text or the end of one and the start of the other (a shifted window), up
    to ``slack`` characters at cut edges; the other text may continue past an edge only where it was cut (``cuts``:
    ``(start, end)`` of ``a`` and of ``b``, :func:`cut_edges`), so "port 80" is no window of "port 8080". Any other
    common text (a shared ending after a changed value) counts as nothing: ``(0, 0.0)``. Exact string search only.
    """
    shorter = min(len(a), len(b))
    if not shorter:
        return 0, 0.0
    (short, short_cut), (other, _) = sorted(((a, cuts[0]), (b, cuts[1])), key=lambda t: len(t[0]))
    lead = slack if len(short) > 2 * slack else 0
    core, head, tail = short[lead : len(short) - lead], short[:lead], short[len(short) - lead :]
    size = 0
    at = other.find(core) if core else -1
    while at != -1:  # an uncut edge must be the other text's edge too (up to the slack's exact characters)
        end = at + len(core)
        if (short_cut[0] or other[:at] == head) and (short_cut[1] or other[end:] == tail):
            size = shorter
            break
        at = other.find(core, at + 1)
    if not size:
        shifted = [_suffix_prefix(a, b, slack)] if cuts[0][1] and cuts[1][0] else []
        shifted += [_suffix_prefix(b, a, slack)] if cuts[1][1] and cuts[0][0] else []
        size = max(shifted, default=0)
    return size, size / shorter


#: Characters of a window's start looked up in the other text (a shorter start is used whole).
_ANCHOR = 16


def _suffix_prefix(x: str, y: str, slack: int) -> int:
    """Longest ``m`` with ``x``'s end (up to ``slack`` characters early) equal to ``y``'s start (after up to
    ``slack`` characters).
    """
    best = 0
    for skip in range(min(slack, len(y) - 1) + 1):
        head = y[skip : skip + _ANCHOR]
        at = x.find(head)
        while at != -1:
            for early in range(slack + 1):
                m = len(x) - at - early
                if m <= best:
                    break
                if x[at : at + m] == y[skip : skip + m]:
                    best = m
                    break
            at = x.find(head, at + 1)
    return best


class RecaptureJudge(JudgeBase):
    """DUPLICATE when the newer record re-captures the older one's passage; SUPERSEDE when it re-captures it with
    Markdown task boxes changed (:meth:`read`); COEXIST otherwise.

    Automatic capture cuts the same passage out of a file, tool output or chat again minutes later, the window
    shifted, an escape read differently, or inside a longer excerpt: one memory, many records. Two records
    re-capture one passage when their passages (:func:`passage`) overlap as windows over one text
    (:func:`window_overlap`, a window continuing only past an edge its capture cut) by at least ``min_chars``
    characters and ``min_share`` of the shorter one: a changed value breaks the common block, and a whole statement
    is no window of its extension. Thresholds chosen by leave-one-namespace-out on the developers' labels of the
    real notes (experiments/gitnotes_real/recapture_lono.py).

    Args:
        min_share: Share of the shorter passage the common window must cover.
        min_chars: Characters the common window must have.
        slack: Characters a window may stop short of a passage's start or end (a cut mid-word).
    """

    name: ClassVar[str] = "recapture"
    version: ClassVar[int] = 2  # 2: a re-capture with task boxes changed is a SUPERSEDE

    def __init__(self, min_share: float = 0.3, min_chars: int = 20, slack: int = 3) -> None:
        self.min_share = min_share
        self.min_chars = min_chars
        self.slack = slack

    def read(self, older: Memory, newer: Memory) -> Verdict | None:
        """The DUPLICATE verdict when ``newer`` re-captures ``older``; SUPERSEDE when it re-captures it with task
        boxes ticked or cleared inside the common window (``- [ ]`` → ``- [x]``: the newer is the list's current
        state, the labels' definition of a supersession); else ``None``.

        A box is compared as a box, never as its mark: the same window read with every box cleared must pass the
        same thresholds, and it passes only where the verbatim one failed, so a changed box lies inside it.
        """
        cuts = (cut_edges(older), cut_edges(newer))
        a, b = passage(older), passage(newer)
        size, share = window_overlap(a, b, self.slack, cuts)
        if size >= self.min_chars and share >= self.min_share:
            sure = 0.5 + 0.5 * min(1.0, share)  # verbatim text: sure even for a short common window (0.65 at 0.3)
            return Verdict(Relation.DUPLICATE, sure, f"re-captures {size} characters ({share:.0%})")
        boxes_a, boxes_b = _BOX.sub("[ ]", a), _BOX.sub("[ ]", b)
        if (boxes_a, boxes_b) == (a, b):
            return None
        size, share = window_overlap(boxes_a, boxes_b, self.slack, cuts)
        if size >= self.min_chars and share >= self.min_share:
            return Verdict(
                Relation.SUPERSEDE, 0.8, f"re-captures {size} characters ({share:.0%}) with task boxes changed"
            )
        return None

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """:meth:`read`'s verdict, COEXIST when it has none."""
        return self.read(older, newer) or Verdict(Relation.COEXIST, 0.5, "not a re-capture")

    def judge_capture(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """The same verdict: a re-capture is all this judge reads."""
        return self.judge(older, newer, similarity)
