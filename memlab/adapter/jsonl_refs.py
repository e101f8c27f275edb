"""memlab's derived records as JSON Lines notes under ``refs/notes/mem-{meta,summaries,edges,runs}``.

Each ref holds one note, attached to a fixed anchor blob (the blob of a constant string, so every clone
computes the same anchor). The ref's tree also holds the anchor blob itself (entry ``memlab-anchor``), so
the anchor is reachable: ``git gc`` keeps it, ``git notes prune`` keeps the note, and a fetch brings it.
The note is JSON Lines: one self-contained record per line with ``id``, ``written_at`` and ``policy`` (the
:func:`~memlab.adapter.spec.policy_id` of the spec that wrote it; records of earlier versions have none). Git's
``cat_sort_uniq`` notes merge unions and sorts lines, which keeps every record intact; readers take the
newest record per id among one policy's records (``written_at``, then the line text), so line order never
matters, and a policy never reads another's records (another spec's derived state is not a hint for this one).

Writers hold ``.git/memlab/notes.lock``, read the note at the ref's tip, and move the ref by
compare-and-swap; every write is one atomic ref update, so a killed writer leaves the ref readable.
Compaction rewrites the note with the newest record per (policy, id), every policy's kept, keeps record lines
this version does not read (future-dated, or a newer memlab's) unchanged and drops lines that are not records.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from memlab.adapter.gitcli import Repo, git_text
from memlab.adapter.locking import writer_lock
from memlab.adapter.notes_write import anchored_tree, batch, commit_tree, compare_and_swap, preserve, write_blob
from memlab.adapter.notes_write import object_hash as _object_hash

#: kind -> notes ref.
DERIVED_REFS: dict[str, str] = {
    "meta": "refs/notes/mem-meta",
    "summaries": "refs/notes/mem-summaries",
    "edges": "refs/notes/mem-edges",
    "runs": "refs/notes/mem-runs",
}
#: Longest line kept (a longer one is not a record memlab wrote).
MAX_LINE = 1_000_000


def now_stamp() -> str:
    """Wall-clock write time with microseconds (UTC ISO-8601)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def anchor_text(kind: str) -> bytes:
    """The constant content of ``kind``'s anchor blob."""
    return f"memlab derived records: {DERIVED_REFS[kind]}\n".encode()


def anchor(repo: Repo, kind: str) -> str:
    """The object the ``kind`` note hangs on (the same id in every clone; computed without git)."""
    return _object_hash(repo, anchor_text(kind))


def encode(records: Iterable[Mapping[str, Any]], written_at: str | None = None) -> str:
    """JSON Lines text; every record gets ``written_at`` unless it has one."""
    stamp = written_at or now_stamp()
    lines = []
    for record in records:
        if "id" not in record:
            raise ValueError("a derived record needs an id")
        full = {**record, "written_at": record.get("written_at") or stamp}
        lines.append(json.dumps(full, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str))
    return "\n".join(lines)


def decode(
    text: str, kind: str | None = None, policy: str | None = None, unread: list[str] | None = None
) -> tuple[dict[str, dict[str, Any]], list[str], int]:
    """Newest record per id among ``policy``'s records (``None``: those naming no policy), one message per bad
    line, and the number of good lines (of every policy).

    A record is good when it parses (a guarded :func:`json.loads`), has a text ``id`` and a valid
    ``written_at`` (:func:`memlab.adapter.records.written_at`: an ISO time with a zone, not in the future),
    and — with ``kind`` — passes :func:`memlab.adapter.records.validate`. Bad records are skipped before
    the newest per id is chosen, so a forged or broken line never hides or pins a good one. ``meta`` records
    carry the activations of every record of their id, future-dated ones included (a clock never resets a
    count). ``unread`` receives each unread line shaped like a record (an object with a text id), for
    compaction to keep.
    """
    best, errors, good = newest(text, kind, unread)
    return {rid: rec for (owner, rid), rec in best.items() if owner == policy}, errors, good


def newest(
    text: str, kind: str | None = None, unread: list[str] | None = None
) -> tuple[dict[tuple[Any, str], dict[str, Any]], list[str], int]:
    """:func:`decode` for every policy at once: the newest record per ``(policy, id)``."""
    from memlab.adapter.records import FUTURE, merge_activation, validate, written_at

    best: dict[tuple[Any, str], tuple[tuple[datetime, str], dict[str, Any]]] = {}
    every: dict[tuple[Any, str], list[dict[str, Any]]] = {}
    errors: list[str] = []
    good = 0
    now = datetime.now(UTC)
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        record: Any = None
        try:
            if len(line) > MAX_LINE:
                raise ValueError(f"line longer than {MAX_LINE} characters")
            record = json.loads(line)
            if not isinstance(record, dict) or not isinstance(record.get("id"), str):
                raise ValueError("not an object with a string id")
            if not isinstance(record.get("policy", ""), str):
                raise ValueError("policy is not text")
            if kind is not None:
                validate(kind, record)
            stamp = written_at(record, now).astimezone(UTC)
        except (ValueError, RecursionError) as exc:
            rid = record.get("id") if isinstance(record, dict) and isinstance(record.get("id"), str) else None
            errors.append(f"line {n}{f' ({rid[:40]})' if rid else ''}: {str(exc)[:80]}")
            if rid is not None and unread is not None:
                unread.append(line)
            if rid is not None and kind == "meta" and str(exc) == FUTURE:
                every.setdefault((record.get("policy"), rid), []).append(record)
            continue
        good += 1
        key = (stamp, line)
        rid = (record.get("policy"), record["id"])
        if rid not in best or key > best[rid][0]:
            best[rid] = (key, record)
        if kind == "meta":
            every.setdefault(rid, []).append(record)
    out = {rid: rec for rid, (_, rec) in best.items()}
    for rid, found in every.items():
        if rid in out and len(found) > 1:
            out[rid] = merge_activation(out[rid], found)
    return out, errors, good


def read_texts(repo: Repo, kinds: Iterable[str]) -> dict[str, tuple[str, str | None]]:
    """``kind -> (note text, problem)`` for several kinds through one ``git cat-file`` process.

    ``problem`` says why a ref could not be read (it points at something other than a notes commit);
    a missing ref or note reads as ``''`` with no problem.
    """
    kinds = list(kinds)
    names: list[str] = []
    for kind in kinds:
        names += [DERIVED_REFS[kind], f"{DERIVED_REFS[kind]}:{anchor(repo, kind)}"]
    found = batch(repo, names)
    out: dict[str, tuple[str, str | None]] = {}
    for i, kind in enumerate(kinds):
        ref, note = found[2 * i], found[2 * i + 1]
        if ref is None:
            out[kind] = ("", None)
        elif ref.type != "commit":
            problem = f"{DERIVED_REFS[kind]} points at a {ref.type}, not a notes commit (replaced at the next write)"
            out[kind] = ("", problem)
        elif note is not None:
            out[kind] = (note.data.decode("utf-8", "replace"), None)
        else:  # a fanned-out or foreign layout: ask git notes
            ref_name = DERIVED_REFS[kind]
            text = git_text(repo.root, ["notes", f"--ref={ref_name}", "show", anchor(repo, kind)], check=False)
            out[kind] = (text, None)
    return out


def read_text(repo: Repo, kind: str) -> str:
    """The raw note text of ``kind`` ('' when the ref or note does not exist or cannot be read)."""
    return read_texts(repo, [kind])[kind][0]


def read_records(repo: Repo, kind: str, policy: str | None = None) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Newest record per id of ``kind`` and ``policy``, plus messages for skipped lines (and an unreadable ref)."""
    text, problem = read_texts(repo, [kind])[kind]
    records, errors, _ = decode(text, kind, policy)
    return records, [f"{DERIVED_REFS[kind]} {e}" for e in errors] + ([problem] if problem else [])


def rewrite(repo: Repo, kind: str, make: Callable[[str], str | None], message: str) -> bool:
    """Replace ``kind``'s note with ``make(current text)`` (``None``: leave it) by compare-and-swap.

    The caller holds the writer lock. A ref that points at something other than a commit is kept under
    ``refs/memlab/broken/`` and replaced by a fresh history.
    """
    ref = DERIVED_REFS[kind]
    target = anchor(repo, kind)

    def build(old: str | None, old_kind: str | None) -> str | None:
        parents = [old] if old is not None and old_kind == "commit" else []
        note, anchor_obj = batch(repo, [f"{old}:{target}" if parents else target, target])
        current = ""
        if parents:
            current = note.data.decode("utf-8", "replace") if note else read_text(repo, kind)
        new_text = make(current)
        if new_text is None:
            return None
        if old is not None and not parents:
            preserve(repo, ref, old)
        if anchor_obj is None:
            write_blob(repo, anchor_text(kind))
        blob = write_blob(repo, new_text.encode("utf-8"))
        return commit_tree(repo, anchored_tree(repo, target, blob), parents, message)

    return compare_and_swap(repo, ref, build)


def _appended(current: str, text: str) -> str:
    current = current.rstrip("\n")
    return (f"{current}\n{text}" if current else text) + "\n"


def append_records(repo: Repo, kind: str, records: Iterable[Mapping[str, Any]], policy: str | None = None) -> int:
    """Append records of ``policy`` to ``kind``'s note (one atomic ref update); returns how many were written."""
    records = [{**r, "policy": policy} if policy else r for r in records]
    if not records:
        return 0
    text = encode(records)
    with writer_lock(repo.memlab_dir):
        rewrite(repo, kind, lambda current: _appended(current, text), f"memlab: {len(records)} {kind} records")
    return len(records)


def update_records(
    repo: Repo, kind: str, make: Callable[[dict[str, dict[str, Any]]], list[dict[str, Any]]], policy: str | None = None
) -> int:
    """Append ``make(newest record per id of policy, read under the lock)``, as ``policy``'s records: a
    read-modify-write no writer can race.
    """
    written = 0
    with writer_lock(repo.memlab_dir):

        def step(current: str) -> str | None:
            nonlocal written
            records = [{**r, "policy": policy} if policy else r for r in make(decode(current, kind, policy)[0])]
            written = len(records)
            return _appended(current, encode(records)) if records else None

        rewrite(repo, kind, step, f"memlab: {kind} records")
    return written


def compact(repo: Repo, kind: str, drop: Callable[[dict[str, Any]], bool] | None = None) -> tuple[int, int]:
    """Rewrite ``kind``'s note with the newest record per (policy, id) and no record ``drop`` names; record lines
    not read (:func:`decode`'s ``unread``) are kept as they are, other bad lines dropped.

    Returns:
        (good lines before, records after).
    """
    counts = (0, 0)
    with writer_lock(repo.memlab_dir):

        def step(current: str) -> str | None:
            nonlocal counts
            unread: list[str] = []
            records, errors, good = newest(current, kind, unread)
            if drop is not None:
                records = {rid: rec for rid, rec in records.items() if not drop(rec)}
            counts = (good, len(records))
            if good == len(records) and len(errors) == len(unread):
                return None
            ordered = [records[k] for k in sorted(records, key=lambda k: (k[0] or "", k[1]))]
            lines = [encode(ordered)] if records else []
            return "\n".join([*lines, *sorted(set(unread))]) + "\n" if lines or unread else ""

        rewrite(repo, kind, step, f"memlab: compact {kind}")
    return counts
