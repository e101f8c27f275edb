"""``memlab bench temporal``: time per expression of each temporal resolver.

The expressions are the gold temporal expressions of a generated history (seed 0): each is resolved in
the text of the memory that contains it, anchored at that memory's time, as consolidation does. Every
option of ``conf/temporal`` runs except those that need a language model (``dspy``) and ``none``.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

#: Options that need a language model server; not timed.
SKIP: frozenset[str] = frozenset({"dspy", "none"})


def expressions(size: int = 1000, seed: int = 0) -> list[tuple[str, Any]]:
    """(memory text, anchor) for each gold temporal expression of a generated history."""
    from memlab.data.project_history.generator import generate

    history = generate(seed, size)
    by_id = {m.id: m for m in history.memories}
    return [(by_id[g.memory].text, by_id[g.memory].timestamp) for g in history.temporal if g.memory in by_id]


def bench_resolver(resolver: Any, items: list[tuple[str, Any]], repeats: int) -> dict[str, float]:
    """Median over ``repeats`` passes of each item's resolve time; p50/p95 over items, microseconds."""
    if items:
        resolver.resolve(*items[0])  # lazy loading is not an expression's cost
    per_item: list[list[float]] = [[] for _ in items]
    cpu = []
    for _ in range(max(1, repeats)):
        c0 = time.process_time()
        for i, (text, anchor) in enumerate(items):
            t0 = time.perf_counter()
            resolver.resolve(text, anchor)
            per_item[i].append((time.perf_counter() - t0) * 1e6)
        cpu.append(time.process_time() - c0)
    med = sorted(statistics.median(t) for t in per_item) or [0.0]
    return {
        "expressions": float(len(items)),
        "p50_us": statistics.median(med),
        "p95_us": med[min(len(med) - 1, int(0.95 * len(med)))],
        "cpu_us_per_expression": statistics.median(cpu) / max(1, len(items)) * 1e6,
    }


def run_temporal(options: list[str] | None = None, size: int = 1000, repeats: int = 3) -> dict[str, Any]:
    """Time every (or the named) temporal option on the expressions of a generated history."""
    from memlab.perf.worker import compose
    from memlab.wiring.build import available_options, build

    items = expressions(size)
    names = options or [o for o in available_options("temporal") if o not in SKIP]
    out: dict[str, Any] = {}
    for name in names:
        cfg = compose("project_history", size, 0, [f"temporal={name}"])
        try:
            resolver = build(cfg["temporal"], "temporal")
        except Exception as exc:  # an option whose package is missing is reported, not fatal
            out[name] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        out[name] = bench_resolver(resolver, items, repeats)
    return out
