"""Reading Duckling-format records (see ``SOURCE.md`` beside each data file) into expected intervals.

Record: ``{"block", "reference_time", "phrase", "expected", "sentence"?, "document"?}`` where ``expected`` is
one of ``{"kind": "datetime"|"datetimeHoliday", "value", "grain"}`` (value = start of the grain period),
``{"kind": "datetimeInterval"|"datetimeIntervalHoliday", "start", "end", "grain"}`` (end exclusive), or
``{"kind": "datetimeOpenInterval", "direction", "value", "grain"}``.

Expected interval: a point value ``v`` at grain ``g`` becomes ``[v, v + 1 g)``; an interval is taken as is;
an open interval is scored on its boundary point ``[v, v + 1 g)`` (Duckling's ``since 2014`` is correct when
the resolver finds 2014). Values Python cannot represent (years before 1 AD) are skipped and counted.

Context: a record with a ``sentence`` that contains its phrase is resolved in that sentence; its gold span is
the phrase's occurrence there (the k-th occurrence for the k-th record of the same phrase in the same
sentence). Otherwise the phrase alone is the text and the gold span covers all of it.

Split (``dev`` / ``heldout``): a fixed half chosen by the first byte of a sha256 (even = dev) of a group key,
so that related records stay together. Records with a sentence come from documents: the key is the
``document`` field when the file has one, else ``block|reference date`` (the derived news files carry no
document id; the documents of one source published the same day form one group, which is coarser than a
document, so no document straddles the halves). Records without a sentence (Duckling's phrases) use the
lowercased phrase.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.text.temporal import calendar as cal

#: Known corpora: name -> file under the data directory (``dataset.corpus``).
CORPORA = {
    "duckling": "duckling-en-time/duckling_en_time_examples.json",
    "tbaq": "tempeval3-tbaq/tempeval3_tbaq_timex.json",
}
GET_DATA = (
    "the file ships with the shared datasets (duckling-en-time, tempeval3-tbaq); set paths.data_dir or dataset.path"
)


def corpus_path(corpus: str, data_dir: str | Path) -> Path:
    """The file of a known corpus under ``data_dir``.

    Raises:
        MemlabError: ``corpus`` is not a known name.
    """
    if corpus not in CORPORA:
        raise MemlabError(
            f"dataset.corpus={corpus!r} is not a known temporal set ({', '.join(CORPORA)}); "
            "pick one or give the file with dataset.path=<file>"
        )
    return Path(data_dir) / CORPORA[corpus]


def split_of(key: str) -> str:
    """``dev`` or ``heldout`` for a group key (first sha256 byte even = dev)."""
    return "dev" if hashlib.sha256(key.encode()).digest()[0] % 2 == 0 else "heldout"


@dataclass(frozen=True)
class Record:
    """One phrase with its context, reference time and expected interval (naive, in the reference's zone).

    Attributes:
        text: What the resolver reads: the sentence, or the phrase when there is none.
        span: The phrase's character offsets in ``text`` (the gold span).
        group: The split key (see the module docstring).
    """

    index: int
    block: str
    phrase: str
    reference_time: datetime
    kind: str
    start: datetime
    end: datetime
    grain: str
    text: str = ""
    span: tuple[int, int] = (0, 0)
    group: str = ""

    @property
    def holiday(self) -> bool:
        """Whether Duckling resolves this phrase through its holiday tables."""
        return "Holiday" in self.kind

    @property
    def latent(self) -> bool:
        """Whether Duckling expects it only with latent parsing on (``7``, ``1974``, ``morning``)."""
        return self.block == "latentCorpus"

    @property
    def split(self) -> str:
        """``dev`` or ``heldout`` (see the module docstring)."""
        return split_of(self.group or self.phrase.strip().lower())

    @property
    def kind_group(self) -> str:
        """``point``, ``interval`` or ``open``."""
        return "open" if "Open" in self.kind else "interval" if "Interval" in self.kind else "point"


def _interval(expected: dict[str, Any]) -> tuple[datetime, datetime, str]:
    grain = str(expected["grain"]).lower()
    if "start" in expected:
        return datetime.fromisoformat(expected["start"]), datetime.fromisoformat(expected["end"]), grain
    value = datetime.fromisoformat(expected["value"])
    return value, cal.shift(value, 1, grain), grain


def _context(rec: dict[str, Any], phrase: str, ref: datetime, seen: Counter) -> tuple[str, tuple[int, int], str]:
    """Text, gold span and split group of one record (see the module docstring)."""
    sentence = rec.get("sentence")
    if isinstance(sentence, str) and phrase and phrase in sentence:
        k = seen[(sentence, phrase)]
        seen[(sentence, phrase)] += 1
        pos = -1
        for _ in range(k + 1):
            nxt = sentence.find(phrase, pos + 1)
            if nxt < 0:
                break
            pos = nxt
        group = str(rec.get("document") or f"{rec.get('block', '')}|{ref.date().isoformat()}")
        return sentence, (pos, pos + len(phrase)), group
    return phrase, (0, len(phrase)), phrase.strip().lower()


def parse(raw: Any, source: str = "<data>", context: bool = True) -> tuple[list[Record], int]:
    """Records from the decoded JSON list, and the number skipped as unrepresentable.

    Args:
        raw: The decoded JSON.
        source: Where it came from (for error messages).
        context: Resolve in the record's sentence when it has one (else the phrase alone).
    """
    if not isinstance(raw, list):
        raise MemlabError(f"{source}: expected a JSON list of Duckling-format records; see duckling-en-time/SOURCE.md")
    out: list[Record] = []
    skipped = 0
    seen: Counter = Counter()
    for i, rec in enumerate(raw):
        try:
            exp = rec["expected"]
            ref = datetime.fromisoformat(rec["reference_time"])
            phrase, kind, block = str(rec["phrase"]), str(exp["kind"]), str(rec.get("block", ""))
        except (KeyError, TypeError, ValueError) as exc:
            raise MemlabError(f"{source}: record {i} is malformed ({exc!r}); see duckling-en-time/SOURCE.md") from None
        try:
            start, end, grain = _interval(exp)
        except (KeyError, ValueError, OverflowError):
            skipped += 1
            continue
        text, span, group = _context(rec, phrase, ref, seen)
        if not context:
            text, span = phrase, (0, len(phrase))
        out.append(Record(i, block, phrase, ref, kind, start, end, grain, text, span, group))
    return out, skipped


def load(path: str | Path, context: bool = True) -> tuple[list[Record], int, str]:
    """Records, skipped count and the file's sha256.

    Raises:
        MemlabError: The file is missing or not valid JSON.
    """
    p = Path(path)
    if not p.is_file():
        raise MemlabError(f"temporal_norm data not found at {p}; {GET_DATA}")
    blob = p.read_bytes()
    try:
        raw = json.loads(blob)
    except json.JSONDecodeError as exc:
        raise MemlabError(f"{p}: not valid JSON ({exc.msg} at line {exc.lineno}); restore the file") from None
    records, skipped = parse(raw, str(p), context)
    return records, skipped, hashlib.sha256(blob).hexdigest()
