"""``memlab consolidate [--dry-run] [--full]``: consolidate a repository's git-notes memories."""

from __future__ import annotations

import argparse
import contextlib
import sys

from memlab.adapter.cli_common import add_repo_arguments, command_spec, emit, open_repo, progress_bar


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab consolidate``."""
    add_repo_arguments(parser)
    parser.add_argument("--dry-run", action="store_true", help="run every phase, write nothing")
    parser.add_argument("--full", action="store_true", help="re-judge pairs judged in earlier runs")
    parser.add_argument(
        "--if-needed",
        action="store_true",
        help="skip when another consolidation runs, or unless --min-new new memories exist (or the cache is "
        "missing, invalid or from another spec); decided under the consolidation lock",
    )
    more = "with --if-needed: new memories required (default 1); with --incremental: new memories from which"
    parser.add_argument("--min-new", type=int, default=None, help=f"{more} a full run is made instead")
    more = "only the memories new to the policy (the Stop hook's): wait for a running consolidation, judge their"
    parser.add_argument("--incremental", action="store_true", help=f"{more} pairs; a full run when the cache is stale")
    parser.add_argument("--background", action="store_true", help="log failures to .git/memlab/hook.log, exit 0")


def run(args: argparse.Namespace) -> int:
    """Consolidate and print a report."""
    try:
        return _run(args)
    except Exception as exc:
        if not args.background:
            raise
        from memlab.adapter.gitcli import find_repo
        from memlab.adapter.state import log_line

        with contextlib.suppress(Exception):
            log_line(find_repo(args.project or ".").memlab_dir, f"background consolidation failed: {exc}")
        return 0


def _run(args: argparse.Namespace) -> int:
    from memlab.adapter.consolidation import consolidate_repo
    from memlab.adapter.spec import resolve_spec
    from memlab.adapter.state import log_line
    from memlab.observability.progress import quiet

    repo = open_repo(args)
    # the hook's own child trusts no spec inside the repository; a person's command says which policy it runs
    spec = resolve_spec(args.spec, repo=repo) if args.background else command_spec(args, repo, "consolidate")
    shown = not (args.background or getattr(args, "json", False) or quiet())  # steps on a terminal only
    report = consolidate_repo(
        repo,
        spec,
        full=args.full,
        dry_run=args.dry_run,
        if_needed=args.if_needed,
        min_new=args.min_new if args.incremental else (args.min_new or 0),
        incremental=args.incremental,
        progress=progress_bar() if shown else None,
    )
    if "not_run" in report:
        log_line(repo.memlab_dir, f"consolidation skipped: {report['not_run']}")
        if not args.background:
            emit(args, report, f"consolidation skipped: {report['not_run']}")
        return 0
    if args.background:
        log_line(
            repo.memlab_dir,
            f"consolidation {report['run_id']}: {report['memories']} memories, {report['seconds']} s"
            + (f" (incremental: {report['new']} new)" if report["incremental"] else "")
            + (f" (degraded: {report['degraded']}, hook.max_memories)" if report.get("degraded") else ""),
        )
        return 0
    tiers = ", ".join(f"{k} {v}" for k, v in report["tier_counts"].items())
    text = (
        f"{'dry run: ' if args.dry_run else ''}consolidated {report['memories']} memories "
        f"({report['records']} records, {report['skipped']} skipped) in {report['seconds']} s\n"
        f"tiers: {tiers}\nsummaries {report['summaries']}, edges {report['edges']}, "
        f"new edges {report['edges_created'] or {}}"
    )
    if report.get("degraded"):
        text += f"\ndegraded: {report['degraded']} (the spec's hook.max_memories)"
    for err in report["errors"][:10]:
        print(f"skipped: {err}", file=sys.stderr)
    emit(args, report, text)
    return 0
