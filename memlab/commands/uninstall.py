"""``memlab uninstall --project PATH [--scope ...] | --plugin DIR``: reverse ``memlab install``."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab uninstall``."""
    parser.add_argument("--project", default=".", help="project folder (default: current directory)")
    parser.add_argument("--scope", default="project", choices=("project", "local", "user"), help="settings file")
    parser.add_argument("--plugin", default=None, help="remove the plugin written into this folder")


def run(args: argparse.Namespace) -> int:
    """Uninstall and say what was done."""
    if args.plugin:
        from memlab.adapter.plugin import uninstall_plugin

        print(uninstall_plugin(Path(args.plugin)))
        return 0
    from memlab.adapter.install import uninstall_settings

    print(uninstall_settings(Path(args.project), args.scope))
    return 0
