"""Write (and remove) a Claude Code plugin that runs the exported hook.

Layout: ``.claude-plugin/plugin.json``, ``hooks/hooks.json`` (commands through
``${CLAUDE_PLUGIN_ROOT}/bin/memlab``), ``bin/memlab`` (launcher with the absolute interpreter),
``memlab-hook.json`` (a copy of the spec) and slash commands ``commands/{recall,consolidate,status}.md``.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

from memlab.adapter.install import EVENTS, fast_prefix, launcher_prefix, memlab_root
from memlab.errors import MemlabError

MANIFEST = ".memlab-plugin.json"
COMMANDS = {
    "recall": (
        "Search this repository's memories (git notes), current facts only unless --mode exhaustive",
        "QUERY [--mode reflexive|standard|deep|exhaustive] [--as-of DATE] [--reason]",
        "recall $ARGUMENTS",
    ),
    "consolidate": (
        "Consolidate this repository's memories now (tiers, duplicates, supersession, summaries)",
        "[--dry-run] [--full]",
        "consolidate $ARGUMENTS",
    ),
    "status": ("Show the memory tier distribution, counts and the last consolidation", "", "status"),
}


def _files(spec: Path) -> dict[str, str]:
    prefix = launcher_prefix()
    fast = fast_prefix().split(" ", 1)[1]
    setup = f"PYTHONPATH={shlex.quote(str(memlab_root()))}\nexport PYTHONPATH\n"
    if prefix.startswith("PYTHONPATH="):
        prefix = prefix.split(" ", 1)[1]
    launcher = (
        "#!/bin/sh\n# memlab launcher written by `memlab install --plugin`; remove with `memlab uninstall --plugin`.\n"
        f"{setup}"
        'case "$1 $2" in\n'
        f'  "hook session-start"|"hook stop"|"hook session-end") exec {fast} "$@" ;;\n'
        "esac\n"
        f'exec {prefix} "$@"\n'
    )
    hooks: dict[str, list] = {}
    for event, (name, matcher, timeout) in EVENTS.items():
        cmd = f'"${{CLAUDE_PLUGIN_ROOT}}/bin/memlab" hook {name} --spec "${{CLAUDE_PLUGIN_ROOT}}/memlab-hook.json"'
        group: dict = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": cmd, "timeout": timeout}]
        hooks[event] = [group]
    files = {
        ".claude-plugin/plugin.json": json.dumps(
            {
                "name": "memlab-memory",
                "version": "0.1.0",
                "description": "Consolidated git-notes project memory injected at session start (memlab)",
            },
            indent=2,
        ),
        "hooks/hooks.json": json.dumps({"hooks": hooks}, indent=2),
        "bin/memlab": launcher,
        "memlab-hook.json": spec.read_text(encoding="utf-8"),
    }
    for name, (description, hint, call) in COMMANDS.items():
        head = f"---\ndescription: {description}\n"
        if hint:
            head += f"argument-hint: {hint}\n"
        head += 'allowed-tools: Bash("${CLAUDE_PLUGIN_ROOT}/bin/memlab":*)\n---\n\n'
        files[f"commands/{name}.md"] = (
            head
            + f'Run `"${{CLAUDE_PLUGIN_ROOT}}/bin/memlab" {call} --spec "${{CLAUDE_PLUGIN_ROOT}}/memlab-hook.json"`'
            " in the project directory and report its output as written.\n"
        )
    return {k: v if v.endswith("\n") else v + "\n" for k, v in files.items()}


def install_plugin(spec: Path, plugin_dir: Path) -> list[Path]:
    """Write the plugin into ``plugin_dir``; refuses to overwrite files memlab did not write."""
    spec = spec.expanduser().resolve()
    if not spec.is_file():
        raise MemlabError(f"no spec at {spec}; run `memlab export ... --out DIR` first")
    plugin_dir = plugin_dir.expanduser().resolve()
    manifest = plugin_dir / MANIFEST
    previous = set(json.loads(manifest.read_text())["files"]) if manifest.exists() else set()
    files = _files(spec)
    for rel in files:
        if (plugin_dir / rel).exists() and rel not in previous:
            raise MemlabError(f"{plugin_dir / rel} exists and was not written by memlab; pick an empty --plugin DIR")
    created_root = not plugin_dir.exists()
    written = []
    for rel, text in files.items():
        path = plugin_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if rel.startswith("bin/"):
            path.chmod(0o755)
        written.append(path)
    old = json.loads(manifest.read_text()) if manifest.exists() else {"created_root": created_root}
    manifest.write_text(json.dumps({"files": sorted(files), "created_root": old["created_root"]}, indent=2) + "\n")
    return written


def uninstall_plugin(plugin_dir: Path) -> str:
    """Remove exactly the files :func:`install_plugin` wrote (and folders left empty)."""
    plugin_dir = plugin_dir.expanduser().resolve()
    manifest = plugin_dir / MANIFEST
    if not manifest.exists():
        return f"no memlab plugin in {plugin_dir}"
    record = json.loads(manifest.read_text())
    for rel in record["files"]:
        (plugin_dir / rel).unlink(missing_ok=True)
    manifest.unlink()
    for folder in sorted({(plugin_dir / rel).parent for rel in record["files"]}, key=lambda p: -len(p.parts)):
        if folder != plugin_dir and folder.exists() and not any(folder.iterdir()):
            folder.rmdir()
    if record.get("created_root") and plugin_dir.exists() and not any(plugin_dir.iterdir()):
        shutil.rmtree(plugin_dir)
    return f"removed the memlab plugin from {plugin_dir}"
