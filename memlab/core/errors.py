"""The one exception type that user-facing entry points turn into a one-line message."""

from __future__ import annotations


class MemlabError(Exception):
    """A problem the user can fix: the message says what is wrong and how to fix it, in one line.

    Entry points (``python -m memlab``, the ``memlab`` command, the hooks) print ``str(error)`` and exit
    non-zero (hooks exit 0) without a traceback unless ``HYDRA_FULL_ERROR=1``.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
