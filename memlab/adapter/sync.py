"""``memlab hook sync-config``: make notes refs travel with push/fetch and survive rebase/amend."""

from __future__ import annotations

from memlab.adapter.gitcli import Repo, git_text, run_git
from memlab.adapter.jsonl_refs import DERIVED_REFS
from memlab.adapter.notes_store import MEM_PREFIX, ref_tips
from memlab.types import NAMESPACES


def _add(repo: Repo, key: str, value: str) -> bool:
    """Add a multi-valued config entry unless present; returns whether it was added."""
    current = git_text(repo.root, ["config", "--get-all", key], check=False).splitlines()
    if value in current:
        return False
    run_git(repo.root, ["config", "--add", key, value])
    return True


def sync_config(repo: Repo, remote: str = "origin") -> list[str]:
    """Configure refspecs, ``notes.rewriteRef`` and merge strategies; idempotent. Returns what changed.

    Memory refs (YAML memories appended in one note) merge with ``union`` (concatenation keeps every memory
    whole); memlab's JSON Lines refs merge with ``cat_sort_uniq`` (line union, sorted, deduplicated —
    records are self-contained lines, so nothing breaks).
    """
    changed: list[str] = []
    refs = [MEM_PREFIX + "*", *DERIVED_REFS.values()]
    remotes = git_text(repo.root, ["remote"], check=False).split()
    if remote in remotes:
        for ref in refs:
            tracking = ref.replace("refs/notes/", f"refs/notes/remotes/{remote}/", 1)
            if _add(repo, f"remote.{remote}.fetch", f"+{ref}:{tracking}"):
                changed.append(f"remote.{remote}.fetch += +{ref}:{tracking}")
            if _add(repo, f"remote.{remote}.push", f"{ref}:{ref}"):
                changed.append(f"remote.{remote}.push += {ref}:{ref}")
    else:
        changed.append(f"no remote '{remote}': push/fetch refspecs not set (rerun after `git remote add {remote} ...`)")
    for ref in refs:
        if _add(repo, "notes.rewriteRef", ref):
            changed.append(f"notes.rewriteRef += {ref}")
    for key in ("notes.rewrite.amend", "notes.rewrite.rebase"):
        run_git(repo.root, ["config", key, "true"])
    namespaces = sorted(set(NAMESPACES) | {r[len(MEM_PREFIX) :] for r in ref_tips(repo)})
    strategies = {f"mem/{ns}": "union" for ns in namespaces}
    strategies.update({ref[len("refs/notes/") :]: "cat_sort_uniq" for ref in DERIVED_REFS.values()})
    for name, strategy in strategies.items():
        key = f"notes.{name}.mergeStrategy"
        if git_text(repo.root, ["config", "--get", key], check=False).strip() != strategy:
            run_git(repo.root, ["config", key, strategy])
            changed.append(f"{key} = {strategy}")
    return changed or ["already configured"]
