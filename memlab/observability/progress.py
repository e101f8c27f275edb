"""Progress of long work (episodes, embedding, judging, training, sweeps' jobs), on stderr.

Work registers a :class:`Task` (:func:`task`; :func:`progress` over an iterable); while any task runs, one
heartbeat thread makes sure the output never stalls for :data:`EVERY` seconds:

- on a terminal a task with a total is a tqdm bar (shown once it has run :data:`DELAY` seconds), which the
  heartbeat redraws so its clock moves while one item takes long; with no bar on screen it writes a line;
- written to a pipe or a log file, the heartbeat writes a line naming every running task, outermost first,
  whenever nothing was written for :data:`MARGIN` seconds less than :data:`EVERY`
  (``memlab: job ...: 212 s so far; episode 3/26 adr-repo; judging pairs 40/96``).

The lines follow the clock, not the items: items range from microseconds (a pair) to minutes (a repository's
episode), so a line per item would flood a log or leave it silent. Nothing with ``--quiet``
(``MEMLAB_QUIET=1``) or ``CI=true``. tqdm is imported only when a bar is shown.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

#: Seconds a task runs before its bar appears (short loops print nothing).
DELAY = 2.0
#: Longest silence, in seconds, while a task runs: a line (piped) or a redraw of the bars (terminal) comes
#: :data:`MARGIN` seconds earlier, since a loaded machine wakes the heartbeat late (one second was not enough at
#: load 7-9 under ``nice``: silences of 10.6 and 11.8 s).
EVERY = 10.0
MARGIN = 2.0
#: Environment variable ``--quiet`` sets.
QUIET_ENV = "MEMLAB_QUIET"
_TRUE = {"1", "true", "yes", "on"}
_clock = time.monotonic
_ACTIVE: list[Task] = []
_STATE: dict[str, Any] = {"last": 0.0, "beat": None}
_LOCK = threading.Lock()
#: Set when the last task ends: the heartbeat stops at once, not a tick later (short runs, tests).
_IDLE = threading.Event()
#: Work stored in a cache during this run: what -> [count, seconds] (:func:`cached`).
_SAVED: dict[str, list[float]] = {}


def silenced() -> bool:
    """Whether ``--quiet`` (``MEMLAB_QUIET``) or ``CI=true`` turned progress bars and status lines off."""
    return any(os.environ.get(name, "").lower() in _TRUE for name in (QUIET_ENV, "CI"))


def quiet() -> bool:
    """Whether progress bars are off (:func:`silenced`, or stderr not a terminal: lines instead). A terminal 0
    columns wide (a pseudo-terminal nobody sized: ``script`` run without a terminal, some CI runners) counts as
    none: tqdm draws nothing there, so a run would be silent.
    """
    if silenced():
        return True
    try:
        if not sys.stderr.isatty():
            return True
    except (AttributeError, ValueError):
        return True
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns == 0
    except (OSError, ValueError):  # a stream without a descriptor: its isatty() decides
        return False


def set_quiet(argv: list[str]) -> list[str]:
    """Remove ``--quiet``/``-q`` from ``argv`` (in place semantics: returns the rest) and set quiet mode."""
    rest = [a for a in argv if a not in ("--quiet", "-q")]
    if len(rest) != len(argv):
        os.environ[QUIET_ENV] = "1"
    return rest


class Task:
    """A piece of work in progress: ``desc``, item ``at`` of ``total``, and a ``note`` on the current item;
    ``announce``: seconds after which a line says it runs (``shown`` once said; ``None``: never).
    """

    def __init__(self, desc: str, total: int | None = None, unit: str = "it", announce: float | None = None) -> None:
        self.desc, self.total, self.unit, self.announce = desc, total, unit, announce
        self.at, self.note, self.started, self.shown = 0, "", _clock(), False
        self.bar: Any = None

    def __str__(self) -> str:
        count = f" {self.at}/{self.total}" if self.total else ""
        return f"{self.desc}{count}{' ' + self.note if self.note else ''}"

    def advance(self, n: int = 1) -> None:
        """``n`` more items done."""
        self.at += n
        if self.bar is not None:
            self.bar.update(n)


def say(text: str) -> None:
    """Write ``memlab: <text>`` on stderr (above the bars on a terminal); nothing when :func:`silenced`."""
    if silenced():
        return
    if any(t.bar is not None for t in list(_ACTIVE)):
        from tqdm import tqdm

        tqdm.write(f"memlab: {text}", file=sys.stderr)
    else:
        # One write with its newline: the workers of a joblib sweep share the stream, and print's separate
        # write of the end of line let another process's line land before it.
        sys.stderr.write(f"memlab: {text}\n")
        sys.stderr.flush()
    _STATE["last"] = _clock()


def beat() -> bool:
    """Show what runs when nothing was shown for almost :data:`EVERY` seconds (the heartbeat calls this).

    Returns:
        Whether it wrote: a line naming the running tasks, or (on a terminal) a redraw of their bars.
    """
    active = list(_ACTIVE)
    for work in active:
        if work.announce is not None and not work.shown and _clock() - work.started >= work.announce:
            work.shown = True
            say(f"{work.desc} ...")
    # A step not yet announced is not named: "X: 0 s so far" before "X ..." (a heartbeat tick that came
    # between the step's start and its announcement) would read out of order.
    active = [work for work in active if work.announce is None or work.shown]
    if not active or _clock() - max(_STATE["last"], active[0].started) < EVERY - MARGIN:
        return False
    bars = [t.bar for t in active if t.bar is not None]
    for bar in bars:
        bar.refresh()
    if not bars:
        first = active[0]
        say(f"{first}: {_clock() - first.started:.0f} s so far" + "".join(f"; {t}" for t in active[1:]))
    _STATE["last"] = _clock()
    return True


def _heartbeat() -> None:
    while True:
        _IDLE.wait(min(0.25, EVERY / 8))
        with _LOCK:
            if not _ACTIVE:
                _STATE["beat"] = None
                return
            _IDLE.clear()
        beat()


@contextmanager
def task(desc: str, total: int | None = None, unit: str = "it", announce: float | None = None) -> Iterator[Task]:
    """A :class:`Task` shown while the block runs (a bar on a terminal when it has a ``total``)."""
    work = Task(desc, total, unit, announce)
    if silenced():
        yield work
        return
    if total and not quiet():
        from tqdm import tqdm

        work.bar = tqdm(total=total, desc=desc, unit=unit, delay=DELAY, mininterval=0.5, leave=False, file=sys.stderr)
    if announce == 0:
        work.shown = True
        say(f"{desc} ...")
    with _LOCK:
        _ACTIVE.append(work)
        if _STATE["beat"] is None:
            _IDLE.clear()
            _STATE["beat"] = threading.Thread(target=_heartbeat, daemon=True, name="memlab-progress")
            _STATE["beat"].start()
    try:
        yield work
    finally:
        with _LOCK:
            _ACTIVE.remove(work)
            if not _ACTIVE:
                _IDLE.set()
        if work.bar is not None:
            work.bar.close()


def progress(
    iterable: Iterable[T],
    *,
    total: int | None = None,
    desc: str = "",
    unit: str = "it",
    label: Callable[[T], str] | None = None,
) -> Iterator[T]:
    """``iterable`` as a :func:`task`; a line names the item in progress (``episode 3/11 adr:foo``: ``label``)."""
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    with task(desc, total, unit) as work:
        for k, item in enumerate(iterable):
            work.at, work.note = k + 1, label(item) if label else ""
            if work.bar is not None and label:
                work.bar.set_postfix_str(work.note, refresh=False)
            yield item
            if work.bar is not None:
                work.bar.update(1)


def cached(what: str, count: int, seconds: float) -> None:
    """Count ``count`` items of work (``seconds`` of it) stored in a cache for the next run; the first time
    ``what`` is cached, say so (``what``: e.g. ``records embedded with MiniLM in PATH``).
    """
    if what not in _SAVED:
        say(f"caching {what} as they are computed; the next run reads them")
    entry = _SAVED.setdefault(what, [0, 0.0])
    entry[0] += count
    entry[1] += seconds


def say_cached(elapsed: float) -> None:
    """Say what this run (its benchmark took ``elapsed`` seconds) cached, and how long the next one would take."""
    for what, (count, seconds) in _SAVED.items():
        then = f"~{max(elapsed - seconds, 0.0):.0f} s instead of {elapsed:.0f} s"
        say(f"cached {count:.0f} {what} ({seconds:.0f} s of work): the next run reads them ({then})")
    _SAVED.clear()
