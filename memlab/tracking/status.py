"""Status lines for steps that can take seconds (reading runs from MLflow, downloading their files, drawing figures,
preparing a store): a step that outlasts :data:`DELAY` seconds says what it is doing on stderr, and how long it took
when it ends, so no command sits silent. Off with ``--quiet`` / ``MEMLAB_QUIET=1`` and in CI (``CI=true``); unlike
a progress bar, a status line is also written to pipes and log files.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from memlab.observability.progress import say, task

#: Seconds a step runs before its status line appears (quick steps print nothing).
DELAY = 3.0


@contextmanager
def step(message: str, delay: float | None = None) -> Iterator[None]:
    """Say ``memlab: <message> ...`` once the block has run ``delay`` seconds (default :data:`DELAY`), and
    ``... done in N s`` at its end; ``... stopped after N s`` when it ends by an error or an exit (after a
    one-line error, "done" would read as if the work had finished). The step is a
    :func:`memlab.observability.progress.task`: written to a pipe or a log file it also says ``... N s so far`` (and
    what runs inside it) whenever nothing was written for :data:`memlab.observability.progress.EVERY` seconds, so no
    stretch of a long run is silent.
    """
    with task(message, announce=DELAY if delay is None else delay) as work:
        ended = "stopped after"
        try:
            yield
            ended = "done in"
        finally:
            if work.shown:
                say(f"{message}: {ended} {time.monotonic() - work.started:.0f} s")
