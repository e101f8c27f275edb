"""``memlab hook sync-config`` (refspecs, rewriteRef, merge strategies) and ``memlab hook sync`` (fetch,
merge and push every notes ref memlab reads or writes).

A plain ``git fetch`` with the refspecs of ``sync-config`` brings the remote's notes under
``refs/notes/remotes/<remote>/``, where nothing reads them. ``memlab hook sync`` fetches them (pruning that
namespace: a ref the remote renamed never blocks a fetch), merges each into the local ref
(:mod:`memlab.adapter.notes_merge`, under the writer locks) and pushes. A ref that cannot merge (a blob, a
name clashing with a local ref) is skipped and reported; the others still sync and push.
"""

from __future__ import annotations

from memlab.adapter.gitcli import Repo, git_text, run_git
from memlab.adapter.jsonl_refs import DERIVED_REFS
from memlab.adapter.locking import writer_lock
from memlab.adapter.notes_merge import merge_ref
from memlab.adapter.notes_store import MEM_PREFIX
from memlab.core.errors import MemlabError
from memlab.core.types import NAMESPACES


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
    if remote in remotes:  # exact refspecs of earlier versions break `git fetch` on a bare remote: removed
        for refs, edit, sign in ((DERIVED_REFS.values(), _remove, "-="), (SHARED_GLOBS, _add, "+=")):
            for ref in refs:
                tracking = ref.replace("refs/notes/", f"refs/notes/remotes/{remote}/", 1)
                for key, value in (
                    (f"remote.{remote}.fetch", f"+{ref}:{tracking}"),
                    (f"remote.{remote}.push", f"{ref}:{ref}"),
                ):
                    if edit(repo, key, value):
                        changed.append(f"{key} {sign} {value}")
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

    Memory notes merge by memory, memlab's JSON Lines notes by line. Sync never deletes: a remote ref lacking
    local memories or records (``git notes remove``, a cut note) is merged as a union, not fast-forwarded.
    Refs whose tips agree cost no git process. A push rejected because the remote moved is retried after
    another fetch and merge; a ref that cannot merge or is refused otherwise is reported, the others pushed.

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
