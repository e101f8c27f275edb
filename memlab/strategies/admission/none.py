"""Admit every record (admission off)."""

from __future__ import annotations

from memlab.strategies.admission.base import Admission, AdmissionBase

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import ClassVar

    from memlab.core.types import Memory

#: The one verdict: every record may enter the block.
KEEP = Admission(True, "admission off", 1.0)


class NoAdmission(AdmissionBase):
    """Keeps every record: the block chooses among all of them, as before admission existed."""

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1

    def admit(self, memory: Memory, store: Mapping[str, Memory]) -> Admission:
        """Always keep."""
        return KEEP
