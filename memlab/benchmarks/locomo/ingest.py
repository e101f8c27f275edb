"""LoCoMo turns -> memlab memories, in time order, with the text the retrievers index."""

from __future__ import annotations

from memlab.benchmarks.locomo.loader import Conversation, Turn
from memlab.types import Memory

#: ``context`` option of the retriever -> how a turn becomes index text.
CONTEXTS = ("plain", "speaker", "speaker_date")


def memory_text(turn: Turn) -> str:
    """The memory's text: ``Speaker: text`` plus the shared image's caption."""
    text = f"{turn.speaker}: {turn.text}"
    if turn.caption:
        text += f" [shares a photo: {turn.caption}]"
    return text


def turn_memory(conv: Conversation, turn: Turn) -> Memory:
    """One turn as a :class:`~memlab.types.Memory` (timestamp = its session's time)."""
    return Memory(
        id=f"{conv.sample_id}:{turn.dia_id}",
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


def index_text(memory: Memory, context: str) -> str:
    """Text a retriever indexes for ``memory`` under the ``context`` option."""
    if context == "plain":
        text = str(memory.meta.get("text", memory.text))
        caption = memory.meta.get("caption")
        return f"{text} {caption}" if caption else text
    if context == "speaker":
        return memory.text
    if context == "speaker_date":
        return f"{memory.timestamp.day} {memory.timestamp:%B %Y}. {memory.text}"
    raise ValueError(f"unknown context {context!r}; valid: {', '.join(CONTEXTS)}")
