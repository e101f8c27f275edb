"""``memlab recall QUERY [--mode ...] [--as-of DATE] [--reason]``: search a repository's memories.

Without ``--spec`` (or ``$MEMLAB_SPEC``) it runs the spec ``memlab install`` installed for the repository, else
the built-in default policy, and says which on stderr (:mod:`memlab.adapter.installed_spec`).

Current memories come first and a superseded one (``--mode exhaustive``, or a spec whose recall mode is) after
them, marked ``[superseded by ID, DATE: SUMMARY]`` (:mod:`memlab.adapter.recall_order`).
"""

from __future__ import annotations

import argparse
from dataclasses import asdict, replace
from datetime import UTC, datetime

from memlab.adapter.cli_common import add_repo_arguments, command_spec, emit, open_repo
from memlab.core.errors import MemlabError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab recall``."""
    parser.add_argument("query", help="what to search for")
    parser.add_argument("--mode", choices=("reflexive", "standard", "deep", "exhaustive"), default=None)
    parser.add_argument("--as-of", default=None, help="answer as of this date (ISO-8601)")
    parser.add_argument("--limit", type=int, default=None, help="results (default: the spec's recall_limit)")
    parser.add_argument("--reason", action="store_true", help="answer + temporal resolutions + source memories")
    parser.add_argument("--no-track", action="store_true", help="do not record activations")
    add_repo_arguments(parser)


def _date(text: str) -> datetime:
    try:
        ts = datetime.fromisoformat(text)
    except ValueError:
        raise MemlabError(
            f"--as-of '{text}' is not an ISO date (e.g. 2025-12-24 or 2025-12-24T10:00:00+00:00)"
        ) from None
    return ts if ts.tzinfo else ts.replace(tzinfo=UTC)


def run(args: argparse.Namespace) -> int:
    """Recall and print hits (or the reasoned answer)."""
    from memlab.adapter import jsonl_refs, records
    from memlab.adapter.consolidation import load_store
    from memlab.adapter.reasoning import reason
    from memlab.adapter.recall_order import current_first
    from memlab.adapter.spec import build_components, check_models, policy_id
    from memlab.adapter.state import clock
    from memlab.adapter.vectors import RepoEmbedder
    from memlab.core.types import MAX_ACCESS_TIMES, MemoryState
    from memlab.pipeline.recall import recall

    repo = open_repo(args)
    spec = command_spec(args, repo, "recall")
    policy = policy_id(spec)
    # no mem-meta: tiers are derived.json's, no retriever reads activations, bump() re-reads records under the lock
    loaded = load_store(repo, policy, kinds=("summaries", *(["edges"] if args.reason else [])))
    check_models(spec, repo)
    # only what recall reads; memory vectors from the consolidation's file, the query without torch (vectors.py)
    components = build_components(spec, groups=("embedder", "retriever", *(["temporal"] if args.reason else [])))
    components = replace(components, embedder=RepoEmbedder(components.embedder, repo.memlab_dir))
    as_of = _date(args.as_of) if args.as_of else None
    now = clock()
    track = not args.no_track and as_of is None
    store = loaded.store
    found = recall(store, components, args.query, now, mode=args.mode, limit=args.limit, as_of=as_of, track=False)
    shown = current_first(loaded.store, found, as_of or now)
    hits = [s.hit for s in shown]
    ids = [h.memory.id for h in hits if h.memory.id in loaded.store.memories]  # summaries have no mem-meta
    if track and ids:

        def bump(current: dict) -> list[dict]:  # read under the writer lock: no concurrent write is lost
            states = loaded.store.states
            base = {i: current.get(i) or records.state_record(states.get(i) or MemoryState(i)) for i in ids}
            return [records.bump_activation(base[i], now, MAX_ACCESS_TIMES) for i in ids]

        jsonl_refs.update_records(repo, "meta", bump, policy)
    if args.reason:
        answer = reason(loaded.store, shown, components.temporal, args.query)
        lines = [f"answer: {answer.answer or '(no memory matches the question)'}"]
        lines += [f"  when: '{t['text']}' -> [{t['start']}, {t['end']})" for t in answer.temporal]
        lines += [
            f"  source {src['id']} [{src['namespace']}, {src['timestamp'][:10]}] {src['summary']}"
            + (f" {one.mark(store)}" if one.superseded else "")
            for src, one in zip(answer.sources, shown, strict=True)
        ]
        emit(args, asdict(answer), "\n".join(lines))
        return 0
    data = [
        {
            "id": s.hit.memory.id,
            "score": round(s.hit.score, 4),
            "tier": s.hit.tier.value,
            "namespace": s.hit.memory.namespace,
            "timestamp": s.hit.memory.timestamp.isoformat(),
            "summary": s.hit.memory.summary,
            "superseded": s.superseded,
            "superseded_by": s.superseded_by,
            "valid_until": s.valid_until.isoformat() if s.valid_until else None,
        }
        for s in shown
    ]
    lines = [
        f"{d['score']:.3f} {d['id']} [{d['namespace']}, {d['timestamp'][:10]}, {d['tier']}] {d['summary']}"
        + (f" {s.mark(loaded.store)}" if s.superseded else "")
        for d, s in zip(data, shown, strict=True)
    ]
    text = "\n".join(lines) or "no matching memory"
    emit(args, data, text)
    return 0
