"""``memlab bench``: performance of the policy and of the production hook.

* ``memlab bench episode`` — every phase and the whole episode of an experiment at several sizes (cached
  embeddings, and with ``--cold-sizes`` an empty cache), repeated; quality beside it; an incremental
  consolidation of ``--delta`` new memories at the largest size (:mod:`memlab.perf.suite`);
* ``memlab bench temporal`` — each temporal resolver per expression (:mod:`memlab.perf.temporal`);
* ``memlab bench hook`` — cold SessionStart processes at several store sizes beside the interpreter's own
  start (:mod:`memlab.adapter.bench`);
* ``memlab bench all`` — the three; ``memlab bench report`` — rewrite the report only.

Each writes its section of ``reports/perf.json`` and regenerates ``reports/perf.md`` and ``reports/perf.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError

TARGETS = ("episode", "temporal", "hook", "all", "report")


def _ints(text: str) -> list[int]:
    try:
        return [int(s.replace("_", "")) for s in text.split(",") if s.strip()]
    except ValueError:
        raise MemlabError(f"sizes must be comma-separated integers, got '{text}'") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab bench``."""
    parser.add_argument("target", choices=TARGETS, help="what to benchmark (report: only rewrite the report)")
    parser.add_argument("--sizes", default=None, help="sizes (episode default 1000,10000,100000; hook 1000,10000)")
    parser.add_argument("--experiment", default="project_history_large", help="episode: the experiment")
    parser.add_argument("--repeats", type=int, default=3, help="episode/temporal: repeats per point")
    parser.add_argument("--cold-sizes", default="", help="episode: sizes also run with an empty embedding cache")
    parser.add_argument("--delta", type=float, default=0.01, help="episode: fraction added to a consolidated store")
    parser.add_argument("--override", action="append", default=[], help="episode: a Hydra override (repeatable)")
    parser.add_argument("--section", default="episode", help="episode: the results section (episode, episode_*)")
    parser.add_argument("--results", default="reports/perf.json", help="results file (sections are replaced)")
    parser.add_argument("--report-dir", default="reports", help="where perf.md and perf.png go")
    parser.add_argument("--no-notes", action="store_true", help="hook: skip the 6,299 real notes")
    parser.add_argument("--notes", default=None, help="hook: notes.jsonl (default: <data dir>/git-notes-memory-notes/)")
    parser.add_argument("--runs", type=int, default=20, help="hook: cold session-start processes per dataset")
    parser.add_argument("--spec", default=None, help="hook: memlab-hook.json (default: built-in defaults)")
    parser.add_argument("--workdir", default=None, help="hook: keep the repositories here (default: a temp dir)")
    parser.add_argument("--realtime", action="store_true", help="hook: time session-start under `chrt -f 10` (root)")
    parser.add_argument("--out", default=None, help="hook: also write its JSON report here")


def _progress(message: str) -> None:
    print(f"[bench] {message} (load {os.getloadavg()[0]:.2f})", file=sys.stderr, flush=True)


def bench_episode(args: argparse.Namespace) -> dict[str, Any]:
    """The episode suite."""
    from memlab.perf.suite import run_episode_suite

    sizes = _ints(args.sizes) if args.sizes else [1000, 10000, 100000]
    if not sizes or min(sizes) < 20:
        raise MemlabError("episode sizes must be at least 20 memories (--sizes 1000,10000)")
    section = run_episode_suite(
        args.experiment,
        sizes,
        args.repeats,
        cold_sizes=_ints(args.cold_sizes),
        overrides=args.override,
        delta=args.delta,
        delta_sizes=[max(sizes)] if args.delta > 0 else [],
        progress=_progress,
    )
    for p in section["cached"] + section["cold"]:
        kind = "cold" if p["cold"] else "cached"
        q = p["quality"]
        print(
            f"{p['size']:>7} {kind:>6}  episode CPU {p['episode_cpu_s']['median']:.2f}s wall "
            f"{p['episode_wall_s']['median']:.2f}s  RSS {p['peak_rss_mib']:.0f} MiB  "
            f"f1 {q.get('supersession_f1', float('nan')):.3f}"
        )
    return section


def bench_hook(args: argparse.Namespace) -> dict[str, Any]:
    """The SessionStart hook benchmark (cold processes), with the interpreter floor."""
    from memlab.adapter.bench import run_bench
    from memlab.core.paths import default_data_dir

    notes = Path(args.notes) if args.notes else default_data_dir() / "git-notes-memory-notes" / "notes.jsonl"
    if not notes.is_file():
        raise MemlabError(f"no notes file at {notes}; pass --notes PATH or set MEMLAB_DATA_DIR")
    sizes = _ints(args.sizes) if args.sizes is not None else [1000, 10000]
    with tempfile.TemporaryDirectory(prefix="memlab-bench-") as tmp:
        workdir = Path(args.workdir) if args.workdir else Path(tmp)
        report = run_bench(
            workdir, notes, sizes, args.runs, args.spec, include_notes=not args.no_notes, realtime=args.realtime
        )
    report["loadavg"] = os.getloadavg()[0]
    columns = ("dataset", "read", "distinct", "p50 ms", "p95 ms", "cpu ms", "RSS MiB", "chars", "dups")
    print(" ".join(f"{c:>9}" for c in columns))
    floor = report["floor"]
    print(f"{'floor':>9} {'':>9} {'':>9} {floor['p50_ms']!s:>9} {floor['p95_ms']!s:>9} {floor['cpu_p50_ms']!s:>9}")
    for d in report["datasets"]:
        s = d["session_start"]
        values = (d["dataset"], d["records_read"], d["distinct_memories"], s["p50_ms"], s["p95_ms"], s["cpu_p50_ms"])
        values += (s["max_rss_mib"], s["context_chars"], s["duplicate_items"])
        print(" ".join(f"{v!s:>9}" for v in values))
    print(f"load average during the run: {report['loadavg']:.2f} (2 cores)")
    c = report["concurrency"]
    print(f"concurrency: {c['writers']} writers, {c['expected']} records each kind, lost {c['lost']}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def bench_temporal(args: argparse.Namespace) -> dict[str, Any]:
    """Temporal resolvers per expression."""
    from memlab.perf.temporal import run_temporal

    resolvers = run_temporal(repeats=args.repeats)
    for name, r in resolvers.items():
        print(f"{name:>14}  " + (r["error"] if "error" in r else f"p50 {r['p50_us']:.0f} µs  p95 {r['p95_us']:.0f} µs"))
    return {"resolvers": resolvers}


def environment() -> dict[str, Any]:
    """Where the numbers were measured."""
    from memlab.observability import provenance

    sha, dirty = provenance.git_state()
    return {"cpus": os.cpu_count(), "python": sys.version.split()[0], "git_sha": f"{sha}{' (dirty)' if dirty else ''}"}


def run(args: argparse.Namespace) -> int:
    """Run the chosen benchmark(s), save their sections and rewrite the report."""
    from memlab.perf.report import load, save_section, write_report

    results = Path(args.results)
    targets = {"all": ("episode", "temporal", "hook")}.get(args.target, (args.target,))
    runners = {"episode": bench_episode, "temporal": bench_temporal, "hook": bench_hook}
    if args.target == "episode" and not (args.section == "episode" or args.section.startswith("episode_")):
        raise MemlabError(f"--section must be 'episode' or start with 'episode_', got '{args.section}'")
    for target in targets:
        if target in runners:
            name = args.section if target == "episode" else target
            save_section(results, name, runners[target](args))
            save_section(results, "environment", environment())
    data = load(results)
    if not data:
        raise MemlabError(f"no results in {results}; run `memlab bench episode` (or temporal, hook) first")
    report_dir = Path(args.report_dir)
    out = write_report(data, report_dir / "perf.md", report_dir / "perf.png")
    print(f"wrote {out}")
    return 0
