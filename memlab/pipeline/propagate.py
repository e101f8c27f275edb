"""Propagate supersession across restatements: a fact replaced once is replaced in every copy of it.

If the judge found that ``n`` supersedes ``o`` and ``o`` is in a group of memories linked by DUPLICATES or
MERGES edges (restatements of the same fact, or details added to it), then every member of that group
recorded before ``n`` stated the same, now replaced, fact: it is superseded by ``n`` too. The judge often
sees only one of the copies next to the change (k nearest neighbours), so without this step the other
copies stay "current" and leak into recall and the SessionStart block.
"""

from __future__ import annotations

from memlab.core.types import EdgeType, Relation, Verdict
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.verdicts import apply_verdict


def _groups(store: MemoryStore) -> dict[str, str]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for edge in sorted(store.edges.values(), key=lambda e: (e.source, e.target, e.type.value)):
        if edge.type in (EdgeType.DUPLICATES, EdgeType.MERGES):
            a, b = find(edge.source), find(edge.target)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {x: find(x) for x in list(parent)}


def propagate_supersession(store: MemoryStore, run_id: str) -> int:
    """Add SUPERSEDES edges from each superseder to the earlier members of its target's duplicate/merge
    group; returns the number of edges added (deterministic: edges are visited in sorted order).
    """
    root = _groups(store)
    members: dict[str, list[str]] = {}
    for mid, r in root.items():
        members.setdefault(r, []).append(mid)
    added = 0
    supersedes = sorted(
        (e for e in store.edges.values() if e.type is EdgeType.SUPERSEDES), key=lambda e: (e.source, e.target)
    )
    for edge in supersedes:
        newer = store.memories.get(edge.source)
        group = members.get(root.get(edge.target, ""), [])
        if newer is None:
            continue
        for mid in sorted(group):
            older = store.memories.get(mid)
            if older is None or mid in (edge.source, edge.target) or root.get(edge.source) == root.get(mid):
                continue
            if (older.timestamp, older.id) >= (newer.timestamp, newer.id):
                continue
            verdict = Verdict(Relation.SUPERSEDE, edge.weight, f"propagated: restates {edge.target}")
            if apply_verdict(store, older, newer, verdict, run_id):
                added += 1
    return added
