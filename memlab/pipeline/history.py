"""Time travel over supersession chains: the history of a fact, and what was true at a given time.

A chain is built by the supersession edges the judge produced (``MemoryStore.chain``): every memory in it
except the last has ``valid_until`` set to the time its successor was recorded, so exactly one member is
current, and as-of a time exactly the member whose ``[timestamp, valid_until)`` contains it is valid.
"""

from __future__ import annotations

from datetime import datetime

from memlab.components import Components
from memlab.pipeline.recall import recall
from memlab.pipeline.store import MemoryStore
from memlab.types import Memory


def history_of(store: MemoryStore, memory_id: str) -> list[Memory]:
    """The whole chain the memory belongs to, oldest first, walking back from the chain's current member.

    Walking back from the current member follows the earliest predecessor at each step, which is the
    memory that introduced each value (restatements of a value were recorded after it).
    """
    current = store.current_of(memory_id)
    return [store.memories[i] for i in store.chain(current)]


def member_valid_at(store: MemoryStore, memory_id: str, when: datetime) -> Memory | None:
    """The member of ``memory_id``'s chain that was valid at ``when`` (None before the chain began)."""
    for memory in history_of(store, memory_id):
        if store.valid_at(memory.id, when):
            return memory
    return None


def recall_history(store: MemoryStore, components: Components, query: str, now: datetime) -> list[Memory]:
    """Answer a ``history`` question: the best match in exhaustive recall (superseded memories included),
    then its chain, oldest first. Empty when nothing matches.
    """
    hits = recall(store, components, query, now, mode="exhaustive", limit=1, track=False)
    return history_of(store, hits[0].memory.id) if hits else []
