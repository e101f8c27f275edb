"""``memlab status``: tier distribution, last consolidation and counts of a repository's memories."""

from __future__ import annotations

import argparse
from collections import Counter
from operator import attrgetter

from memlab.adapter.cli_common import add_repo_arguments, command_spec, emit, open_repo


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab status``."""
    add_repo_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Print the status (automatic garbage collection paused: everything it builds is freed when it returns,
    without a collection over 100,000 memories). Status writes nothing: it reads the parsed-notes cache that
    consolidation writes and never rewrites it (75 MB of JSON at 100,000 notes, a sixth of a cold status).
    """
    from memlab.adapter.notes_store import paused_gc

    with paused_gc():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from memlab.adapter.consolidation import load_store, new_memory_count
    from memlab.adapter.notes_store import ref_tips
    from memlab.adapter.spec import policy_id, spec_id
    from memlab.adapter.state import CACHE_FILE, LAST_RUN_FILE, read_json

    repo = open_repo(args)
    spec = command_spec(args, repo, "status")
    policy = policy_id(spec)
    loaded = load_store(repo, policy, save_cache=False)
    cache = read_json(repo.memlab_dir / CACHE_FILE)
    store = loaded.store
    tiers = Counter(s.tier.value for s in store.states.values())
    namespaces = Counter(map(attrgetter("namespace"), store.memories.values()))
    last = read_json(repo.memlab_dir / LAST_RUN_FILE) or {}
    local = ref_tips(repo, "refs/notes/")
    fetched = ref_tips(repo, "refs/notes/remotes/")
    unmerged = sorted(
        r for r, sha in fetched.items() if local.get("refs/notes/" + r.split("/", 4)[-1]) != sha and "/mem" in r
    )
    data = {
        "policy": policy,
        "cache_fresh": isinstance(cache, dict) and cache.get("spec") == spec_id(spec),
        "records": loaded.load.records,
        "memories": len(store.memories),
        "skipped": len(loaded.load.errors),
        "never_consolidated": new_memory_count(loaded),
        "tiers": {t: tiers.get(t, 0) for t in ("hot", "warm", "cold", "archived")},
        "namespaces": dict(sorted(namespaces.items())),
        "summaries": len(store.summaries),
        "edges": len(store.edges),
        "superseded": sum(1 for s in store.states.values() if s.superseded_by),
        "duplicates": sum(1 for s in store.states.values() if s.duplicate_of),
        "runs": len(loaded.runs),
        "last_run": {k: last.get(k) for k in ("at", "run_id", "memories", "seconds")} if last else None,
        "errors": loaded.errors[:20],
        "fetched_not_merged": unmerged,
    }
    text = [
        f"policy {policy}: SessionStart cache " + ("fresh" if data["cache_fresh"] else "stale (run consolidate)"),
        f"memories: {data['memories']} distinct ({data['records']} records, {data['skipped']} skipped), "
        f"{data['never_consolidated']} not yet consolidated",
        "tiers: " + ", ".join(f"{k} {v}" for k, v in data["tiers"].items()),
        "namespaces: " + ", ".join(f"{k} {v}" for k, v in data["namespaces"].items()),
        f"summaries {data['summaries']}, edges {data['edges']}, superseded {data['superseded']}, "
        f"duplicates {data['duplicates']}, runs {data['runs']}",
        f"last consolidation: {last.get('at', 'never')} ({last.get('run_id', '-')})",
    ]
    if unmerged:
        text.append(f"{len(unmerged)} fetched notes refs differ from the local ones; `memlab hook sync` merges them")
    text += [f"problem: {e}" for e in data["errors"][:5]]
    if len(loaded.errors) > 5:
        text.append(f"... and {len(loaded.errors) - 5} more (memlab status --json lists 20)")
    emit(args, data, "\n".join(text))
    return 0
