"""``memlab install --spec DIR/memlab-hook.json --project PATH [--scope project|local|user] [--plugin DIR]``."""

from __future__ import annotations

import argparse
from pathlib import Path

from memlab.errors import MemlabError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab install``."""
    parser.add_argument("--spec", required=True, help="memlab-hook.json written by `memlab export`")
    parser.add_argument("--project", default=".", help="project folder (default: current directory)")
    parser.add_argument("--scope", default="project", choices=("project", "local", "user"), help="settings file")
    parser.add_argument("--plugin", default=None, help="write a Claude Code plugin into this folder instead")


def run(args: argparse.Namespace) -> int:
    """Install and print what was written."""
    spec = Path(args.spec)
    if not spec.is_file():
        raise MemlabError(f"no spec at {spec}; run `memlab export ... --out DIR` first")
    if args.plugin:
        from memlab.adapter.plugin import install_plugin

        for path in install_plugin(spec, Path(args.plugin)):
            print(f"wrote {path}")
        print(f"load it with: claude --plugin-dir {Path(args.plugin).resolve()}")
        return 0
    from memlab.adapter.install import install_settings

    path = install_settings(spec, Path(args.project), args.scope)
    print(f"installed memlab hooks (SessionStart, Stop, SessionEnd) into {path}")
    return 0
