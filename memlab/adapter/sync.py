"""``memlab hook sync-config`` (refspecs, rewriteRef, merge strategies) and ``memlab hook sync`` (fetch,
merge and push every notes ref memlab reads or writes).

A plain ``git fetch`` with the refspecs of ``sync-config`` brings the remote's notes under
``refs/notes/remotes/<remote>/``; nothing reads them there. ``memlab hook sync`` fetches them (pruning that
namespace, so a ref the remote renamed never blocks a fetch), merges each into the local ref (by
compare-and-swap, under the writer locks) and pushes the result.

Everything a remote holds is a collaborator's push, so a merge never trusts its layout: a notes tree is read
per annotated object, only at the paths ``git notes`` itself reads (two-digit fan-out folders, the
repository's own id width), and the merged tree is written anew from those objects. Memory refs and derived
refs alike are merged as a union when the remote side lacks something the local side holds, and every ref
is moved only after every local memory (or record) was found readable in the result. A ref that cannot be
merged (the remote points it at a blob, or its name clashes with a local ref) is skipped and reported; the
others still sync and push.
"""

from __future__ import annotations

import os

from memlab.adapter import jsonl_refs
from memlab.adapter.gitcli import Repo, git_text, run_git
from memlab.adapter.jsonl_refs import DERIVED_REFS
from memlab.adapter.locking import writer_lock
from memlab.adapter.notes_format import split_note
from memlab.adapter.notes_store import MEM_PREFIX
from memlab.adapter.notes_write import (
    anchored_tree,
    batch,
    commit_tree,
    compare_and_swap,
    preserve,
    tip,
    write_blob,
)
from memlab.errors import MemlabError
from memlab.types import NAMESPACES

_HEX = frozenset("0123456789abcdef")


def _add(repo: Repo, key: str, value: str) -> bool:
    """Add a multi-valued config entry unless present; returns whether it was added."""
    current = git_text(repo.root, ["config", "--get-all", key], check=False).splitlines()
    if value in current:
        return False
    run_git(repo.root, ["config", "--add", key, value])
    return True


#: Notes refs memlab shares: the memory refs and its own derived refs (globs: a fetch or push of a glob
#: that matches nothing succeeds, where a missing exact ref fails the user's whole ``git fetch``).
SHARED_GLOBS = (MEM_PREFIX + "*", "refs/notes/mem-*")


def _remove(repo: Repo, key: str, value: str) -> bool:
    """Remove one exact value of a multi-valued config entry; returns whether it was there."""
    proc = run_git(repo.root, ["config", "--fixed-value", "--unset-all", key, value], check=False)
    return proc.returncode == 0


def sync_config(repo: Repo, remote: str = "origin") -> list[str]:
    """Configure refspecs, ``notes.rewriteRef`` and merge strategies; idempotent. Returns what changed.

    Memory refs of the standard namespaces (YAML memories appended in one note) merge with ``union``
    (concatenation keeps every memory whole); memlab's JSON Lines refs merge with ``cat_sort_uniq`` (line
    union, sorted, deduplicated — records are self-contained lines, so nothing breaks). Fetched notes land under
    ``refs/notes/remotes/<remote>/``; ``memlab hook sync`` merges them into the local refs.
    """
    changed: list[str] = []
    remotes = git_text(repo.root, ["remote"], check=False).split()
    if remote in remotes:
        for ref in DERIVED_REFS.values():  # exact refspecs of earlier versions break `git fetch` on a bare remote
            tracking = ref.replace("refs/notes/", f"refs/notes/remotes/{remote}/", 1)
            if _remove(repo, f"remote.{remote}.fetch", f"+{ref}:{tracking}"):
                changed.append(f"remote.{remote}.fetch -= +{ref}:{tracking}")
            if _remove(repo, f"remote.{remote}.push", f"{ref}:{ref}"):
                changed.append(f"remote.{remote}.push -= {ref}:{ref}")
        for ref in SHARED_GLOBS:
            tracking = ref.replace("refs/notes/", f"refs/notes/remotes/{remote}/", 1)
            if _add(repo, f"remote.{remote}.fetch", f"+{ref}:{tracking}"):
                changed.append(f"remote.{remote}.fetch += +{ref}:{tracking}")
            if _add(repo, f"remote.{remote}.push", f"{ref}:{ref}"):
                changed.append(f"remote.{remote}.push += {ref}:{ref}")
    else:
        changed.append(f"no remote '{remote}': push/fetch refspecs not set (rerun after `git remote add {remote} ...`)")
    for ref in [MEM_PREFIX + "*", *DERIVED_REFS.values()]:
        if _add(repo, "notes.rewriteRef", ref):
            changed.append(f"notes.rewriteRef += {ref}")
    for key in ("notes.rewrite.amend", "notes.rewrite.rebase"):
        run_git(repo.root, ["config", key, "true"])
    # a fixed set (the standard namespaces), never one section per ref found: 3,000 pushed namespace refs
    # would otherwise write 3,000 sections into .git/config and slow every git command; `memlab hook sync`
    # merges every memory ref by itself, whatever this says
    strategies = {f"mem/{ns}": "union" for ns in sorted(NAMESPACES)}
    strategies.update({ref[len("refs/notes/") :]: "cat_sort_uniq" for ref in DERIVED_REFS.values()})
    for name, strategy in strategies.items():
        key = f"notes.{name}.mergeStrategy"
        if git_text(repo.root, ["config", "--get", key], check=False).strip() != strategy:
            run_git(repo.root, ["config", key, strategy])
            changed.append(f"{key} = {strategy}")
    return changed or ["already configured"]


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
        if note and len(obj) == width and set(obj) <= _HEX and all(len(f) == 2 for f in folders):
            out[obj] = (path, parts[2])
    return out


def union_notes(local: str, remote: str) -> str:
    """A memory note holding every memory of both sides once (remote memories appended whole)."""
    seen = {chunk.strip() for chunk in split_note(local)}
    extra = [chunk.strip("\n") for chunk in split_note(remote) if chunk.strip() not in seen]
    return "\n\n".join([local.rstrip("\n"), *extra]).strip("\n") + "\n"


def union_lines(local: str, remote: str) -> str:
    """JSON Lines records of both sides, each line once, sorted (what ``cat_sort_uniq`` does)."""
    lines = {ln for ln in (local + "\n" + remote).splitlines() if ln.strip()}
    return "\n".join(sorted(lines)) + "\n"


def _texts(repo: Repo, blobs: list[str]) -> list[str]:
    return [found.data.decode("utf-8", "replace") if found else "" for found in batch(repo, blobs)]


def _record_ids(text: str) -> set[str]:
    """Ids of the JSON Lines records in ``text`` (read or not: a record this version refuses still counts)."""
    import json

    ids = set()
    for line in text.splitlines():
        try:
            record = json.loads(line) if line.strip() else None
        except (ValueError, RecursionError):
            continue
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            ids.add(record["id"])
    return ids


def lost(repo: Repo, ref: str, old: str, new: str) -> int:
    """How many memories (memory refs) or record ids (derived refs) of notes commit ``old`` cannot be read in
    ``new`` the way readers read it: a note gone from a note path, or a memory cut out of a note.
    """
    kind = next((k for k, r in DERIVED_REFS.items() if r == ref), None)
    if kind is not None:
        anchor = jsonl_refs.anchor(repo, kind)
        a, b = _texts(repo, [f"{old}:{anchor}", f"{new}:{anchor}"])
        return len(_record_ids(a) - _record_ids(b))
    ours, theirs = _notes(repo, old), _notes(repo, new)
    changed = [o for o in ours if theirs.get(o, ("", ""))[1] != ours[o][1]]
    texts = _texts(repo, [b for o in changed for b in (ours[o][1], theirs.get(o, ("", ""))[1] or ours[o][1])])
    count = 0
    for i, obj in enumerate(changed):
        mine = {chunk.strip() for chunk in split_note(texts[2 * i])}
        count += len(mine) if obj not in theirs else len(mine - {c.strip() for c in split_note(texts[2 * i + 1])})
    return count


def _memory_tree(repo: Repo, local: str, remote: str) -> str:
    """The tree of a memory ref holding, per annotated object of either side, both sides' memories once."""
    ours, theirs = _notes(repo, local), _notes(repo, remote)
    entries = {obj: path_blob for obj, path_blob in theirs.items() if obj not in ours}
    both = [o for o in theirs if o in ours and ours[o][1] != theirs[o][1]]
    texts = _texts(repo, [b for o in both for b in (ours[o][1], theirs[o][1])])
    for obj, (path, blob) in ours.items():
        entries[obj] = (path, blob)
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
    kind = next((k for k, r in DERIVED_REFS.items() if r == ref), None)
    message = f"memlab: merge {ref} from {remote[:12]}"
    if kind is None:
        return commit_tree(repo, _memory_tree(repo, local, remote), parents, message)
    anchor = jsonl_refs.anchor(repo, kind)
    merged = union_lines(*_texts(repo, [f"{local}:{anchor}", f"{remote}:{anchor}"]))
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


def _shared(ref: str) -> bool:
    return ref.startswith(MEM_PREFIX) or ref in DERIVED_REFS.values()


def _tips(repo: Repo, prefix: str) -> dict[str, tuple[str, str]]:
    """``ref -> (object, type)`` of every ref under ``prefix``, in one ``git for-each-ref``."""
    text = git_text(repo.root, ["for-each-ref", "--format=%(refname) %(objectname) %(objecttype)", prefix])
    rows = [line.split() for line in text.splitlines()]
    return {row[0]: (row[1], row[2] if len(row) > 2 else "missing") for row in rows if len(row) > 1}


def _clash(ref: str, names: set[str], folders: set[str]) -> bool:
    """Whether ``ref`` cannot exist beside the refs ``names`` (a ref named like a folder of others or inside one)."""
    parents = ref.split("/")
    return ref in folders or any("/".join(parents[:i]) in names for i in range(3, len(parents)))


def _push(repo: Repo, remote: str, refs: list[str]) -> tuple[list[str], bool]:
    """Push ``refs``; returns one line per ref the remote refused for good, and whether to fetch and retry."""
    proc = run_git(repo.root, ["push", "--porcelain", remote, *(f"{r}:{r}" for r in refs)], check=False)
    out = proc.stdout.decode("utf-8", "replace").splitlines()
    refused = [line.split("\t") for line in out if line.startswith("!\t")]
    retry = any("non-fast-forward" in r[-1] or "fetch first" in r[-1] for r in refused)
    lines = [f"{r[1].split(':')[0]}: not pushed: {r[-1]}" for r in refused if len(r) >= 3]
    if proc.returncode != 0 and not refused:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise MemlabError(f"git push to {remote} failed: {err.splitlines()[-1] if err else '?'}")
    return ([] if retry else lines), retry


def sync(repo: Repo, remote: str = "origin", push: bool = True, attempts: int = 3) -> list[str]:
    """Fetch every notes ref memlab reads or writes from ``remote``, merge each into the local ref, push.

    Memory notes merge by memory (every memory of both sides, once); memlab's JSON Lines notes by line.
    Sync never deletes: a remote ref that descends from the local one but lacks some of its memories or
    records (another clone ran ``git notes remove``, cut a note or rewrote a derived note) is merged as a
    union, not fast-forwarded. Refs whose tips already agree cost no git process. A push the remote rejects
    because it moved meanwhile is retried after another fetch and merge; a ref that cannot merge or that the
    remote refuses otherwise is reported, and the other refs are pushed.

    Raises:
        MemlabError: No such remote, or git failed.
    """
    if remote not in git_text(repo.root, ["remote"], check=False).split():
        raise MemlabError(f"no remote '{remote}' in {repo.root}; add one with `git remote add {remote} URL`")
    tracking = f"refs/notes/remotes/{remote}/"
    for _ in range(attempts):
        specs = [f"+{g}:{g.replace('refs/notes/', tracking, 1)}" for g in SHARED_GLOBS]
        run_git(repo.root, ["fetch", "--quiet", "--prune", remote, *specs], retries=4)
        fetched = {"refs/notes/" + r[len(tracking) :]: v for r, v in _tips(repo, tracking).items()}
        theirs = {r: v for r, v in fetched.items() if _shared(r)}
        local = {r: v for r, v in _tips(repo, "refs/notes/").items() if not r.startswith("refs/notes/remotes/")}
        folders = {r.rsplit("/", i)[0] for r in local for i in range(1, r.count("/") - 1)}
        lines: list[str] = []
        skipped: set[str] = set()
        with writer_lock(repo.memlab_dir, foreign=True):
            for ref, (obj, kind) in sorted(theirs.items()):
                if local.get(ref, ("",))[0] == obj:
                    continue
                if kind != "commit":
                    why = f"the remote side points at a {kind}, not a notes commit (repair it on {remote})"
                elif ref not in local and _clash(ref, set(local), folders):
                    why = "its name clashes with a local notes ref (one is a folder of the other)"
                else:
                    try:
                        lines.append(merge_ref(repo, ref, tracking + ref[len("refs/notes/") :]))
                        continue
                    except MemlabError as exc:
                        why = str(exc)
                skipped.add(ref)
                lines.append(f"{ref}: skipped: {why}")
        same = sum(1 for r, (obj, _) in theirs.items() if local.get(r, ("",))[0] == obj)
        lines += [f"{same} notes refs up to date"] if same else []
        if not push:
            return lines or ["nothing to fetch"]
        ours = {r: v for r, v in _tips(repo, "refs/notes/").items() if _shared(r) and v[1] == "commit"}
        pending = [r for r in sorted(ours) if r not in skipped and theirs.get(r, ("",))[0] != ours[r][0]]
        if not pending:
            return [*lines, "nothing to push"]
        refused, retry = _push(repo, remote, pending)
        if not retry:
            return [*lines, *refused, f"pushed {len(pending) - len(refused)} notes refs to {remote}"]
    raise MemlabError(f"{remote} kept moving during sync ({attempts} attempts); run `memlab hook sync` again")
