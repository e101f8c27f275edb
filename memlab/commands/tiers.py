"""``memlab tiers [--tier T] [--limit N]``: memories per tier of a repository."""

from __future__ import annotations

import argparse

from memlab.adapter.cli_common import add_repo_arguments, command_spec, emit, open_repo

TIERS = ("hot", "warm", "cold", "archived")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab tiers``."""
    parser.add_argument("--tier", choices=TIERS, default=None, help="only this tier")
    parser.add_argument("--limit", type=int, default=10, help="memories listed per tier (highest retention first)")
    add_repo_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Print each tier's count and its top memories."""
    from memlab.adapter.consolidation import load_store
    from memlab.adapter.spec import policy_id

    repo = open_repo(args)
    store = load_store(repo, policy_id(command_spec(args, repo, "tiers"))).store
    data: dict[str, list[dict]] = {t: [] for t in TIERS}
    for mid, state in store.states.items():
        m = store.memories[mid]
        data[state.tier.value].append(
            {"id": mid, "retention": state.retention, "namespace": m.namespace, "summary": m.summary}
        )
    lines = []
    for tier in TIERS if args.tier is None else (args.tier,):
        items = sorted(data[tier], key=lambda d: (-d["retention"], d["id"]))
        data[tier] = items
        lines.append(f"{tier}: {len(items)}")
        lines += [
            f"  {d['retention']:.3f} {d['id']} [{d['namespace']}] {d['summary'][:100]}" for d in items[: args.limit]
        ]
    emit(args, data if args.tier is None else {args.tier: data[args.tier]}, "\n".join(lines))
    return 0
