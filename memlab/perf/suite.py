"""``memlab bench episode``: the worker's points at several sizes, repeated, aggregated.

Each (size, cache state, repeat) runs in a fresh ``python -m memlab.perf.worker`` process. Aggregates:
median and spread (min, max) over repeats of the whole episode (wall and CPU), of each phase, recall per
query and the incremental consolidation; peak RSS (max over repeats); quality (the first repeat: the
pipeline is deterministic); and the growth exponent of each timing, the least-squares slope of log time
against log size, over all sizes and between the two largest.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

from memlab.core.errors import MemlabError


def run_point(spec: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
    """One point in its own process; raises :class:`MemlabError` with the worker's last error line."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "memlab.perf.worker", json.dumps(spec)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise MemlabError(f"bench point {spec} failed: {tail}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def spread(values: Sequence[float]) -> dict[str, float]:
    """Median, min and max of ``values``."""
    vals = [float(v) for v in values]
    return {"median": statistics.median(vals), "min": min(vals), "max": max(vals), "n": float(len(vals))}


def growth_exponent(sizes: Sequence[float], times: Sequence[float]) -> float | None:
    """Least-squares slope of log(time) on log(size); ``None`` with fewer than two usable points."""
    pts = [(math.log(s), math.log(t)) for s, t in zip(sizes, times, strict=True) if s > 0 and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return None if den == 0 else sum((x - mx) * (y - my) for x, y in pts) / den


def aggregate(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Median and spread over the repeats of one (size, cache state)."""
    first = records[0]
    out: dict[str, Any] = {
        "size": first["spec"]["size"],
        "cold": bool(first["spec"].get("cold")),
        "repeats": len(records),
        **{k: first[k] for k in ("memories", "distinct_texts", "queries", "runs", "pairs_judged", "quality")},
        "peak_rss_mib": max(r["peak_rss_mib"] for r in records),
        "loadavg": spread([r["loadavg_start"] for r in records] + [r["loadavg_end"] for r in records]),
        "episode_wall_s": spread([r["episode_wall_s"] for r in records]),
        "episode_cpu_s": spread([r["episode_cpu_s"] for r in records]),
        "phases": {p: spread([r["phases"].get(p, 0.0) for r in records]) for p in first["phases"]},
    }
    for key in ("recall_p50_ms", "recall_p95_ms", "generate_s", "prewarm_s"):
        if all(key in r for r in records):
            out[key] = spread([r[key] for r in records])
    for key in ("delta_wall_s", "delta_cpu_s", "delta_base_wall_s", "delta_base_cpu_s"):
        timed = [r[key] for r in records if key in r]  # the incremental step runs in the first repeat only
        if timed:
            out[key] = spread(timed)
    for key in ("delta_memories", "delta_pairs_judged", "base_pairs_judged"):
        if key in first:
            out[key] = first[key]
    return out


def exponents(points: list[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Growth exponent per timing (episode wall/CPU, each phase): over all sizes and the two largest."""
    points = sorted(points, key=lambda p: p["size"])
    sizes = [p["size"] for p in points]
    series: dict[str, list[float]] = {
        "episode_cpu": [p["episode_cpu_s"]["median"] for p in points],
        "episode_wall": [p["episode_wall_s"]["median"] for p in points],
    }
    for phase in points[0]["phases"] if points else ():
        series[phase] = [p["phases"].get(phase, {}).get("median", 0.0) for p in points]
    last_two = len(sizes) >= 2
    return {name: {"all": growth_exponent(sizes, times),
                   "last_two": growth_exponent(sizes[-2:], times[-2:]) if last_two else None}
            for name, times in series.items()}  # fmt: skip


def run_episode_suite(
    experiment: str,
    sizes: Sequence[int],
    repeats: int,
    *,
    cold_sizes: Sequence[int] = (),
    overrides: Sequence[str] = (),
    delta: float = 0.0,
    delta_sizes: Sequence[int] = (),
    recall_sample: int = 50,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the points and aggregate them (see the module docstring)."""
    result: dict[str, Any] = {"experiment": experiment, "overrides": list(overrides), "cached": [], "cold": []}
    plan = [(size, False) for size in sizes] + [(size, True) for size in cold_sizes]
    for size, cold in plan:
        records = []
        for rep in range(max(1, repeats)):
            spec = {
                "experiment": experiment,
                "size": int(size),
                "overrides": list(overrides),
                "cold": cold,
                "recall_sample": recall_sample,
                "delta": delta if (size in delta_sizes and rep == 0 and not cold) else 0.0,
            }
            if progress:
                progress(f"size {size} {'cold' if cold else 'cached'} repeat {rep + 1}/{repeats}")
            records.append(run_point(spec))
        result["cold" if cold else "cached"].append(aggregate(records))
    result["exponents"] = exponents(result["cached"])
    if len(result["cold"]) >= 2:
        result["exponents_cold"] = exponents(result["cold"])
    return result
