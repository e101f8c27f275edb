"""Features of one captured record that say whether it is a memory or a captured excerpt: form, not wording.

Every feature reads the shape of the record — lengths, where the summary starts and ends, how much of it is
markup, code or table, how the capture tagged it — and none reads what it is about, so that a model learned on
one store carries to another (no word or phrase of any project is listed here; nor are a capture tool's headings,
an upper-case first letter or the absence of tags, one store's habits that kept a hand-written history's untagged
title notes out). :data:`FEATURES` names them in
column order; a model's card lists the ones it reads and :data:`FEATURES_VERSION`.

Imports only :mod:`math` and :mod:`re` (the SessionStart hook may read it on a store it has not consolidated).
"""

from __future__ import annotations

import math
import re

from memlab.text.tokens import word_list

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from collections.abc import Iterable

    from memlab.core.types import Memory

FEATURES: tuple[str, ...] = word_list(
    """log_len_summary log_len_content leading_cut summary_ends_sentence summary_ends_cut summary_in_content
    summary_equals_content markup_share word_share code_line_share table_line_share pronoun_share tag_auto
    tag_file rel_len_summary rel_len_content"""
)
#: Version of the readings behind :data:`FEATURES` (a model card records it; another version is refused).
FEATURES_VERSION: int = 2
#: The store's own habits a record is read against: the median log length of summaries and of contents.
StoreForm = tuple[float, float]

#: An excerpt cut out of a longer text starts or ends with an ellipsis (three dots or the single character).
_CUT = ("...", "…")
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Characters that are neither letters, digits nor spaces: punctuation, markup, code, box drawing.
_MARK = re.compile(r"[^\w\s]")
#: A code line: indented, or ending in an opening bracket, a comma, an assignment or a colon that opens a block.
_CODE_LINE = re.compile(r"^(\s{4,}|\t)\S|[(\[{,=]\s*$|\):\s*$")
#: First- and second-person pronouns: a chat turn talks to someone; a memory states a fact.
_PRONOUNS = frozenset(["i", "me", "my", "we", "us", "our", "you", "your"])
#: Words looked at per record (the opening of a long body tells what it is).
_HEAD = 600


def _head(text: str) -> str:
    return text[:_HEAD]


def store_form(memories: Iterable[Memory]) -> StoreForm | None:
    """The median log lengths of a store's summaries and contents (``None`` for an empty store)."""
    memories = list(memories)
    if not memories:
        return None
    summaries = sorted(math.log1p(len(m.summary.strip())) for m in memories)
    contents = sorted(math.log1p(len(m.content.strip())) for m in memories)
    return summaries[len(memories) // 2], contents[len(memories) // 2]


def features(memory: Memory, form: StoreForm | None = None) -> list[float]:
    """The feature vector of one record in :data:`FEATURES` order, its lengths also against ``form``.

    A store's habits decide what a short record is: in a store of one-line captures a one-line record is a memory,
    in a store of long captures it is narration or a fixture. Without a store, a record is read as typical of it.
    """
    summary, content = memory.summary.strip(), memory.content.strip()
    body = _head(content or summary)
    lines = [line for line in body.splitlines() if line.strip()] or [""]
    words = _WORD.findall(summary)
    tags = set(memory.tags)
    flat_summary = " ".join(summary.split())
    plain = flat_summary.rstrip("".join(_CUT)).rstrip()
    values = {
        "log_len_summary": math.log1p(len(summary)),
        "log_len_content": math.log1p(len(content)),
        "leading_cut": float(summary.startswith(_CUT) or content.startswith(_CUT)),
        "summary_ends_sentence": float(plain.endswith((".", "!", "?")) and not flat_summary.endswith(_CUT)),
        "summary_ends_cut": float(flat_summary.endswith(_CUT) and not flat_summary.startswith(_CUT)),
        "summary_in_content": float(bool(plain) and plain.lstrip("".join(_CUT)) in " ".join(content.split())),
        "summary_equals_content": float(summary.rstrip(".!?") == content.rstrip(".!?")),  # "S" and "S." alike
        "markup_share": len(_MARK.findall(body)) / max(1, len(body)),
        "word_share": sum(len(w) for w in _WORD.findall(body)) / max(1, len(body)),
        "code_line_share": sum(bool(_CODE_LINE.search(line)) for line in lines) / len(lines),
        "table_line_share": sum(line.lstrip().startswith("|") for line in lines) / len(lines),
        "pronoun_share": sum(w.lower() in _PRONOUNS for w in words) / max(1, len(words)),
        "tag_auto": float(any("auto" in t for t in tags)),
        "tag_file": float(any(t.startswith("file:") for t in tags)),
    }
    values["rel_len_summary"] = values["log_len_summary"] - form[0] if form else 0.0
    values["rel_len_content"] = values["log_len_content"] - form[1] if form else 0.0
    return [values[name] for name in FEATURES]
