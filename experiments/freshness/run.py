"""Capture -> Stop -> next session: is what one session captured current in the next session's block?

Each generated project history (``memlab.data.project_history``) is replayed as sessions of ``--per-session``
consecutive memories into a fresh repository with the policy installed (``memlab install --scope local``). Per
session: its memories are captured (``memlab hook capture``'s writer, with their own timestamps), the installed Stop
command runs, and the next session's installed SessionStart command runs either once the Stop hook's background
consolidation has finished (``wait``) or at once (``immediate``: the session starts while it may still run). Every
command runs exactly as ``.claude/settings.local.json`` holds it, under ``MEMLAB_NOW`` set to the session's time.

A block *shows a superseded fact* when it holds a memory that the policy's own judge finds superseded by a memory
captured in an earlier session: the SUPERSEDES edges of a full consolidation (``memlab consolidate --full``) of a
copy of the repository as it is when the session starts, at the session's time — what the policy would not show
once consolidated. Gold-superseded memories shown (the generator's relations, whether the judge finds them or not)
are counted beside it. Latencies are wall
times of the hook processes and the background consolidations' own durations (``hook.log``).

    python experiments/freshness/run.py --spec SPEC.json --seeds 0,1,2 --size 200 --out reports/freshness.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from memlab.adapter import jsonl_refs
from memlab.adapter.bench import percentile
from memlab.adapter.freshness import moved
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
from memlab.adapter.spec import load_spec, policy_id
from memlab.adapter.state import CACHE_FILE, read_json
from memlab.core.paths import PROJECT_ROOT
from memlab.core.types import Relation
from memlab.data.project_history.generator import generate
from memlab.pipeline.inject import escape

DONE = re.compile(r"consolidation run_\w+: \d+ memories, ([\d.]+) s")


def run(cmd: list[str] | str, cwd: Path, env: dict[str, str], stdin: str = "") -> tuple[float, str]:
    """Wall seconds and stdout of one process (a shell command string runs as Claude Code runs it)."""
    t0 = time.perf_counter()
    argv = ["sh", "-c", cmd] if isinstance(cmd, str) else cmd
    proc = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return time.perf_counter() - t0, proc.stdout


def wait_until_consolidated(repo, deadline: float) -> None:
    """Until the candidate cache was written from the notes as they are now (or ``deadline``)."""
    while time.time() < deadline:
        cache = read_json(repo.memlab_dir / CACHE_FILE)
        if isinstance(cache, dict) and moved(repo, cache) is None:
            return
        time.sleep(0.1)


def replay(spec_path: Path, seed: int, size: int, per_session: int, mode: str, work: Path) -> dict:
    """One history replayed session by session; per-session results and latencies."""
    history = generate(seed, size)
    project = work / f"{mode}-{seed}"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    for key, value in (("user.email", "f@example.com"), ("user.name", "f")):
        subprocess.run(["git", "-C", str(project), "config", key, value], check=True)
    subprocess.run(["git", "-C", str(project), "commit", "-q", "--allow-empty", "-m", "init"], check=True)
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "XDG_STATE_HOME": str(work / "state"), "HF_HUB_OFFLINE": "1"}
    memlab = [sys.executable, "-m", "memlab.cli"]
    run([*memlab, "install", "--spec", str(spec_path), "--project", str(project), "--scope", "local",
         "--no-consolidate"], project, env)  # fmt: skip
    hooks = json.loads((project / ".claude" / "settings.local.json").read_text())["hooks"]
    command = {event: hooks[event][0]["hooks"][0]["command"] for event in ("SessionStart", "Stop")}
    env = {k: v for k, v in env.items() if k != "PYTHONPATH"}  # the installed command sets what it needs
    repo = find_repo(project)
    ids, texts = {}, {}  # generator id -> stored id; stored id -> summary
    memories = sorted(history.memories, key=lambda m: (m.timestamp, m.id))
    sessions = [memories[i : i + per_session] for i in range(0, len(memories), per_session)]
    captured_in: dict[str, int] = {}
    stops, starts, blocks, found_then, references = [], [], [], [], []
    pending = 0  # sessions that started before the consolidation of the last one's memories had finished
    policy = policy_id(load_spec(spec_path))
    text_id: dict[str, str] = {}  # a candidate's rendered line -> its memory (from every cache the sessions read)

    def learn() -> None:
        cache = read_json(repo.memlab_dir / CACHE_FILE)
        for row in cache.get("rows", []) if isinstance(cache, dict) else []:
            text_id[escape(row[3])] = text_id[escape(row[3]).split(" — ", 1)[0]] = row[0]  # current_facts: summary

    for n, session in enumerate(sessions):
        for m in session:
            ids[m.id] = append_memory(repo, m.namespace, m.summary, m.content, timestamp=m.timestamp, tags=m.tags)
            texts[ids[m.id]] = m.summary
            captured_in[ids[m.id]] = n
        clock = {**env, "MEMLAB_NOW": (session[-1].timestamp + timedelta(minutes=1)).isoformat()}
        if n == 0:  # install's first consolidation
            run([*memlab, "consolidate", "--project", str(project), "--spec", str(spec_path)], project,
                {**clock, "PYTHONPATH": str(PROJECT_ROOT)})  # fmt: skip
            continue
        payload = json.dumps({"session_id": f"s{n}", "cwd": str(project), "hook_event_name": "Stop"})
        seconds, _ = run(command["Stop"], project, clock, payload)
        stops.append(seconds)
        if mode == "wait":
            wait_until_consolidated(repo, time.time() + 600)
        start = {**clock, "MEMLAB_NOW": (session[-1].timestamp + timedelta(minutes=30)).isoformat()}
        payload = json.dumps({"session_id": f"s{n + 1}", "cwd": str(project), "source": "startup"})
        learn()
        before, _ = jsonl_refs.read_records(repo, "edges", policy)
        found_then.append({(e["target"], e["source"]) for e in before.values() if e["type"] == "supersedes"})
        seconds, out = run(command["SessionStart"], project, start, payload)
        learn()
        references.append(reference(project, spec_path, start, memlab))
        starts.append(seconds)
        data = json.loads(out) if out.strip() else {}
        pending += "not yet consolidated" in data.get("systemMessage", "")
        blocks.append((n, data.get("hookSpecificOutput", {}).get("additionalContext", "")))
    wait_until_consolidated(repo, time.time() + 600)
    log = (repo.memlab_dir / "hook.log").read_text()
    consolidations = [float(m.group(1)) for m in DONE.finditer(log)]
    gold = {(ids[r.older], ids[r.newer]) for r in history.relations if r.relation is Relation.SUPERSEDE}
    shown_bad = shown_gold = with_stale = items = unknown = 0
    examples, found_when_shown = [], 0
    for (n, block), then, judged in zip(blocks, found_then, references, strict=True):
        shown = {text_id[ln] for ln in block.splitlines() if ln in text_id}  # marked new memories: never stale
        lines = [ln for ln in block.splitlines() if ln.startswith("- [")]
        items += len(lines)
        unknown += sum(1 for ln in lines if ln not in text_id and ", not yet consolidated] " not in ln)
        pairs = {(old, new) for old, new in judged if old in shown and captured_in.get(new, 1 << 30) <= n}
        bad = {old for old, _ in pairs}
        found_when_shown += len(pairs & then)
        path = "marked" if "not yet consolidated]" in block else "consolidated"
        examples += [
            f"session {n} ({path}): {texts[o]!r} shown, {texts[w]!r} captured in session {captured_in[w]}"
            + (" (found before the session)" if (o, w) in then else "")
            for o, w in pairs
        ]
        shown_bad += len(bad)
        shown_gold += len({old for old, new in gold if old in shown and captured_in.get(new, 1 << 30) <= n})
        with_stale += bool(bad)
    return {
        "seed": seed,
        "sessions": len(blocks),
        "sessions_showing_a_judged_superseded_fact": with_stale,
        "judged_superseded_items_shown": shown_bad,
        "gold_superseded_items_shown": shown_gold,
        "judged_supersessions": len(references[-1]) if references else 0,
        "shown_although_found_before_the_session": found_when_shown,
        "sessions_with_new_memories_marked": pending,
        "examples": examples[:5],
        "items_shown": items,
        "items_not_traced_to_a_memory": unknown,
        "stop_s": stops,
        "session_start_s": starts,
        "consolidation_s": consolidations,
    }


def reference(project: Path, spec_path: Path, env: dict[str, str], memlab: list[str]) -> set[tuple[str, str]]:
    """(superseded, superseding) pairs a full consolidation finds on a copy of ``project`` at ``env``'s time."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "copy"
        shutil.copytree(project, copy, symlinks=True)
        for ref in jsonl_refs.DERIVED_REFS.values():  # from the raw notes, as a first consolidation
            subprocess.run(["git", "-C", str(copy), "update-ref", "-d", ref], check=True)
        run([*memlab, "consolidate", "--full", "--project", str(copy), "--spec", str(spec_path)], copy,
            {**env, "PYTHONPATH": str(PROJECT_ROOT)})  # fmt: skip
        edges, _ = jsonl_refs.read_records(find_repo(copy), "edges", policy_id(load_spec(spec_path)))
    return {(e["target"], e["source"]) for e in edges.values() if e["type"] == "supersedes"}


def summary(values: list[float]) -> dict:
    """p50 and p95 (nearest rank) in seconds."""
    if not values:
        return {}
    return {"n": len(values), "p50": round(statistics.median(values), 3), "p95": round(percentile(values, 95), 3)}


def main() -> None:
    """Replay every seed in both modes and print (and with --out write) the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--per-session", type=int, default=5)
    parser.add_argument("--modes", default="wait,immediate")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    spec = Path(args.spec).resolve()
    report = {"spec": str(spec), "size": args.size, "per_session": args.per_session, "load": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.modes.split(","):
            runs = [replay(spec, int(s), args.size, args.per_session, mode, Path(tmp)) for s in args.seeds.split(",")]
            report[mode] = {
                "sessions": sum(r["sessions"] for r in runs),
                "sessions_showing_a_judged_superseded_fact": sum(
                    r["sessions_showing_a_judged_superseded_fact"] for r in runs
                ),
                "judged_superseded_items_shown": sum(r["judged_superseded_items_shown"] for r in runs),
                "gold_superseded_items_shown": sum(r["gold_superseded_items_shown"] for r in runs),
                "judged_supersessions": sum(r["judged_supersessions"] for r in runs),
                "shown_although_found_before_the_session": sum(
                    r["shown_although_found_before_the_session"] for r in runs
                ),
                "sessions_with_new_memories_marked": sum(r["sessions_with_new_memories_marked"] for r in runs),
                "examples": [e for r in runs for e in r["examples"]][:10],
                "items_shown": sum(r["items_shown"] for r in runs),
                "items_not_traced_to_a_memory": sum(r["items_not_traced_to_a_memory"] for r in runs),
                "stop": summary([x for r in runs for x in r["stop_s"]]),
                "session_start": summary([x for r in runs for x in r["session_start_s"]]),
                "background_consolidation": summary([x for r in runs for x in r["consolidation_s"]]),
            }
            print(mode, json.dumps(report[mode]), file=sys.stderr, flush=True)
    report["load_after"] = os.getloadavg()[0]
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
