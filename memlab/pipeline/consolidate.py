"""Consolidation: scan → cluster → supersession → summarize → tier → persist, run from the step table.

:func:`consolidate` runs, in order, the steps of memlab/pipeline/steps.py that the policy's settings turn on
(the phases of memlab/pipeline/phases.py, and the extras: online mode, propagation across restatements,
Astra's insights and identity anchor), with the benchmark clock ``now``, and records wall time per phase.
Nothing here reads the wall clock for decisions, imports Hydra or MLflow.
"""

from __future__ import annotations

import time
from datetime import datetime

from memlab.core.types import ConsolidationResult
from memlab.observability.trace import traced
from memlab.pipeline.steps import STEPS, Run
from memlab.pipeline.store import MemoryStore
from memlab.wiring.components import Components

PHASES: tuple[str, ...] = ("scan", "cluster", "supersession", "summarize", "tier", "persist")


@traced("consolidate")
def consolidate(
    store: MemoryStore,
    components: Components,
    now: datetime,
    *,
    full: bool = False,
    fresh: frozenset[str] | None = None,
) -> ConsolidationResult:
    """Run every step the policy turns on over the memories recorded at or before ``now``.

    Args:
        store: The store to consolidate (updated in place).
        components: Strategies and pipeline settings.
        now: Benchmark clock; memories after it are invisible to this run.
        full: Re-judge pairs judged in earlier runs.
        fresh: The memories new since the last run: an incremental run over them (memlab/pipeline/steps.py).

    Returns:
        What the run did, with wall time per phase in ``phase_seconds`` (every phase, and ``astra`` when
        Astra's extras ran).
    """
    run = Run(store, components, now, full=full, fresh=fresh)
    for step in STEPS:
        if step.phase in PHASES:
            run.seconds.setdefault(step.phase, 0.0)
        if not step.when(components.settings) or (fresh is not None and not step.incremental):
            continue
        t0 = time.perf_counter()
        step.run(run)
        run.seconds[step.phase] = run.seconds.get(step.phase, 0.0) + time.perf_counter() - t0
    assert run.result is not None  # the persist step always runs
    return run.result
