"""Time travel over supersession chains: the history of a fact.

A chain is built by the supersession edges the judge produced (``MemoryStore.chain``): every memory in it
except the last has ``valid_until`` set to the time its successor was recorded, so exactly one member is
current, and as-of a time exactly the member whose ``[timestamp, valid_until)`` contains it is valid.
"""

from __future__ import annotations

from memlab.core.types import Memory
from memlab.pipeline.store import MemoryStore


def history_of(store: MemoryStore, memory_id: str) -> list[Memory]:
    """The whole chain the memory belongs to, oldest first, walking back from the chain's current member.

    Walking back from the current member follows the earliest predecessor at each step, which is the
    memory that introduced each value (restatements of a value were recorded after it).
    """
    current = store.current_of(memory_id)
    return [store.memories[i] for i in store.chain(current)]
