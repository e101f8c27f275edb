"""Merging a fetched notes ref into the local one (``memlab hook sync``): by annotated object, never by layout.

A remote holds a collaborator's push, so a notes tree is read per annotated object only at the paths ``git
notes`` reads (two-digit fan-out folders, the repository's id width) and the merged tree is written anew.
Memory and derived refs are merged as a union when the remote lacks what the local side holds, and a ref
moves only once every local memory (or record) was found readable in the result.
"""

from __future__ import annotations

import os
from typing import Any

from memlab.adapter import jsonl_refs
from memlab.adapter.gitcli import Repo, git_text, run_git
from memlab.adapter.jsonl_refs import DERIVED_REFS
from memlab.adapter.notes_format import split_note
from memlab.adapter.notes_store import HEX_DIGITS, MEM_PREFIX
from memlab.adapter.notes_write import anchored_tree, batch, commit_tree, compare_and_swap, preserve, tip, write_blob
from memlab.core.errors import MemlabError


def _is_ancestor(repo: Repo, a: str, b: str) -> bool:
    return run_git(repo.root, ["merge-base", "--is-ancestor", a, b], check=False).returncode == 0


def _notes(repo: Repo, commit: str) -> dict[str, tuple[str, str]]:
    """``annotated object -> (path, blob)`` of a notes commit, at the paths ``git notes`` reads: folders of two
    hex digits, the object's digits in all as many as the repository's ids have (a 64-digit path in a SHA-1
    repository, a folder named like a note, or a link is not a note and is ignored).
    """
    width = len(commit)
    out: dict[str, tuple[str, str]] = {}
    for line in git_text(repo.root, ["ls-tree", "-r", commit]).splitlines():
        meta, _, path = line.partition("\t")
        parts = meta.split()
        *folders, _name = path.split("/")
        obj = path.replace("/", "")
        note = len(parts) == 3 and parts[0].startswith("100") and parts[1] == "blob"
        if note and len(obj) == width and set(obj) <= HEX_DIGITS and all(len(f) == 2 for f in folders):
            out[obj] = (path, parts[2])
    return out


def _chunks(text: str) -> set[str]:
    return {chunk.strip() for chunk in split_note(text)}


def union_notes(local: str, remote: str) -> str:
    """A memory note holding every memory of both sides once (remote memories appended whole)."""
    seen = _chunks(local)
    extra = [chunk.strip("\n") for chunk in split_note(remote) if chunk.strip() not in seen]
    return "\n\n".join([local.rstrip("\n"), *extra]).strip("\n") + "\n"


def union_lines(local: str, remote: str) -> str:
    """JSON Lines records of both sides, each line once, sorted (what ``cat_sort_uniq`` does)."""
    lines = {ln for ln in (local + "\n" + remote).splitlines() if ln.strip()}
    return "\n".join(sorted(lines)) + "\n"


def _texts(repo: Repo, blobs: list[str]) -> list[str]:
    return [found.data.decode("utf-8", "replace") if found else "" for found in batch(repo, blobs)]


def _record_ids(text: str) -> set[tuple[Any, str]]:
    """``(policy, id)`` of the JSON Lines records in ``text`` (read or not: a record this version refuses still
    counts, under no policy when its policy is not text).
    """
    import json

    unread: list[str] = []
    keys = set(jsonl_refs.newest(text, None, unread)[0])
    for line in unread:
        record = json.loads(line)
        policy = record.get("policy")
        keys.add((policy if isinstance(policy, str) else None, record["id"]))
    return keys


def lost(repo: Repo, ref: str, old: str, new: str) -> int:
    """How many memories (memory refs) or record ids (derived refs) of notes commit ``old`` cannot be read in
    ``new`` the way readers read it: a note gone from a note path, or a memory cut out of a note.
    """
    if _kind(ref) is not None:
        a, b = _anchored(repo, ref, old, new)
        return len(_record_ids(a) - _record_ids(b))
    ours, theirs = _notes(repo, old), _notes(repo, new)
    changed = [o for o in ours if theirs.get(o, ("", ""))[1] != ours[o][1]]
    texts = _texts(repo, [b for o in changed for b in (ours[o][1], theirs.get(o, ours[o])[1])])
    kept = [_chunks(texts[2 * i + 1]) if o in theirs else set() for i, o in enumerate(changed)]
    return sum(len(_chunks(texts[2 * i]) - k) for i, k in enumerate(kept))


def _kind(ref: str) -> str | None:
    """The kind of a derived ref (``None``: a memory ref)."""
    return next((k for k, r in DERIVED_REFS.items() if r == ref), None)


def _anchored(repo: Repo, ref: str, *commits: str) -> list[str]:
    """The derived note of each notes commit of ``ref`` (on its anchor object)."""
    anchor = jsonl_refs.anchor(repo, _kind(ref) or "")
    return _texts(repo, [f"{c}:{anchor}" for c in commits])


def _memory_tree(repo: Repo, local: str, remote: str) -> str:
    """The tree of a memory ref holding, per annotated object of either side, both sides' memories once."""
    ours, theirs = _notes(repo, local), _notes(repo, remote)
    entries = {**theirs, **ours}  # an object on both sides: at our path
    both = [o for o in theirs if o in ours and ours[o][1] != theirs[o][1]]
    texts = _texts(repo, [b for o in both for b in (ours[o][1], theirs[o][1])])
    for i, obj in enumerate(both):
        merged = union_notes(texts[2 * i], texts[2 * i + 1])
        entries[obj] = (ours[obj][0], write_blob(repo, merged.encode("utf-8")))
    index = repo.memlab_dir / f"index-merge-{os.getpid()}-{os.urandom(4).hex()}"
    env = {"GIT_INDEX_FILE": str(index)}
    try:
        run_git(repo.root, ["read-tree", "--empty"], env=env)
        info = "".join(f"100644 {blob}\t{path}\n" for path, blob in entries.values())
        run_git(repo.root, ["update-index", "--index-info"], input=info.encode(), env=env)
        return git_text(repo.root, ["write-tree"], env=env).strip()
    finally:
        index.unlink(missing_ok=True)


def _merge_commit(repo: Repo, ref: str, local: str, remote: str, parents: list[str]) -> str:
    """A commit of ``ref`` holding both notes commits' notes (``parents``: its parents)."""
    kind = _kind(ref)
    message = f"memlab: merge {ref} from {remote[:12]}"
    if kind is None:
        return commit_tree(repo, _memory_tree(repo, local, remote), parents, message)
    anchor = jsonl_refs.anchor(repo, kind)
    merged = union_lines(*_anchored(repo, ref, local, remote))
    if batch(repo, [anchor], contents=False)[0] is None:
        write_blob(repo, jsonl_refs.anchor_text(kind))
    return commit_tree(repo, anchored_tree(repo, anchor, write_blob(repo, merged.encode())), parents, message)


def merge_ref(repo: Repo, ref: str, remote_ref: str) -> str:
    """Bring ``remote_ref`` (fetched) into ``ref`` by compare-and-swap; returns what happened.

    Raises:
        MemlabError: The merge would lose a local memory or record (the ref is left as it was), or git failed.
    """
    theirs, their_type = tip(repo, remote_ref)
    if theirs is None or their_type != "commit":
        return f"{ref}: skipped: the remote side is not a notes commit"
    outcome = "up to date"

    def build(old: str | None, kind: str | None) -> str | None:
        nonlocal outcome
        if old is None:
            outcome = "created"
            return theirs
        if kind != "commit":
            if ref.startswith(MEM_PREFIX):
                outcome = f"skipped: {ref} points at a {kind}"
                return None
            preserve(repo, ref, old)
            outcome = "replaced a broken ref"
            return theirs
        if old == theirs or _is_ancestor(repo, theirs, old):
            outcome = "up to date"
            return None
        if _is_ancestor(repo, old, theirs) and not lost(repo, ref, old, theirs):
            outcome = "fast-forwarded"
            return theirs
        if _is_ancestor(repo, old, theirs):  # the remote removed what this clone holds: sync only adds
            outcome = "merged (the remote side lacks local memories: kept)"
            new = _merge_commit(repo, ref, old, theirs, [theirs])
        else:
            outcome = "merged"
            new = _merge_commit(repo, ref, old, theirs, [old, theirs])
        missing = lost(repo, ref, old, new)
        if missing:
            raise MemlabError(f"merging would leave {missing} local memories unreadable; {ref} left as it was")
        return new

    compare_and_swap(repo, ref, build)
    return f"{ref}: {outcome}"
