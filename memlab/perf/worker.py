"""One measured point of ``memlab bench episode``: an experiment's whole episode at one size, in this process.

Run as ``python -m memlab.perf.worker '<json>'`` (the suite starts one process per point, so that peak RSS
and imports belong to the point); prints one JSON object. The point:

1. composes the experiment's config at ``dataset.size`` (``tracking=none``; ``cold``: an empty embedding
   cache in a temporary folder; else, before timing, the embedder is loaded and, when it has a cache, every
   text is embedded into it);
2. runs the episode (memories in time order, the experiment's schedule, its queries) and times the whole of
   it (wall and CPU) and each phase (wall, as :mod:`memlab.pipeline.episode` records it);
3. scores it (``supersession_f1``, ``stale_rate_injected``, ``current_coverage_injected``);
4. times recall per query (``recall_sample`` queries, one at a time, on the final store);
5. with ``delta`` > 0, consolidates the oldest ``1 - delta`` of the memories, adds the rest and times that
   second, incremental consolidation (with the number of pairs it judged).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import time
from typing import Any

QUALITY: tuple[str, ...] = (
    "supersession_f1",
    "supersession_precision",
    "supersession_recall",
    "stale_rate_injected",
    "current_coverage_injected",
)


def compose(experiment: str, size: int, seed: int, overrides: list[str]) -> dict[str, Any]:
    """The resolved config of ``+experiment=<experiment>`` at ``dataset.size=<size>`` as plain containers."""
    from memlab.wiring.config import compose as compose_config

    return compose_config([f"+experiment={experiment}", f"dataset.size={size}", f"seed={seed}", *overrides])


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far, MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _timed(fn, *args, **kwargs) -> tuple[Any, float, float]:
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - w, time.process_time() - c


def time_recall(outcome: Any, components: Any, sample: int) -> dict[str, float]:
    """Recall of single queries on the final store: p50/p95 wall milliseconds over ``sample`` queries."""
    from memlab.pipeline.recall import recall

    queries = list(outcome.episode.queries)[: max(0, sample)]
    if not queries:
        return {}
    times = []
    for q in queries:
        t0 = time.perf_counter()
        recall(outcome.store, components, q.text, outcome.end, mode=q.mode, limit=q.limit, track=False)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "recall_p50_ms": statistics.median(times),
        "recall_p95_ms": times[min(len(times) - 1, int(0.95 * len(times)))],
        "recall_queries": float(len(times)),
    }


def time_delta(memories: list[Any], components: Any, delta: float) -> dict[str, float]:
    """Consolidate the oldest ``1 - delta`` of ``memories``, add the rest, time the second consolidation."""
    from memlab.pipeline.consolidate import consolidate
    from memlab.pipeline.store import MemoryStore

    ordered = sorted(memories, key=lambda m: (m.timestamp, m.id))
    cut = max(1, len(ordered) - max(1, round(delta * len(ordered))))
    store = MemoryStore(ordered[:cut])
    _, base_wall, base_cpu = _timed(consolidate, store, components, ordered[cut - 1].timestamp)
    before = len(store.judged)
    store.add(ordered[cut:])
    _, wall, cpu = _timed(consolidate, store, components, ordered[-1].timestamp)
    return {
        "delta_memories": float(len(ordered) - cut),
        "delta_base_wall_s": base_wall,
        "delta_base_cpu_s": base_cpu,
        "delta_wall_s": wall,
        "delta_cpu_s": cpu,
        "delta_pairs_judged": float(len(store.judged) - before),
        "base_pairs_judged": float(before),
    }


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    """Measure one point (see the module docstring); returns a JSON-ready record."""
    from memlab.pipeline.episode import run_episode
    from memlab.wiring.build import GROUPS, build_components, build_node

    overrides = list(spec.get("overrides", []))
    tmp = None
    if spec.get("cold"):
        tmp = tempfile.TemporaryDirectory(prefix="memlab-perf-cold-")
        overrides.append(f"paths.cache_dir={tmp.name}")
    size, seed = int(spec["size"]), int(spec.get("seed", 0))
    record: dict[str, Any] = {"spec": spec, "loadavg_start": os.getloadavg()[0]}
    cfg = compose(str(spec["experiment"]), size, seed, overrides)
    bench = build_node(cfg["dataset"], "dataset")
    card = type(bench).card
    components, record["build_s"], _ = _timed(
        build_components, cfg, groups=[g for g in GROUPS if g in card.uses], benchmark=card.name
    )
    data, record["generate_s"], _ = _timed(bench.load, seed)
    memories = list(data.history.memories)
    record["memories"] = len(memories)
    record["distinct_texts"] = len({m.text for m in memories})
    if not spec.get("cold"):  # the model loaded (imports too) and, with a cache, every text in it
        texts = sorted({m.text for m in memories} | {q.text for q in data.episodes[0].queries})
        texts = texts if components.embedder.cache_dir else texts[:1]
        _, record["prewarm_s"], _ = _timed(components.embedder.encode, texts)
    episode = data.episodes[0]
    record["queries"] = len(episode.queries)
    outcome, record["episode_wall_s"], record["episode_cpu_s"] = _timed(
        run_episode, episode, components, bench.answerer(components, data)
    )
    record["phases"] = {k: float(v) for k, v in outcome.seconds.items()}
    record["runs"] = len(outcome.runs)
    record["pairs_judged"] = len(outcome.store.judged)
    result = bench.score(data, [outcome], components, seed)
    record["quality"] = {k: float(result.metrics[k]) for k in QUALITY if k in result.metrics}
    record.update(time_recall(outcome, components, int(spec.get("recall_sample", 50))))
    record["peak_rss_mib"] = peak_rss_mib()
    del outcome
    if float(spec.get("delta", 0.0)) > 0:
        record.update(time_delta(memories, components, float(spec["delta"])))
    record["peak_rss_mib_with_delta"] = peak_rss_mib()
    record["loadavg_end"] = os.getloadavg()[0]
    if tmp is not None:
        tmp.cleanup()
    return record


def main(argv: list[str] | None = None) -> int:
    """``python -m memlab.perf.worker '<json spec>'``: print the point's record as one JSON line."""
    args = sys.argv[1:] if argv is None else argv
    spec = json.loads(args[0])
    print(json.dumps(measure(spec)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
