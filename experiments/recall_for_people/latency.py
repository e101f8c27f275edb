"""How long ``memlab recall`` takes, and how much memory, on a 4-memory and a 10,000-memory repository.

Each repository is consolidated with the spec (as ``memlab install`` does), then ``memlab recall QUERY --no-track``
runs ``--runs`` times as a person runs it, each under ``/usr/bin/time -v`` (wall seconds, maximum resident set).
The 4 memories are the README walk-through's; the 10,000 are ``memlab bench hook``'s synthetic set (variants of the
distinct real notes, ``memlab.adapter.bench.synthetic_dataset``). Issue 40's targets: < 1 s and < 150 MiB on 4,
< 2 s on 10,000.

    python experiments/recall_for_people/latency.py --overrides +experiment=tuned,dataset=project_history
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memlab.adapter.bench import init_repo, read_notes_jsonl, synthetic_dataset
from memlab.adapter.consolidation import consolidate_repo
from memlab.adapter.export import spec_from_config
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
from memlab.adapter.spec import resolve_spec
from memlab.core.paths import PROJECT_ROOT, default_data_dir
from memlab.wiring.config import compose

WALK_THROUGH = (
    ("decisions", "Use Kafka for the event bus"),
    ("decisions", "Switched from Kafka to NATS for the event bus"),
    ("learnings", "The integration tests need Docker running"),
    ("decisions", "Moved the event bus from NATS to Redis Streams"),
)


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and maximum resident MiB of one process (``/usr/bin/time -v``)."""
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], env=env, capture_output=True, text=True, check=True)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    hours, minutes, seconds = wall.groups()
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds), int(rss.group(1)) / 1024


def main() -> None:
    """Both repositories; JSON on stdout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--overrides", default="+experiment=tuned,dataset=project_history")
    parser.add_argument("--sizes", default="4,10000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--query", default="event bus")
    args = parser.parse_args()
    report = {"overrides": args.overrides, "load_before": os.getloadavg()[0], "sizes": {}}
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        spec_path = Path(tmp, "memlab-hook.json")
        spec_path.write_text(json.dumps(spec_from_config(compose(args.overrides.split(",")))))
        spec = resolve_spec(str(spec_path))
        for size in map(int, args.sizes.split(",")):
            project = Path(tmp, f"repo-{size}")
            if size == len(WALK_THROUGH):
                init_repo(project, 1)
                start = datetime(2025, 11, 3, tzinfo=UTC)
                for i, (namespace, summary) in enumerate(WALK_THROUGH):
                    append_memory(find_repo(project), namespace, summary, "", timestamp=start + timedelta(days=15 * i))
            else:
                notes = default_data_dir() / "git-notes-memory-notes" / "notes.jsonl"
                synthetic_dataset(project, read_notes_jsonl(notes), size)
            consolidate_repo(find_repo(project), spec)
            cmd = [sys.executable, "-m", "memlab.cli", "recall", args.query, "--no-track"]
            cmd += ["--project", str(project), "--spec", str(spec_path)]
            runs = [timed(cmd, env) for _ in range(args.runs)]
            walls, rss = [w for w, _ in runs], [r for _, r in runs]
            report["sizes"][size] = {
                "wall_s": [round(w, 2) for w in walls],
                "wall_p50_s": round(statistics.median(walls), 2),
                "max_rss_mib": round(max(rss), 1),
                "load": os.getloadavg()[0],
            }
            print(size, json.dumps(report["sizes"][size]), file=sys.stderr, flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
