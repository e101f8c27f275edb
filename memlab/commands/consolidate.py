"""``memlab consolidate [--dry-run] [--full]``: consolidate a repository's git-notes memories."""

from __future__ import annotations

import argparse
import contextlib
import sys

from memlab.adapter.cli_common import add_repo_arguments, emit, open_repo


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab consolidate``."""
    add_repo_arguments(parser)
    parser.add_argument("--dry-run", action="store_true", help="run every phase, write nothing")
    parser.add_argument("--full", action="store_true", help="re-judge pairs judged in earlier runs")
    parser.add_argument("--if-needed", action="store_true", help="skip unless --min-new new memories exist")
    parser.add_argument("--min-new", type=int, default=0, help="with --if-needed: new memories required")
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
    from memlab.adapter.consolidation import consolidate_repo, load_store
    from memlab.adapter.spec import resolve_spec
    from memlab.adapter.state import CACHE_FILE, log_line, read_json
    from memlab.adapter.triggers import new_memory_count

    repo = open_repo(args)
    spec = resolve_spec(args.spec)
    if args.if_needed:
        loaded = load_store(repo)
        fresh = new_memory_count(loaded)
        cache = read_json(repo.memlab_dir / CACHE_FILE)
        from memlab.adapter.spec import config_hash

        same_spec = isinstance(cache, dict) and cache.get("spec_hash") == config_hash(spec.get("strategies"))
        if same_spec and fresh < max(1, args.min_new):
            log_line(repo.memlab_dir, f"consolidation skipped: {fresh} new memories (< {args.min_new})")
            return 0
    report = consolidate_repo(repo, spec, full=args.full, dry_run=args.dry_run)
    if args.background:
        log_line(
            repo.memlab_dir, f"consolidation {report['run_id']}: {report['memories']} memories, {report['seconds']} s"
        )
        return 0
    tiers = ", ".join(f"{k} {v}" for k, v in report["tier_counts"].items())
    text = (
        f"{'dry run: ' if args.dry_run else ''}consolidated {report['memories']} memories "
        f"({report['records']} records, {report['skipped']} skipped) in {report['seconds']} s\n"
        f"tiers: {tiers}\nsummaries {report['summaries']}, edges {report['edges']}, "
        f"new edges {report['edges_created'] or {}}"
    )
    for err in report["errors"][:10]:
        print(f"skipped: {err}", file=sys.stderr)
    emit(args, report, text)
    return 0
