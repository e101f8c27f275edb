"""Arguments and helpers shared by the repository commands (consolidate, recall, status, tiers, edges)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from memlab.adapter.gitcli import Repo, find_repo


def add_repo_arguments(parser: argparse.ArgumentParser) -> None:
    """``--project``, ``--spec`` and ``--json``."""
    parser.add_argument("--project", default=None, help="repository (default: current directory)")
    spec_default = "$MEMLAB_SPEC, else the spec `memlab install` installed here, else built-in defaults"
    parser.add_argument("--spec", default=None, help=f"memlab-hook.json (default: {spec_default})")
    parser.add_argument("--json", action="store_true", help="print JSON")


def open_repo(args: argparse.Namespace) -> Repo:
    """The repository the command works on."""
    return find_repo(args.project or os.getcwd())


def command_spec(args: argparse.Namespace, repo: Repo, command: str) -> dict[str, Any]:
    """The spec ``memlab <command>`` runs (:func:`~memlab.adapter.installed_spec.choose_spec`: ``--spec``, else
    ``$MEMLAB_SPEC``, else the installed spec, else the built-in default); unless ``--spec`` named it, one line
    on stderr says which.
    """
    from memlab.adapter.installed_spec import choose_spec

    spec, which = choose_spec(args.spec, repo)
    if which:
        print(f"memlab {command}: {which}", file=sys.stderr)
    return spec


_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
#: Control characters (C0 but newline and tab, DEL, C1) shown as ``\xNN``, bidirectional controls as ``\uNNNN``:
#: memory text never reaches a terminal as an escape sequence (ESC, OSC, CSI) nor reorders what it shows.
_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7F, 0xA0)] if c not in (0x09, 0x0A)}
_CONTROLS.update({c: f"\\u{c:04x}" for c in _BIDI})
#: What JSON output escapes beyond what :func:`json.dumps` does (it escapes C0 itself): DEL, C1, bidi controls.
_JSON_CONTROLS = {c: f"\\u{c:04x}" for c in [*range(0x7F, 0xA0), *_BIDI]}


def terminal_safe(text: str) -> str:
    r"""``text`` with every control character but newline and tab written visibly (``\xNN``, ``\uNNNN``)."""
    return text.translate(_CONTROLS)


def emit(args: argparse.Namespace, data: Any, text: str) -> None:
    """Print JSON with ``--json`` (every control character escaped), else the text (:func:`terminal_safe`)."""
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False, default=str).translate(_JSON_CONTROLS))
    else:
        print(terminal_safe(text))


def progress_bar(stream=None):
    """A ``progress(step, total, label)`` callback drawing a bar on ``stream`` (one line per step off a TTY)."""
    out = stream or sys.stderr
    tty = out.isatty()

    def show(step: int, total: int, label: str) -> None:
        width = 24
        done = round(width * step / total)
        line = f"[{'#' * done}{'-' * (width - done)}] {step}/{total} {label}"
        out.write(("\r" + line.ljust(72)) if tty else line + "\n")
        if tty and step == total:
            out.write("\n")
        out.flush()

    return show
