"""``memlab bench hook``: latency and memory of the SessionStart hook at several store sizes."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from memlab.errors import MemlabError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab bench``."""
    parser.add_argument("target", choices=("hook",), help="what to benchmark")
    parser.add_argument("--sizes", default="1000,10000", help="synthetic store sizes (comma-separated; '' for none)")
    parser.add_argument("--no-notes", action="store_true", help="skip the 6,299 real notes")
    parser.add_argument("--notes", default=None, help="notes.jsonl (default: <data dir>/git-notes-memory-notes/)")
    parser.add_argument("--runs", type=int, default=20, help="cold session-start processes per dataset")
    parser.add_argument("--spec", default=None, help="memlab-hook.json (default: built-in defaults)")
    parser.add_argument("--workdir", default=None, help="keep the repositories here (default: a temp dir)")
    parser.add_argument("--realtime", action="store_true", help="time session-start under `chrt -f 10` (root)")
    parser.add_argument("--out", default=None, help="also write the JSON report here")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print a table plus the JSON report."""
    from memlab.adapter.bench import run_bench
    from memlab.paths import default_data_dir

    notes = Path(args.notes) if args.notes else default_data_dir() / "git-notes-memory-notes" / "notes.jsonl"
    if not notes.is_file():
        raise MemlabError(f"no notes file at {notes}; pass --notes PATH or set MEMLAB_DATA_DIR")
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    with tempfile.TemporaryDirectory(prefix="memlab-bench-") as tmp:
        workdir = Path(args.workdir) if args.workdir else Path(tmp)
        report = run_bench(
            workdir, notes, sizes, args.runs, args.spec, include_notes=not args.no_notes, realtime=args.realtime
        )
    columns = ("dataset", "read", "distinct", "p50 ms", "p95 ms", "cpu ms", "RSS MiB", "chars", "dups")
    print(" ".join(f"{c:>9}" for c in columns))
    for d in report["datasets"]:
        s = d["session_start"]
        values = (d["dataset"], d["records_read"], d["distinct_memories"], s["p50_ms"], s["p95_ms"], s["cpu_p50_ms"])
        values += (s["max_rss_mib"], s["context_chars"], s["duplicate_items"])
        print(" ".join(f"{v!s:>9}" for v in values))
    import os

    print(f"load average during the run: {os.getloadavg()[0]:.2f} (2 cores)")
    c = report["concurrency"]
    print(f"concurrency: {c['writers']} writers, {c['expected']} records each kind, lost {c['lost']}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0
