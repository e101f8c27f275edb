"""``memlab install --spec DIR/memlab-hook.json --project PATH [--scope project|local|user] [--plugin DIR]``.

After writing the hooks, install runs the project's first consolidation (with a progress bar on stderr),
so that the first session already gets its memories; ``--no-consolidate`` skips it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from memlab.core.errors import MemlabError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab install``."""
    parser.add_argument("--spec", required=True, help="memlab-hook.json written by `memlab export`")
    parser.add_argument("--project", default=None, help="project folder (default: current directory)")
    parser.add_argument("--scope", default="project", choices=("project", "local", "user"), help="settings file")
    parser.add_argument("--plugin", default=None, help="write a Claude Code plugin into this folder instead")
    parser.add_argument("--no-consolidate", action="store_true", help="do not run the first consolidation now")


def first_consolidation(spec: Path, project: Path) -> str:
    """Consolidate ``project`` with ``spec`` now; returns one line saying what happened."""
    from memlab.adapter.cli_common import progress_bar
    from memlab.adapter.consolidation import consolidate_repo
    from memlab.adapter.notes_store import ref_tips
    from memlab.adapter.repo import find_repo
    from memlab.adapter.spec import load_spec

    try:
        repo = find_repo(project)
    except MemlabError:
        return f"{project} is not a git repository: no consolidation"
    if not ref_tips(repo):
        return "no memories under refs/notes/mem/* yet: nothing to consolidate"
    try:
        report = consolidate_repo(repo, load_spec(spec), progress=progress_bar())
    except MemlabError as exc:  # the hooks are installed; the Stop hook retries in the background
        return f"first consolidation failed: {exc}"
    if "not_run" in report:
        return f"first consolidation not run: {report['not_run']}"
    return (
        f"consolidated {report['memories']} memories in {report['seconds']} s; "
        f"the first session gets {report['candidates']} candidates"
    )


def run(args: argparse.Namespace) -> int:
    """Install and print what was written."""
    spec = Path(args.spec)
    if not spec.is_file():
        raise MemlabError(f"no spec at {spec}; run `memlab export ... --out DIR` first")
    from memlab.adapter.install import precompile

    if args.plugin:
        from memlab.adapter.plugin import install_plugin

        for path in install_plugin(spec, Path(args.plugin)):
            print(f"wrote {path}")
        print(f"load it with: claude --plugin-dir {Path(args.plugin).resolve()}")
        print(precompile())
        if args.project and not args.no_consolidate:
            print(first_consolidation(spec, Path(args.project)))
        return 0
    from memlab.adapter.install import install_settings

    project = Path(args.project or ".")
    path = install_settings(spec, project, args.scope)
    print(f"installed memlab hooks (SessionStart, Stop, SessionEnd) into {path}")
    print(precompile())
    if not args.no_consolidate and (args.scope != "user" or args.project):
        print(first_consolidation(spec, project))
    return 0
