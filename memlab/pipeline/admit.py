"""Which records may enter the block: the policy's admission verdicts, each record read once per store.

The block (:func:`memlab.pipeline.inject.candidates`) skips a record the admission strategy keeps out, and the
judge phase relates such a record only as a re-capture (:meth:`~memlab.strategies.judge.base.JudgeBase.
judge_capture`); the record itself stays in the store and in recall. Copies with the same text
(:func:`~memlab.pipeline.verdicts.exact_key`) share one verdict, kept when any copy is: exact deduplication keeps
the earliest copy visible, and a memory must not vanish because its first capture carried other tags.
"""

from __future__ import annotations

from collections.abc import Iterable

from memlab.pipeline.verdicts import exact_keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memlab.core.types import Memory
    from memlab.pipeline.store import MemoryStore
    from memlab.wiring.components import Components


def kept(store: MemoryStore, components: Components, memories: Iterable[Memory]) -> dict[str, bool]:
    """Memory id -> whether the policy's admission lets it into the block (every id when it has none)."""
    memories = list(memories)
    admission = components.admission
    if admission is None:
        return {m.id: True for m in memories}
    cached = store.cache.get("admission")
    if cached is None or cached[0] is not admission:
        cached = store.cache["admission"] = (admission, {}, {})
    _, by_id, by_key = cached
    keys = exact_keys(store, memories)
    if any(mid not in by_id for mid in keys):
        todo = set(keys.values())
        stored = exact_keys(store, store.memories.values())
        group = [m for m in store.memories.values() if m.id not in by_id and stored[m.id] in todo]
        group += [m for m in memories if m.id not in by_id and m.id not in store.memories]
        for m, verdict in zip(group, admission.admit_all(group, store.memories), strict=True):
            by_id[m.id] = verdict.keep
            key = stored[m.id] if m.id in stored else keys[m.id]
            by_key[key] = by_key.get(key, False) or verdict.keep
    return {mid: by_key[key] for mid, key in keys.items()}
