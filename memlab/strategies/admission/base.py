"""Base class of every admission strategy: the kind, its value and its contract."""

from __future__ import annotations

from abc import ABC, abstractmethod

from memlab.core.selection_types import FrozenValue

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import ClassVar

    from memlab.core.types import Memory


class Admission(FrozenValue):
    """Whether a record may enter the block (``keep``), why, and how sure the strategy is (in [0, 1])."""

    _fields = ("keep", "reason", "confidence")
    keep: bool
    reason: str
    confidence: float

    def __init__(self, keep: bool, reason: str = "", confidence: float = 1.0) -> None:
        self.__dict__.update(keep=bool(keep), reason=reason, confidence=float(confidence))


class AdmissionBase(ABC):
    """Decides which records of a store are memories worth injecting into the SessionStart block.

    A store written by automatic capture holds, besides memories, excerpts cut out of files, tool output and chat
    (a table row, a code line, half a sentence), examples and test fixtures. Admission keeps those out of the
    block and nothing else: a record kept out stays in the store, in recall and in every derived record, and the
    pipeline relates it to other records only as a re-capture (DUPLICATE).

    Contract: ``admit(memory, store)`` is deterministic and pure (it reads the record and, for a strategy tagged
    ``reads_store``, the store's other records; it writes nothing and reads no clock); ``confidence`` is in
    [0, 1]; a record it cannot read is kept (never lose a memory to a parsing error). ``none`` keeps everything.

    Attributes:
        name: The option's public name.
        version: Bumped on any change of behaviour.
        reads_store: Whether :meth:`admit` reads ``store`` (callers may pass an empty mapping otherwise).
        artifact_path: The model file the strategy reads, to log with the run (``None``: it reads none).
    """

    name: ClassVar[str]
    version: ClassVar[int]
    reads_store: ClassVar[bool] = False
    artifact_path: str | None = None

    @abstractmethod
    def admit(self, memory: Memory, store: Mapping[str, Memory]) -> Admission:
        """Whether ``memory`` may enter the block; ``store`` maps the store's memory ids to memories."""

    def admit_all(self, memories: Sequence[Memory], store: Mapping[str, Memory]) -> list[Admission]:
        """:meth:`admit` of each memory, in order (a strategy may score them in one batch)."""
        return [self.admit(m, store) for m in memories]
