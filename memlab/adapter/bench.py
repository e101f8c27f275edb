"""``memlab bench hook``: write memories into temporary repositories, consolidate, time cold SessionStarts.

Datasets: ``notes`` = every record of ``git-notes-memory-notes/notes.jsonl`` rewritten as git-notes-memory
notes (one note per original (namespace, commit), memories in their original order), and ``synthetic-N`` =
N distinct memories derived from those records (a variant number makes each one distinct). The data file is
read where it lies, never copied. Reports p50/p95 wall time and peak RSS per cold process (``os.wait4``).
"""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memlab.adapter.notes_format import format_memory

CONCURRENT_WRITER = """
import sys
from datetime import UTC, datetime
from memlab.adapter import jsonl_refs
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
repo = find_repo(sys.argv[1]); w = sys.argv[2]; n = int(sys.argv[3])
for i in range(n):
    append_memory(repo, "progress", f"writer {w} memory {i}", f"body {w}/{i}", timestamp=datetime.now(UTC))
    jsonl_refs.append_records(repo, "meta", [{"id": f"bench-{w}-{i}", "tier": "hot"}])
"""


def _git(repo: Path, *args: str, input: bytes | None = None) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, input=input, capture_output=True, check=True)
    return proc.stdout.decode()


def init_repo(path: Path, commits: int) -> list[str]:
    """A repository with ``commits`` empty commits; returns their shas, oldest first."""
    path.mkdir(parents=True, exist_ok=True)
    _git(path, "init", "-q")
    _git(path, "config", "user.email", "bench@example.com")
    _git(path, "config", "user.name", "bench")
    for i in range(commits):
        _git(path, "commit", "-q", "--allow-empty", "-m", f"c{i}")
    return _git(path, "rev-list", "--reverse", "HEAD").split()


def read_notes_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of notes.jsonl in file order."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_notes(repo: Path, notes: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    """Write each (namespace, commit) group as one note of appended memories (``git notes add -F``)."""
    for (namespace, commit), items in notes.items():
        text = "\n".join(
            format_memory(
                namespace,
                datetime.fromisoformat(r["timestamp"]),
                r["summary"],
                r["content"],
                tuple(r.get("tags") or ()),
            )
            for r in items
        )
        _git(repo, "notes", f"--ref=refs/notes/mem/{namespace}", "add", "-f", "-F", "-", commit, input=text.encode())


def notes_dataset(repo: Path, records: list[dict[str, Any]]) -> int:
    """All records, grouped into notes as upstream stored them (original commits mapped to new ones)."""
    originals = sorted({r["commit"] for r in records})
    shas = init_repo(repo, len(originals))
    mapping = dict(zip(originals, shas, strict=True))
    notes: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in sorted(records, key=lambda r: (r["namespace"], r["commit"], r["index"])):
        notes.setdefault((r["namespace"], mapping[r["commit"]]), []).append(r)
    write_notes(repo, notes)
    return len(records)


def synthetic_dataset(repo: Path, records: list[dict[str, Any]], n: int, commits: int = 50) -> int:
    """``n`` distinct memories derived from the distinct (summary, content) pairs of ``records``."""
    distinct: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        distinct.setdefault((r["summary"], r["content"]), r)
    base = list(distinct.values())
    shas = init_repo(repo, commits)
    start = datetime(2025, 12, 1, tzinfo=UTC)
    notes: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for i in range(n):
        src = base[i % len(base)]
        variant = i // len(base)
        suffix = f" (variant {variant})" if variant else ""
        item = {
            "summary": src["summary"] + suffix,
            "content": src["content"] + suffix,
            "tags": src.get("tags"),
            "timestamp": (start + timedelta(minutes=7 * i)).isoformat(),
        }
        notes.setdefault((src["namespace"], shas[i % commits]), []).append(item)
    write_notes(repo, notes)
    return n


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in [0, 100])."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(round(q * len(ordered) / 100, 9)) - 1))
    return ordered[k]


def _one_run(cmd: list[str], repo: Path, payload: bytes) -> tuple[float, float, float, bytes]:
    """Wall ms, peak RSS MiB, CPU ms and stdout of one cold process.

    RSS and CPU come from ``/usr/bin/time`` when present (a small parent, so the numbers are the hook's own;
    a child forked from this large benchmark process would report the parent's pages), else ``os.wait4``.
    """
    timer = Path("/usr/bin/time")
    full = [str(timer), "-f", "MEMLAB_TIME %M %U %S", *cmd] if timer.exists() else cmd
    t0 = time.perf_counter()
    proc = subprocess.run(full, cwd=repo, input=payload, capture_output=True)
    wall = (time.perf_counter() - t0) * 1000
    rss = cpu = float("nan")
    for line in proc.stderr.decode("utf-8", "replace").splitlines():
        if line.startswith("MEMLAB_TIME "):
            kb, user, system = line.split()[1:4]
            rss, cpu = int(kb) / 1024, (float(user) + float(system)) * 1000
    return wall, rss, cpu, proc.stdout


def cold_session_starts(
    repo: Path, spec: str | None, runs: int, realtime: bool = False, pycache: Path | None = None
) -> dict[str, Any]:
    """Run session-start ``runs`` times in fresh processes, as the installed command line does (``-P -S``).

    ``realtime`` runs each process under ``chrt -f 10`` (needs root): on a shared, loaded machine this
    measures the hook's own latency rather than the wait for a CPU. ``pycache`` is the bytecode folder
    (``PYTHONPYCACHEPREFIX``) that ``memlab install`` fills with :func:`~memlab.adapter.install.precompile`.
    """
    import memlab

    root = str(Path(memlab.__file__).resolve().parent.parent)
    cmd = ["chrt", "-f", "10"] if realtime else []
    cmd += ["env", f"PYTHONPATH={root}"] + ([f"PYTHONPYCACHEPREFIX={pycache}"] if pycache else [])
    cmd += [sys.executable, "-P", "-S", "-m", "memlab.cli", "hook", "session-start"]
    cmd += ["--spec", spec] if spec else []
    times, rss, cpu = [], [], []
    last_out = b""
    for i in range(runs):
        payload = json.dumps({"session_id": f"bench-{i}", "cwd": str(repo), "source": "startup"}).encode()
        wall, peak, used, last_out = _one_run(cmd, repo, payload)
        times.append(wall)
        rss.append(peak)
        cpu.append(used)
    data = json.loads(last_out) if last_out.strip() else {}
    context = data.get("hookSpecificOutput", {}).get("additionalContext", "")
    items = [line.split("] ", 1)[-1] for line in context.splitlines() if line.startswith("- [")]
    return {
        "runs": runs,
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 95), 1),
        "cpu_p50_ms": round(statistics.median(cpu), 1),
        "max_rss_mib": round(max(rss), 1),
        "context_chars": len(context),
        "items": len(items),
        "duplicate_items": len(items) - len(set(items)),
    }


def interpreter_floor(repo: Path, runs: int) -> dict[str, Any]:
    """The interpreter's own start (``python -S -c pass``) timed like the hook: the floor of any hook."""
    times, cpu = [], []
    for _ in range(runs):
        wall, _peak, used, _out = _one_run([sys.executable, "-S", "-c", "pass"], repo, b"")
        times.append(wall)
        cpu.append(used)
    return {
        "runs": runs,
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 95), 1),
        "cpu_p50_ms": round(statistics.median(cpu), 1),
    }


def concurrency_check(repo: Path, writers: int = 8, per_writer: int = 10) -> dict[str, Any]:
    """``writers`` processes each capture ``per_writer`` memories and meta records at once; count losses."""
    from memlab.adapter import jsonl_refs
    from memlab.adapter.gitcli import find_repo
    from memlab.adapter.notes_store import load_memories

    init_repo(repo, 1)
    procs = [
        subprocess.Popen([sys.executable, "-c", CONCURRENT_WRITER, str(repo), str(w), str(per_writer)])
        for w in range(writers)
    ]
    for p in procs:
        p.wait()
    r = find_repo(repo)
    expected = writers * per_writer
    got = len(load_memories(r).memories)
    meta, _ = jsonl_refs.read_records(r, "meta")
    return {
        "writers": writers,
        "expected": expected,
        "memories": got,
        "meta": len(meta),
        "lost": (expected - got) + (expected - len(meta)),
    }


def run_bench(
    workdir: Path,
    notes_path: Path,
    sizes: Iterable[int],
    runs: int,
    spec_path: str | None,
    include_notes: bool = True,
    realtime: bool = False,
) -> dict[str, Any]:
    """The whole benchmark; returns a JSON-able report."""
    from memlab.adapter.consolidation import consolidate_repo
    from memlab.adapter.gitcli import find_repo
    from memlab.adapter.install import precompile
    from memlab.adapter.notes_store import load_memories
    from memlab.adapter.spec import resolve_spec

    if spec_path is None:  # freeze the defaults into a file, as `memlab export` would
        workdir.mkdir(parents=True, exist_ok=True)
        default = {k: v for k, v in resolve_spec(None).items() if k != "path"}
        spec_path = str(workdir / "memlab-hook.json")
        Path(spec_path).write_text(json.dumps(default, indent=2), encoding="utf-8")
    spec = resolve_spec(spec_path)
    pycache = workdir / "pycache"  # the hook's bytecode, compiled as `memlab install` does
    precompile(pycache)
    records = read_notes_jsonl(notes_path)
    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "spec": spec_path or "built-in default",
        "realtime": realtime,
        "datasets": [],
        "floor": interpreter_floor(workdir, runs),
    }
    plans: list[tuple[str, Any]] = [(f"synthetic-{n}", n) for n in sizes]
    if include_notes:
        plans.append(("notes", None))
    for name, n in plans:
        repo = workdir / name
        t0 = time.perf_counter()
        written = notes_dataset(repo, records) if n is None else synthetic_dataset(repo, records, n)
        t_write = time.perf_counter() - t0
        r = find_repo(repo)
        t0 = time.perf_counter()
        loaded = load_memories(r)
        t_read = time.perf_counter() - t0
        t0 = time.perf_counter()
        consolidation = consolidate_repo(r, spec)
        t_cons = time.perf_counter() - t0
        entry = {
            "dataset": name,
            "records_written": written,
            "records_read": loaded.records,
            "skipped": len(loaded.errors),
            "distinct_memories": len(loaded.memories),
            "write_s": round(t_write, 2),
            "read_s": round(t_read, 2),
            "consolidate_s": round(t_cons, 2),
            "tiers": consolidation["tier_counts"],
            "session_start": cold_session_starts(repo, spec.get("path"), runs, realtime, pycache),
        }
        report["datasets"].append(entry)
        print(json.dumps(entry), file=sys.stderr, flush=True)
    report["concurrency"] = concurrency_check(workdir / "concurrency")
    return report
