"""``memlab hook sync-config`` (refspecs, rewriteRef, merge strategies) and ``memlab hook sync`` (fetch,
merge and push every notes ref memlab reads or writes).

A plain ``git fetch`` with the refspecs of ``sync-config`` brings the remote's notes under
``refs/notes/remotes/<remote>/``; nothing reads them there. ``memlab hook sync`` fetches them, merges each
into the local ref (by compare-and-swap, under the writer locks) and pushes the result.
"""

from __future__ import annotations

import os

from memlab.adapter import jsonl_refs
from memlab.adapter.gitcli import Repo, git_text, run_git
from memlab.adapter.jsonl_refs import DERIVED_REFS
from memlab.adapter.locking import writer_lock
from memlab.adapter.notes_format import split_note
from memlab.adapter.notes_store import MEM_PREFIX, ref_tips
from memlab.adapter.notes_write import anchored_tree, batch, commit_tree, compare_and_swap, preserve, tip, write_blob
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
    """``annotated object -> (path, blob)`` of a notes commit (fan-out paths joined)."""
    out: dict[str, tuple[str, str]] = {}
    for line in git_text(repo.root, ["ls-tree", "-r", commit]).splitlines():
        meta, _, path = line.partition("\t")
        parts = meta.split()
        obj = path.replace("/", "")
        if len(parts) == 3 and parts[1] == "blob" and len(obj) in (40, 64) and all(c in _HEX for c in obj):
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


def drops_memories(repo: Repo, local: str, remote: str) -> bool:
    """Whether the memory notes commit ``remote`` lacks a memory ``local`` holds (a note removed or cut)."""
    ours, theirs = _notes(repo, local), _notes(repo, remote)
    if any(obj not in theirs for obj in ours):
        return True
    changed = [o for o in ours if ours[o][1] != theirs[o][1]]
    found = batch(repo, [b for o in changed for b in (ours[o][1], theirs[o][1])])
    for i in range(len(changed)):
        a, b = (found[2 * i].data if found[2 * i] else b""), (found[2 * i + 1].data if found[2 * i + 1] else b"")
        have = {chunk.strip() for chunk in split_note(b.decode("utf-8", "replace"))}
        if any(chunk.strip() not in have for chunk in split_note(a.decode("utf-8", "replace"))):
            return True
    return False


def _merge_commit(repo: Repo, ref: str, local: str, remote: str, parents: list[str] | None = None) -> str:
    """A merge commit of two notes commits of ``ref`` (``parents``: default both) holding both sides."""
    kind = next((k for k, r in DERIVED_REFS.items() if r == ref), None)
    message = f"memlab: merge {ref} from {remote[:12]}"
    if kind is not None:
        anchor = jsonl_refs.anchor(repo, kind)
        texts = batch(repo, [f"{local}:{anchor}", f"{remote}:{anchor}"])
        merged = union_lines(*(t.data.decode("utf-8", "replace") if t else "" for t in texts))
        if batch(repo, [anchor], contents=False)[0] is None:
            write_blob(repo, jsonl_refs.anchor_text(kind))
        return commit_tree(
            repo, anchored_tree(repo, anchor, write_blob(repo, merged.encode())), parents or [local, remote], message
        )
    ours, theirs = _notes(repo, local), _notes(repo, remote)
    changes: list[tuple[str, str]] = []
    both = [o for o in theirs if o in ours and ours[o][1] != theirs[o][1]]
    found = batch(repo, [b for o in both for b in (ours[o][1], theirs[o][1])])
    for i, obj in enumerate(both):
        a, b = (found[2 * i].data if found[2 * i] else b""), (found[2 * i + 1].data if found[2 * i + 1] else b"")
        text = union_notes(a.decode("utf-8", "replace"), b.decode("utf-8", "replace"))
        changes.append((ours[obj][0], write_blob(repo, text.encode("utf-8"))))
    changes += [(path, blob) for obj, (path, blob) in theirs.items() if obj not in ours]
    index = repo.memlab_dir / f"index-merge-{os.getpid()}"
    env = {"GIT_INDEX_FILE": str(index)}
    try:
        run_git(repo.root, ["read-tree", local], env=env)
        info = "".join(f"100644 {blob}\t{path}\n" for path, blob in changes)
        run_git(repo.root, ["update-index", "--index-info"], input=info.encode(), env=env)
        tree = git_text(repo.root, ["write-tree"], env=env).strip()
    finally:
        index.unlink(missing_ok=True)
    return commit_tree(repo, tree, parents or [local, remote], message)


def merge_ref(repo: Repo, ref: str, remote_ref: str) -> str:
    """Bring ``remote_ref`` (fetched) into ``ref`` by compare-and-swap; returns what happened."""
    theirs, their_type = tip(repo, remote_ref)
    if theirs is None or their_type != "commit":
        return f"{remote_ref}: not a notes commit, skipped"
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
        if _is_ancestor(repo, old, theirs):
            if ref.startswith(MEM_PREFIX) and drops_memories(repo, old, theirs):
                # the remote removed memories this clone holds: sync only adds, so keep the union
                outcome = "merged (the remote side lacks local memories: kept)"
                return _merge_commit(repo, ref, old, theirs, parents=[theirs])
            outcome = "fast-forwarded"
            return theirs
        outcome = "merged"
        return _merge_commit(repo, ref, old, theirs)

    compare_and_swap(repo, ref, build)
    return f"{ref}: {outcome}"


def sync(repo: Repo, remote: str = "origin", push: bool = True, attempts: int = 3) -> list[str]:
    """Fetch every notes ref memlab reads or writes from ``remote``, merge each into the local ref, push.

    Memory notes merge by memory (every memory of both sides, once); memlab's JSON Lines notes by line.
    Sync never deletes a memory: a remote memory ref that descends from the local one but lacks some of its
    memories (another clone ran ``git notes remove`` or cut a note) is merged as a union, not fast-forwarded.
    A push the remote rejects (it moved meanwhile) is retried after another fetch and merge.

    Raises:
        MemlabError: No such remote, or git failed.
    """
    if remote not in git_text(repo.root, ["remote"], check=False).split():
        raise MemlabError(f"no remote '{remote}' in {repo.root}; add one with `git remote add {remote} URL`")
    tracking = f"refs/notes/remotes/{remote}/"
    lines: list[str] = []
    for _ in range(attempts):
        specs = [f"+{g}:{g.replace('refs/notes/', tracking, 1)}" for g in SHARED_GLOBS]
        run_git(repo.root, ["fetch", "--quiet", remote, *specs], retries=4)
        fetched = ref_tips(repo, tracking)
        lines = []
        with writer_lock(repo.memlab_dir, foreign=True):
            for remote_ref in sorted(fetched):
                local = "refs/notes/" + remote_ref[len(tracking) :]
                if local.startswith(MEM_PREFIX) or local in DERIVED_REFS.values():
                    lines.append(merge_ref(repo, local, remote_ref))
        if not push:
            return lines or ["nothing to fetch"]
        ours = sorted(
            r for r in ref_tips(repo, "refs/notes/") if r.startswith(MEM_PREFIX) or r in DERIVED_REFS.values()
        )
        if not ours:
            return lines or ["nothing to sync"]
        proc = run_git(repo.root, ["push", "--quiet", remote, *(f"{r}:{r}" for r in ours)], check=False)
        if proc.returncode == 0:
            return [*lines, f"pushed {len(ours)} notes refs to {remote}"]
        err = proc.stderr.decode("utf-8", "replace")
        if "rejected" not in err and "fetch first" not in err and "non-fast-forward" not in err:
            raise MemlabError(f"git push to {remote} failed: {err.strip().splitlines()[-1] if err.strip() else '?'}")
    raise MemlabError(f"{remote} kept moving during sync ({attempts} attempts); run `memlab hook sync` again")
