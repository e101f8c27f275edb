"""Progress bars for loops that can take seconds (embedding, judging, generating, training, sweeps).

A bar appears only once a loop has run for :data:`DELAY` seconds, on stderr, and never when output is
quiet: ``--quiet`` (``python -m memlab --quiet ...``, ``memlab --quiet COMMAND``) or ``MEMLAB_QUIET=1``,
``CI=true`` (CI logs), or stderr not a terminal. tqdm is imported only when a bar is shown.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

#: Seconds a loop runs before its bar appears (short loops print nothing).
DELAY = 2.0
#: Environment variable ``--quiet`` sets.
QUIET_ENV = "MEMLAB_QUIET"
_TRUE = {"1", "true", "yes", "on"}


def silenced() -> bool:
    """Whether ``--quiet`` (``MEMLAB_QUIET``) or ``CI=true`` turned progress bars and status lines off."""
    return any(os.environ.get(name, "").lower() in _TRUE for name in (QUIET_ENV, "CI"))


def quiet() -> bool:
    """Whether progress output is off (:func:`silenced`, or stderr not a terminal)."""
    if silenced():
        return True
    try:
        return not sys.stderr.isatty()
    except (AttributeError, ValueError):
        return True


def set_quiet(argv: list[str]) -> list[str]:
    """Remove ``--quiet``/``-q`` from ``argv`` (in place semantics: returns the rest) and set quiet mode."""
    rest = [a for a in argv if a not in ("--quiet", "-q")]
    if len(rest) != len(argv):
        os.environ[QUIET_ENV] = "1"
    return rest


def progress(iterable: Iterable[T], *, total: int | None = None, desc: str = "", unit: str = "it") -> Iterator[T]:
    """``iterable``, with a progress bar when output is not quiet and the loop outlasts :data:`DELAY`."""
    if quiet():
        yield from iterable
        return
    from tqdm import tqdm

    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    bar: Any = tqdm(
        iterable, total=total, desc=desc, unit=unit, delay=DELAY, mininterval=0.5, leave=False, file=sys.stderr
    )
    try:
        yield from bar
    finally:
        bar.close()
