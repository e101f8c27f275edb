"""Freshness: what a session captured is in the next session's block.

The Stop hook starts an incremental consolidation of the memories new since the last one (``memlab consolidate
--incremental``). SessionStart sees memories the cache has not (:func:`moved`), starts it and waits within its budget;
when it is not done in time, the block shows the new memories first, marked ``not yet consolidated``, without what
they visibly replace (:func:`pending_block`): a shown item a new memory repeats, or whose value it names as the one it
changes — the slot judge's explicit rules (confidence >= 0.9) on the two summaries, the lines the block shows (on
development histories, seeds 1020-1022: 124 of 231 gold supersessions found, 84 on whole texts, 6 of 6,000 random
pairs). They need no model and no embedder, so they run in the budget whatever the policy's own judge costs.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

from memlab.adapter.repo import Repo
from memlab.adapter.state import CACHE_FILE, SEEN_FILE, read_json
from memlab.core.selection_types import InjectionCandidate, Tier

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

#: Confidence of a slot-judge verdict from which a new memory visibly replaces a shown one (its explicit rules:
#: identical text, a restated change, a change from the value the older one states).
VISIBLE = 0.9
#: New memories shown at most, newest first.
MAX_PENDING = 10
MARK = ", not yet consolidated"
#: Recency half-life (days) of a memory no consolidation has scored yet.
RAW_HALF_LIFE_DAYS = 30.0


def file_tips(repo: Repo) -> dict[str, str]:
    """``ref -> object`` of the memory refs read from ``packed-refs`` and the loose ref files (no git process)."""
    try:
        packed = (repo.git_dir / "packed-refs").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        packed = []
    tips = {
        name: sha for sha, _, name in (line.partition(" ") for line in packed) if name.startswith("refs/notes/mem/")
    }
    refs = repo.git_dir / "refs"
    for folder, _, files in os.walk(refs / "notes" / "mem"):
        for name in files:
            path = Path(folder, name)
            try:
                tips["refs/" + path.relative_to(refs).as_posix()] = path.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                tips.clear()  # unreadable: let git say
                return tips
    return tips


def moved(repo: Repo, cache: dict[str, Any], *, confirm: bool = True) -> dict[str, str] | None:
    """The memory refs' tips when they differ from those the cache was written from, else ``None``. Git is asked only
    when the ref files differ, and with ``confirm=False`` (the Stop hook: a false alarm costs one background run that
    finds nothing new; git and the notes reader cost it ~0.1 s) only when they name no memory ref (reftable).
    """
    tips = file_tips(repo)
    if tips == cache.get("tips"):
        return None
    if tips and not confirm:
        return tips
    from memlab.adapter.notes_store import ref_tips

    tips = ref_tips(repo)
    return None if tips == cache.get("tips") else tips


def raw_candidate(m: Any, now: datetime, limit: int, mark: str = "") -> InjectionCandidate:
    """A memory as a candidate before any consolidation, with ``mark`` after its date."""
    from memlab.pipeline.inject import memory_text

    age = max(0.0, (now - m.timestamp).total_seconds() / 86400)
    text = memory_text(m.namespace, m.timestamp, m.summary, m.content, limit).replace("] ", f"{mark}] ", 1)
    recency = math.exp(-age * math.log(2) / RAW_HALF_LIFE_DAYS)
    return InjectionCandidate(m.id, "memory", m.namespace, text, m.timestamp, 0.0, recency, 0.0, 1.0, Tier.HOT)


def memory_cap(spec: dict[str, Any]) -> int | None:
    """The spec's ``hook.max_memories`` (``None``: no cap): reading holds only the newest that many."""
    return int(spec["hook"].get("max_memories") or 0) or None


def admitted(spec: dict[str, Any], memories: list[Any], store: dict[str, Any] | None = None) -> list[Any]:
    """``memories`` the spec's admission lets into the block, as the cache holds them (``store``: the memories
    an admission that reads the store sees; default: ``memories``).
    """
    node = spec["strategies"].get("admission") or {}
    if str(node.get("_target_", "")).endswith(".NoAdmission") or not node.get("_target_"):
        return memories
    from memlab.wiring.build import build_node

    admission = build_node(node, "admission", where="spec")
    seen = ({m.id: m for m in memories} if store is None else store) if admission.reads_store else {}
    return [m for m, verdict in zip(memories, admission.admit_all(memories, seen), strict=True) if verdict.keep]


def wait_for_cache(repo: Repo, tips: dict[str, str], deadline: float) -> dict[str, Any] | None:
    """The candidate cache once a consolidation wrote it from ``tips`` (polled until ``deadline``), else ``None``."""
    while time.monotonic() < deadline:
        cache = read_json(repo.memlab_dir / CACHE_FILE)
        if isinstance(cache, dict) and cache.get("tips") == tips:
            return cache
        time.sleep(0.05)
    return None


def pending_block(
    repo: Repo,
    spec: dict[str, Any],
    pool: list[InjectionCandidate],
    selector: Any,
    now: datetime,
    claim: str,
) -> Any:
    """The block with the new memories first, marked, and the selection from ``pool`` after them, without what
    they visibly replace (each shown item is checked; one that goes is replaced by the next choice).
    """
    from dataclasses import replace

    from memlab.adapter.notes_store import load_memories
    from memlab.core.types import Relation
    from memlab.pipeline.inject import build_block
    from memlab.strategies.judge.slot import SlotJudge

    others = read_json(repo.memlab_dir / SEEN_FILE, [])  # a newer run's, after a race: its memories are not new
    known = {c.id for c in pool} | ({o for o in others if isinstance(o, str)} if isinstance(others, list) else set())
    memories = {m.id: m for m in load_memories(repo, cap=memory_cap(spec)).memories}
    new = sorted((m for m in memories.values() if m.id not in known and m.timestamp <= now), key=lambda m: m.timestamp)
    new = admitted(spec, new, memories)[-MAX_PENDING:][::-1]
    limit, max_chars = int(spec["hook"]["max_item_chars"]), int(spec["hook"]["max_chars"])
    marked = [raw_candidate(m, now, limit, MARK) for m in new]
    judge, drop = SlotJudge(), {m.id for m in new}

    def replaced(c: InjectionCandidate) -> bool:
        older = memories.get(c.id)
        later = [m for m in new if older and c.kind == "memory" and older.timestamp <= m.timestamp]
        verdicts = [judge.judge(replace(older, content=""), replace(m, content="")) for m in later]  # what is shown
        return any(v.relation in (Relation.SUPERSEDE, Relation.DUPLICATE) and v.confidence >= VISIBLE for v in verdicts)

    for _ in range(5):
        block = build_block([c for c in pool if c.id not in drop], budget_tokens(spec), selector, now, max_chars,
                            claim=claim, first=marked)  # fmt: skip
        gone = {c.id for c in block.items[len(marked) :] if replaced(c)}
        drop |= gone
        if not gone:
            break
    return block


def budget_tokens(spec: dict[str, Any]) -> int:
    """The spec's ``pipeline.budget_tokens`` (the default when it sets none or something that is not a number)."""
    from memlab.core.selection_types import DEFAULT_BUDGET_TOKENS

    try:
        return int((spec.get("pipeline") or {}).get("budget_tokens", DEFAULT_BUDGET_TOKENS))
    except (TypeError, ValueError):
        return DEFAULT_BUDGET_TOKENS
