"""``memlab report NAME [args]``: run ``memlab.reports.NAME.main(args)`` (reports read MLflow runs)."""

from __future__ import annotations

import argparse
import importlib
import pkgutil

import memlab.reports
from memlab.build import unknown_option_message
from memlab.errors import MemlabError


def available_reports() -> list[str]:
    """Report modules in :mod:`memlab.reports` (those with a ``main``)."""
    names = []
    for info in pkgutil.iter_modules(memlab.reports.__path__):
        if not info.name.startswith("_") and info.name != "common":
            names.append(info.name)
    return sorted(names)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab report``."""
    parser.add_argument("name", help="report to generate")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="arguments for the report (see its --help)")


def run(args: argparse.Namespace) -> int:
    """Dispatch to the report module."""
    names = available_reports()
    if args.name not in names:
        raise MemlabError(unknown_option_message("report", args.name, names))
    module = importlib.import_module(f"memlab.reports.{args.name}")
    return int(module.main(list(args.rest)) or 0)
