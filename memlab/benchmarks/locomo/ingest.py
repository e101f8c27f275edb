"""LoCoMo turns -> memlab memories, in time order, with the text the retrievers index."""

from __future__ import annotations

from memlab.benchmarks.locomo.loader import Conversation, Turn
from memlab.core.types import Memory


def memory_text(turn: Turn) -> str:
    """The memory's text: ``Speaker: text`` plus the shared image's caption."""
    text = f"{turn.speaker}: {turn.text}"
    if turn.caption:
        text += f" [shares a photo: {turn.caption}]"
    return text


def turn_id(conv: Conversation, turn: Turn) -> str:
    """A turn's memory id: sortable in the conversation's turn order (turns of a session share a time)."""
    return f"{conv.sample_id}:{turn.session:03d}:{turn.index:04d}"


def turn_memory(conv: Conversation, turn: Turn) -> Memory:
    """One turn as a :class:`~memlab.core.types.Memory` (timestamp = its session's time)."""
    return Memory(
        id=turn_id(conv, turn),
        namespace="dialogue",
        timestamp=turn.timestamp,
        summary=memory_text(turn),
        content="",
        tags=(conv.sample_id, f"session_{turn.session}"),
        meta={
            "dia_id": turn.dia_id,
            "speaker": turn.speaker,
            "session": turn.session,
            "sample_id": conv.sample_id,
            "caption": turn.caption,
            "text": turn.text,
        },
    )


def ingest(conv: Conversation) -> list[Memory]:
    """All turns of ``conv`` as memories in time order (session order, then turn order)."""
    return [turn_memory(conv, t) for t in conv.turns]
