"""Reading Duckling-format records (see ``SOURCE.md`` beside the data file) into expected intervals.

Record: ``{"block", "reference_time", "phrase", "expected"}`` where ``expected`` is one of
``{"kind": "datetime"|"datetimeHoliday", "value", "grain"}`` (value = start of the grain period),
``{"kind": "datetimeInterval"|"datetimeIntervalHoliday", "start", "end", "grain"}`` (end exclusive), or
``{"kind": "datetimeOpenInterval", "direction", "value", "grain"}``.

Expected interval: a point value ``v`` at grain ``g`` becomes ``[v, v + 1 g)``; an interval is taken as is;
an open interval is scored on its boundary point ``[v, v + 1 g)`` (Duckling's ``since 2014`` is correct when
the resolver finds 2014). Values Python cannot represent (years before 1 AD) are skipped and counted.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memlab.errors import MemlabError
from memlab.text.temporal import calendar as cal

GET_DATA = "the file ships with the shared datasets (duckling-en-time); set paths.data_dir or dataset.path"


@dataclass(frozen=True)
class Record:
    """One phrase with its reference time and expected interval (naive, in the reference time's zone)."""

    index: int
    block: str
    phrase: str
    reference_time: datetime
    kind: str
    start: datetime
    end: datetime
    grain: str

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
        """``dev`` or ``heldout``: a fixed half of the phrases chosen by a hash of the lowercased phrase."""
        digest = hashlib.sha256(self.phrase.strip().lower().encode()).digest()
        return "dev" if digest[0] % 2 == 0 else "heldout"

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


def parse(raw: Any, source: str = "<data>") -> tuple[list[Record], int]:
    """Records from the decoded JSON list, and the number skipped as unrepresentable."""
    if not isinstance(raw, list):
        raise MemlabError(f"{source}: expected a JSON list of Duckling records; see duckling-en-time/SOURCE.md")
    out: list[Record] = []
    skipped = 0
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
        out.append(Record(i, block, phrase, ref, kind, start, end, grain))
    return out, skipped


def load(path: str | Path) -> tuple[list[Record], int, str]:
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
    records, skipped = parse(raw, str(p))
    return records, skipped, hashlib.sha256(blob).hexdigest()
