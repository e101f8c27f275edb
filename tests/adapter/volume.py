"""Volume repositories written with real-note text, and the cold command timings issue 41 names (a script, not
tests; the figures need a quiet machine).

    .venv/bin/python -m tests.adapter.volume status --notes 100000 [--quoted]
    .venv/bin/python -m tests.adapter.volume consolidate --notes 10 --per-note 100000
    (--root DIR, repeatable: the checkouts whose memlab is timed, alternated on one repository)

Each memory's summary and body come from the records of ``git-notes-memory-notes/notes.jsonl`` in turn (read
where it lies; a variant number keeps every memory distinct), one note per object under ``refs/notes/mem/<its
namespace>``, written by ``git fast-import``; ``--quoted`` writes summaries as YAML double-quoted scalars (as
some writers do). ``status`` runs with no ``.git/memlab`` (cold: no parsed-notes cache); each command runs under
``/usr/bin/time`` and its wall time, peak RSS and the load average are printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def real_texts() -> list[dict]:
    """The records of the real notes file (namespace, summary, content, tags)."""
    from memlab.core.paths import default_data_dir

    path = default_data_dir() / "git-notes-memory-notes" / "notes.jsonl"
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def memory(record: dict, i: int, when: datetime, quoted: bool) -> str:
    """One memory as memlab's capture writes it (:func:`format_memory`), or with a double-quoted summary."""
    from memlab.adapter.notes_format import format_memory

    summary = f"{' '.join(record['summary'].split())} (variant {i})"
    text = format_memory(record["namespace"], when, summary, record["content"], tuple(record.get("tags") or ()))
    if not quoted:
        return text
    head, _, rest = text.partition("\nsummary: ")
    return f"{head}\nsummary: {json.dumps(summary)}\n{rest.split(chr(10), 1)[1]}"


def build(repo: Path, notes: int, per_note: int, quoted: bool) -> int:
    """A repository holding ``notes`` notes of ``per_note`` memories each; returns the memories written."""
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    texts = real_texts()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    by_ref: dict[str, list[bytes]] = {}
    for n in range(notes):
        first = texts[(n * per_note) % len(texts)]["namespace"]
        body = "\n".join(
            memory(texts[i % len(texts)], i, start + timedelta(minutes=i), quoted)
            for i in range(n * per_note, (n + 1) * per_note)
        ).encode()
        obj = hashlib.sha1(f"obj{n}".encode()).hexdigest()
        by_ref.setdefault(first, []).append(f"M 100644 inline {obj[:2]}/{obj[2:]}\ndata {len(body)}\n".encode() + body)
    stream = b"".join(
        f"commit refs/notes/mem/{ns}\ncommitter x <x@x> 1700000000 +0000\ndata 5\nnotes\n".encode() + b"\n".join(parts)
        for ns, parts in by_ref.items()
    )
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=stream, check=True)
    return notes * per_note


def timed(args: list[str], repo: Path, root: Path = ROOT, realtime: bool = False) -> str:
    """Run ``memlab ARGS --project REPO`` (memlab from ``root``) under ``/usr/bin/time``: wall, CPU (user +
    system, with the git processes it waited for), peak RSS, load."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = ["chrt", "-f", "10"] if realtime else []  # its own time, not the wait for a CPU (root only)
    cmd += [
        "/usr/bin/time",
        "-f",
        "%e %M %U %S",
        sys.executable,
        "-P",
        "-m",
        "memlab.cli",
        *args,
        "--project",
        str(repo),
    ]
    load = os.getloadavg()[0]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/")  # memlab from ``root`` only
    wall, kib, user, system = proc.stderr.strip().splitlines()[-1].split()
    ok = "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[0]}"
    cpu = float(user) + float(system)
    name = f"memlab {' '.join(args)}"
    return f"{name}: {wall} s wall, {cpu:.2f} s CPU, {int(kib) / 1024:.0f} MiB peak, load {load:.2f} ({ok})"


def main() -> None:
    """Build the repository the command asks for in a temporary folder and time the command on it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("status", "consolidate"))
    parser.add_argument("--notes", type=int, default=100_000)
    parser.add_argument("--per-note", type=int, default=1)
    parser.add_argument("--quoted", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--realtime", action="store_true", help="run each command under `chrt -f 10` (root)")
    parser.add_argument("--repo", type=Path, help="build the repository here, or reuse it when it exists")
    parser.add_argument("--root", type=Path, action="append", help="a memlab checkout to time (repeatable: alternated)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memlab-volume-") as tmp:
        repo = args.repo or Path(tmp) / "repo"
        if not (repo / ".git").exists():
            build(repo, args.notes, args.per_note, args.quoted)
        count = args.notes * args.per_note
        print(f"{count:,} memories in {args.notes:,} notes{' (double-quoted summaries)' if args.quoted else ''}")
        for _ in range(args.repeat):
            for root in args.root or [ROOT]:
                subprocess.run(["rm", "-rf", str(repo / ".git" / "memlab")], check=True)
                command = [args.command, "--json"] if args.command == "status" else [args.command]
                print(f"{root}: {timed(command, repo, root, args.realtime)}", flush=True)


if __name__ == "__main__":
    main()
