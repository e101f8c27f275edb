"""``memlab edges MEMORY_ID``: edges (supersedes, duplicates, merges, consolidates) of one memory."""

from __future__ import annotations

import argparse

from memlab.adapter.cli_common import add_repo_arguments, command_spec, emit, open_repo
from memlab.core.errors import MemlabError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab edges``."""
    parser.add_argument("memory_id", help="memory id (m_...) or summary id")
    add_repo_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Print the edges touching the id, and its supersession chain."""
    from dataclasses import asdict

    from memlab.adapter.consolidation import load_store
    from memlab.adapter.spec import policy_id

    repo = open_repo(args)
    store = load_store(repo, policy_id(command_spec(args, repo, "edges"))).store
    node = args.memory_id
    if node not in store.memories and node not in store.summaries:
        raise MemlabError(f"no memory or summary '{node}'; list ids with `memlab tiers` or `memlab recall`")
    edges = store.edges_of(node)
    chain = store.chain(node) if node in store.memories else []
    data = {"id": node, "edges": [asdict(e) for e in edges], "chain": chain}
    lines = [f"{e.source} -{e.type.value}-> {e.target}  ({e.weight:.2f}) {e.reason}" for e in edges]
    if len(chain) > 1:
        lines.append("chain: " + " -> ".join(chain))
    emit(args, data, "\n".join(lines) or f"no edges for {node}")
    return 0
