"""Overhead of the span tree (`trace.enabled`) on whole runs: CPU seconds with tracing on and off.

    python experiments/observability/overhead.py --repeats 7 -- dataset=builtin_history embedder=tfidf

Runs the composed config in this process, alternating trace.enabled=true/false (after one warm-up run of
each), with tracking=none so MLflow is not measured; reports the median process CPU time of each and the
relative overhead. CPU time, not wall time, because the machine is shared; BLAS and OpenMP run one thread
(idle worker threads would otherwise add noise to the process's CPU time).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):  # one thread: CPU time is comparable
    os.environ.setdefault(_var, "1")


def main() -> int:
    """Time whole runs with tracing on and off and print the median CPU seconds and the overhead."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("overrides", nargs="*", help="Hydra overrides (after --)")
    args = parser.parse_args()
    from memlab.observability.progress import set_quiet
    from memlab.run import run
    from memlab.wiring.config import compose

    set_quiet(["--quiet"])
    overrides = [*args.overrides, "tracking=none"]
    times: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeats + 1):
            for enabled in (True, False) if i % 2 == 0 else (False, True):
                cfg = compose([*overrides, f"trace.enabled={str(enabled).lower()}"])
                t0 = time.process_time()
                run(cfg, Path(tmp) / f"{i}-{enabled}")
                if i > 0:  # the first round warms caches and imports
                    times[enabled].append(time.process_time() - t0)
    on, off = statistics.median(times[True]), statistics.median(times[False])
    print(f"overrides: {' '.join(args.overrides)}")
    print(
        f"median CPU s over {args.repeats} runs: trace on {on:.3f}, off {off:.3f}; "
        f"overhead {100 * (on - off) / off:+.1f}%"
    )
    print("all runs (on): " + ", ".join(f"{t:.3f}" for t in times[True]))
    print("all runs (off): " + ", ".join(f"{t:.3f}" for t in times[False]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
