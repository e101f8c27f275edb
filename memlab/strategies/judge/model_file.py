"""What the judges that read one model file share (the learned, record and edit judges)."""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path
from typing import Any

from memlab.strategies.judge.base import JudgeBase


class ModelFileJudge(JudgeBase):
    """A judge reading one model file through its card (``model_path``; ``None``: :meth:`shipped`), once."""

    model_path: str | None
    model_: Any = None
    card_: dict[str, Any] | None = None
    path_: Path | None = None

    @abstractmethod
    def shipped(self) -> Path:
        """The shipped model file."""

    @abstractmethod
    def read(self, path: Path) -> tuple[Any, dict[str, Any]]:
        """The model in ``path`` and its card, checked (a one-line :class:`~memlab.core.errors.MemlabError` else)."""

    @property
    def artifact_path(self) -> str | None:
        """The model file in use (after the first judgement), to log as a run artifact."""
        return str(self.path_) if self.path_ is not None else None

    def load(self) -> tuple[Any, dict[str, Any]]:
        """The model and its card, read on the first call."""
        if self.model_ is None or self.card_ is None:
            path = Path(self.model_path).expanduser() if self.model_path else self.shipped()
            self.model_, self.card_, self.path_ = *self.read(path), path
        return self.model_, self.card_
