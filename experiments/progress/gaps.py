r"""Longest silence between output lines of a command: ``CMD 2>&1 | python experiments/progress/gaps.py LOG``.

Reads stdin as it arrives, copies it to ``LOG`` with each line prefixed by the seconds since the first byte, and
prints the five longest gaps between lines (a line ends at ``\\n`` or ``\\r``: a terminal's bar redraw is output).
Measure a terminal with ``script -q -c 'stty cols 120 rows 40; CMD' /dev/null | python experiments/progress/gaps.py
LOG`` (without ``stty`` a ``script`` run from no terminal is 0 columns wide, where progress falls back to lines).
"""

from __future__ import annotations

import os
import re
import sys
import time


def main(log_path: str) -> None:
    """Copy stdin to ``log_path`` with timestamps; print the longest gaps."""
    start = last = None
    gaps: list[tuple[float, float, str]] = []
    pending = b""
    with open(log_path, "w", encoding="utf-8") as log:
        while chunk := os.read(0, 65536):
            now = time.monotonic()
            start = now if start is None else start
            pending += chunk
            *lines, pending = re.split(rb"[\r\n]", pending)
            for raw in filter(None, (x.strip() for x in lines)):
                line = raw.decode("utf-8", "replace")
                if last is not None:
                    gaps.append((now - last, last - start, line))
                last = now
                log.write(f"{now - start:8.1f} {line}\n")
            log.flush()
        if last is not None:  # the silence before the command ended (a slow shutdown is silent too)
            gaps.append((time.monotonic() - last, last - start, "<end of output>"))
    total = time.monotonic() - (start or time.monotonic())
    print(f"gaps: {len(gaps)} lines over {total:.0f} s; longest gaps:", file=sys.stderr)
    for gap, at, line in sorted(gaps, reverse=True)[:5]:
        print(f"gaps: {gap:6.1f} s after t={at:.0f} s, ended by: {line[:100]}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.devnull)
