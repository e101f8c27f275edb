"""Gold relations derived from recorded ones: the transitive closure of ``(older, newer)`` SUPERSEDE pairs."""

from __future__ import annotations

from collections.abc import Iterable


def transitive_closure(pairs: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    """All ``(a, c)`` reachable through ``(a, b), (b, c), ...``; self-pairs from cycles are dropped."""
    succ: dict[str, set[str]] = {}
    for a, b in pairs:
        succ.setdefault(a, set()).add(b)
    out: set[tuple[str, str]] = set()
    for start in succ:
        stack, seen = list(succ[start]), set()
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            if node != start:
                out.add((start, node))
            stack.extend(succ.get(node, ()))
    return out
