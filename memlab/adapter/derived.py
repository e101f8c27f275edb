"""This clone's own derived state: what its consolidations concluded, kept locally and trusted over any record.

Anyone who can push writes ``refs/notes/mem-meta``, so a record's tier, ``superseded_by``, ``valid_until``,
``duplicate_of`` and ``consolidated_into`` are hints that never hide a memory. Each consolidation writes what
the policy concluded to ``.git/memlab/derived.json`` (local, replaced atomically) and every reader takes those
fields from it alone (a memory it does not name is hot and current). The next run starts from the policy's
own verdicts (a supersession stays found once its pair is no longer a candidate), or from nothing after
``--full`` or another policy (:func:`~memlab.adapter.spec.policy_id`; a reader of another policy takes no state
from the file: policies never leak into each other); verdict edges are dropped first so each repeated verdict
sets the state again. A
supersession a record claims that the run did not conclude is logged. The file also keeps each memory's date
as first consolidated: an exact copy dated earlier, added later by anyone, would otherwise re-date it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from memlab.adapter.gitcli import Repo
from memlab.adapter.state import TIERS, log_line, read_json, write_json_atomic
from memlab.core.types import EdgeType, Tier
from memlab.pipeline.store import MemoryStore

OVERLAY_FILE = "derived.json"
FORMAT = 1
#: Edges the judge writes: dropped before a run, so that each verdict it repeats updates the states again.
VERDICT_EDGES = (EdgeType.SUPERSEDES, EdgeType.DUPLICATES, EdgeType.MERGES)
#: The state fields consolidation derives, and their values for a memory it did not name.
FIELDS = ("tier", "superseded_by", "valid_until", "duplicate_of", "consolidated_into")
DEFAULTS: dict[str, Any] = dict(zip(FIELDS, (Tier.HOT, None, None, None, None), strict=True))


def _text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _row(row: Any) -> dict[str, Any] | None:
    """A stored row as state fields (``None`` when it is not a row this module wrote)."""
    if not isinstance(row, list) or len(row) != 5 or row[0] not in TIERS or not all(_text(v) for v in row[1:]):
        return None
    try:
        until = datetime.fromisoformat(row[2]) if row[2] else None
    except ValueError:
        return None
    return dict(zip(FIELDS, (Tier(row[0]), row[1], until, row[3], row[4]), strict=True))


def apply(repo: Repo, store: MemoryStore, policy: str | None) -> dict[str, Any]:
    """Set every state's derived fields from this clone's last consolidation when it ran ``policy`` (defaults for
    memories it did not name, and for all under another policy) and keep each memory's date and namespace as it
    saw them; returns the overlay read (``{}``: none), with ``redated``: the memories an earlier-dated copy did not
    re-date (also in ``store.cache["derived"]``).
    """
    data = read_json(repo.memlab_dir / OVERLAY_FILE)
    data = data if isinstance(data, dict) and data.get("format") == FORMAT else {}
    ours = data.get("policy") == policy and isinstance(data.get("states"), dict)
    rows = data["states"] if ours else {}
    for mid, state in list(store.states.items()):
        fields = (_row(rows[mid]) if mid in rows else None) or DEFAULTS
        now = (state.tier, state.superseded_by, state.valid_until, state.duplicate_of, state.consolidated_into)
        if now != tuple(fields.values()):  # most states already hold these: replacing them all costs seconds
            store.states[mid] = replace(state, **fields)
    times = data.get("times") if isinstance(data.get("times"), dict) else {}
    data["redated"] = []
    for mid, memory in list(store.memories.items()):
        seen = times.get(mid)
        if isinstance(seen, list) and len(seen) == 2 and seen[0] != memory.timestamp.isoformat():
            try:
                when = datetime.fromisoformat(seen[0])
            except (TypeError, ValueError):
                continue
            if when.tzinfo is not None and when > memory.timestamp and isinstance(seen[1], str):
                store.memories[mid] = replace(memory, timestamp=when, namespace=seen[1])
                data["redated"].append(mid)
    store.cache["derived"] = data
    return data


def start(repo: Repo, store: MemoryStore, policy: str, *, full: bool) -> None:
    """Prepare a consolidation: the policy's own earlier states (none after ``full`` or under another policy),
    no verdict edges.
    """
    data = store.cache.get("derived") or apply(repo, store, policy)
    _log(repo, data["redated"], "memories have exact copies dated before this clone first saw them; dates kept")
    if full or data.get("policy") != policy:
        for mid, state in list(store.states.items()):
            store.states[mid] = replace(state, **DEFAULTS)
    for key in [k for k in store.edges if k[2] in VERDICT_EDGES]:
        del store.edges[key]


def consolidated(store: MemoryStore, policy: str) -> set[str]:
    """The memories this clone's last consolidation under ``policy`` read (none under another policy)."""
    data = store.cache.get("derived") or {}
    times = data.get("times") if data.get("policy") == policy else None
    return set(times) if isinstance(times, dict) else set()


def save(repo: Repo, store: MemoryStore, hints: dict[str, dict[str, Any]], policy: str, run_id: str) -> int:
    """Write what the run concluded; log the supersessions ``hints`` (the ``mem-meta`` records) claim that it did
    not conclude. Returns how many were ignored.
    """
    rows = {}
    for mid, s in store.states.items():
        row = [s.tier.value, s.superseded_by, s.valid_until.isoformat() if s.valid_until else None]
        if s.tier is not Tier.HOT or any(row[1:]) or s.duplicate_of or s.consolidated_into:
            rows[mid] = [*row, s.duplicate_of, s.consolidated_into]
    times = {mid: [m.timestamp.isoformat(), m.namespace] for mid, m in store.memories.items()}
    overlay = {"format": FORMAT, "policy": policy, "run_id": run_id, "states": rows, "times": times}
    write_json_atomic(repo.memlab_dir / OVERLAY_FILE, overlay)
    ignored = [
        f"{mid} by {str(h.get('superseded_by'))[:24]}"
        for mid, h in sorted(hints.items())
        if h.get("superseded_by") and mid in store.states and store.states[mid].superseded_by != h.get("superseded_by")
    ]
    _log(repo, ignored, "supersessions recorded in mem-meta were not concluded by this policy and are ignored")
    return len(ignored)


def _log(repo: Repo, items: list[str], what: str) -> None:
    if items:
        log_line(repo.memlab_dir, f"consolidation: {len(items)} {what}: {', '.join(items[:5])}")
