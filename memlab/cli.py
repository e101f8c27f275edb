"""The ``memlab`` console script: a thin dispatcher over :mod:`memlab.commands`.

Each subcommand lives in its own module ``memlab.commands.<module>`` exposing
``add_arguments(parser: argparse.ArgumentParser) -> None`` and ``run(args: argparse.Namespace) -> int``.
Modules are imported only when their command runs, so ``memlab hook session-start`` pays for nothing
else; the Claude Code event hooks (``memlab hook session-start|stop|session-end`` with ``--spec``,
``--project`` or ``--time-budget``) skip :mod:`argparse` too (:func:`memlab.commands.hook.fast_args`), and
any other form of them goes through the full parser. A :class:`~memlab.core.errors.MemlabError` becomes one line
on stderr and exit code 2.
"""

from __future__ import annotations

import os
import sys

from memlab.core.errors import MemlabError

#: command -> (module under memlab.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "list": ("catalog", "list the options of every conf group (or of one: `memlab list retention`)"),
    "validate": ("validate", "compose every experiment and check every option builds"),
    "report": ("report", "generate a report from MLflow runs (`memlab report locomo`)"),
    "best": ("best", "print the best FINISHED run of an experiment by a metric"),
    "export": ("export", "freeze a run's strategies into memlab-hook.json"),
    "install": ("install", "install the exported hook into Claude Code settings or a plugin"),
    "uninstall": ("uninstall", "remove the hook entries `memlab install` added"),
    "hook": ("hook", "hook entry points: session-start, stop, session-end, capture, sync-config, sync"),
    "recall": ("recall", "search a repository's git-notes memories"),
    "consolidate": ("consolidate", "consolidate a repository's git-notes memories"),
    "status": ("status", "tier distribution, last run and counts of a repository's memories"),
    "tiers": ("tiers", "memories per tier of a repository"),
    "edges": ("edges", "edges of one memory"),
    "bench": ("bench", "performance: `memlab bench episode|temporal|hook|all|report`"),
    "train": ("train", "fit a learned strategy and write its model file and card (`memlab train judge`)"),
    "eval": ("evaluate", "score one strategy alone (`memlab eval judge --judge learned --seeds 1020-1029`)"),
}


def _load(name: str):
    import importlib

    module, _ = COMMANDS[name]
    try:
        return importlib.import_module(f"memlab.commands.{module}")
    except ModuleNotFoundError as exc:
        if exc.name == f"memlab.commands.{module}":
            raise MemlabError(f"command '{name}' is not available in this installation") from None
        raise


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run one subcommand; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["hook"]:
        from memlab.commands import hook

        fast = hook.fast_args(argv[1:])
        if fast is not None:  # an event hook: no argparse, nothing else imported
            return hook.run(fast)
    if "--quiet" in argv or "-q" in argv:
        from memlab.observability.progress import set_quiet

        argv = set_quiet(argv)  # `memlab --quiet COMMAND`: no progress bars
    import argparse

    parser = argparse.ArgumentParser(prog="memlab", description="Measure memory-consolidation policies.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    if not argv or argv[0] in ("-h", "--help"):
        parser.print_help()
        return 0
    name = argv[0]
    if name not in COMMANDS:
        import difflib

        close = difflib.get_close_matches(name, list(COMMANDS), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        print(f"memlab: error: unknown command '{name}'{hint}; see `memlab --help`", file=sys.stderr)
        return 2
    try:
        module = _load(name)
        cmd_parser = argparse.ArgumentParser(prog=f"memlab {name}", description=COMMANDS[name][1])
        module.add_arguments(cmd_parser)
        args = cmd_parser.parse_args(argv[1:])
        return int(module.run(args) or 0)
    except BrokenPipeError:  # `memlab list | head`: the reader left; nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemlabError as exc:
        if os.environ.get("HYDRA_FULL_ERROR") == "1":
            raise
        print(f"memlab: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
