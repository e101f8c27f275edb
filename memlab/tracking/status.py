"""Status lines for steps that can take seconds (reading runs from MLflow, downloading their files, drawing figures,
preparing a store): a step that outlasts :data:`DELAY` seconds says what it is doing on stderr, and how long it took
when it ends, so no command sits silent. Off with ``--quiet`` / ``MEMLAB_QUIET=1`` and in CI (``CI=true``); unlike
a progress bar, a status line is also written to pipes and log files.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from memlab.progress import silenced

#: Seconds a step runs before its status line appears (quick steps print nothing).
DELAY = 3.0


@contextmanager
def step(message: str, delay: float | None = None) -> Iterator[None]:
    """Say ``memlab: <message> ...`` once the block has run ``delay`` seconds (default :data:`DELAY`), and
    ``... done in N s`` at its end.
    """
    if silenced():
        yield
        return
    started = time.monotonic()
    shown = threading.Event()

    def announce() -> None:
        shown.set()
        print(f"memlab: {message} ...", file=sys.stderr, flush=True)

    timer = threading.Timer(DELAY if delay is None else delay, announce)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if shown.is_set():
            print(f"memlab: {message}: done in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
