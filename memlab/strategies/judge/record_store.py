"""Whether a store is one of long-form records (the cascade answers such a store with the record judge)."""

from __future__ import annotations

from collections.abc import Sequence

from memlab.core.types import Memory


def is_record_store(memories: Sequence[Memory], min_chars: int, share: float) -> bool:
    """Whether at least ``share`` of ``memories`` are long-form records (summary and content of ``min_chars`` or more).

    Why the store and not the pair decides: the note judges (models v10/v11, the slot rules) were built on notes
    of one to three sentences and read a page-long decision record as noise (and build their slot profiles over
    every word of it: 29 minutes for the 17 development ADR repositories), while the record judge's features
    (ranks and mutual best among the earlier records) need the store's records around the pair; and a record
    store has short records too (a one-line decision). Why 200 characters and a fifth: on the development data,
    at most 4% of a generated history's notes (six phrasing families, seed 0) and none of the hand-written
    histories' notes reach 200 characters, against 31% to 100% of each development ADR repository's records
    (experiments/adr_decisions/README.md, "Which judge reads which store").
    """
    if not memories:
        return False
    long_form = sum(len(m.text) >= min_chars for m in memories)
    return long_form >= share * len(memories)
