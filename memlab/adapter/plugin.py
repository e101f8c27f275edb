"""Write (and remove) a Claude Code plugin that runs the exported hook.

Layout: ``.claude-plugin/plugin.json``, ``hooks/hooks.json`` (commands through
``${CLAUDE_PLUGIN_ROOT}/bin/memlab``), ``bin/memlab`` (launcher with the absolute interpreter),
``memlab-hook.json`` (a copy of the spec, model paths made absolute), slash commands
``commands/{recall,consolidate,status}.md`` (front matter values written as quoted YAML strings, which
``claude plugin validate`` parses), and ``README.md``, ``LICENSE`` and ``icon.png``
(:mod:`memlab.adapter.plugin_docs`). Files are written atomically, never through links; uninstall removes
only the files the manifest names that memlab writes.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

from memlab.adapter.install import EVENTS, fast_command, launcher_prefix, memlab_root, pycache_dir
from memlab.adapter.plugin_docs import LICENSE, icon_png, readme
from memlab.adapter.safe_io import atomic_write, make_dirs, read_regular
from memlab.core.errors import MemlabError

MANIFEST = ".memlab-plugin.json"
#: Every file the plugin can hold (a manifest naming anything else is not trusted for it).
KNOWN_FILES = (
    ".claude-plugin/plugin.json",
    "hooks/hooks.json",
    "bin/memlab",
    "memlab-hook.json",
    "commands/recall.md",
    "commands/consolidate.md",
    "commands/status.md",
    "README.md",
    "LICENSE",
    "icon.png",
)
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


def _spec_copy(spec: Path) -> str:
    """The spec's text with model paths made absolute (resolved against the spec's own folder)."""
    from memlab.adapter.spec import load_spec, model_refs

    data = json.loads(spec.read_text(encoding="utf-8"))
    loaded = load_spec(spec)
    for group, node in (data.get("strategies") or {}).items():
        for (raw, key), (resolved, _) in zip(model_refs(node), model_refs(loaded["strategies"][group]), strict=True):
            raw[key] = resolved[key]
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


def _front_matter(fields: dict[str, str]) -> str:
    """YAML front matter with every value a double-quoted string (JSON strings are valid YAML)."""
    return "---\n" + "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in fields.items()) + "---\n"


def _files(spec: Path) -> dict[str, str | bytes]:
    prefix = launcher_prefix()
    pycache = f"PYTHONPYCACHEPREFIX={shlex.quote(str(pycache_dir()))}; export PYTHONPYCACHEPREFIX;"
    fast = f"{pycache} exec {fast_command()}"
    setup = f"PYTHONPATH={shlex.quote(str(memlab_root()))}\nexport PYTHONPATH\n"
    if prefix.startswith("PYTHONPATH="):
        prefix = prefix.split(" ", 1)[1]
    launcher = (
        "#!/bin/sh\n# memlab launcher written by `memlab install --plugin`; remove with `memlab uninstall --plugin`.\n"
        f"{setup}"
        'case "$1 $2" in\n'
        f'  "hook session-start"|"hook stop"|"hook session-end") {fast} "$@" ;;\n'
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
                "author": {"name": "memlab"},
                "license": "MIT",
                "keywords": ["memory", "git-notes", "session-start", "consolidation"],
            },
            indent=2,
        ),
        "hooks/hooks.json": json.dumps({"hooks": hooks}, indent=2),
        "bin/memlab": launcher,
        "memlab-hook.json": _spec_copy(spec),
    }
    for name, (description, hint, call) in COMMANDS.items():
        fields = {"description": description}
        if hint:
            fields["argument-hint"] = hint
        fields["allowed-tools"] = 'Bash("${CLAUDE_PLUGIN_ROOT}/bin/memlab":*)'
        files[f"commands/{name}.md"] = (
            _front_matter(fields)
            + "\n"
            + f'Run `"${{CLAUDE_PLUGIN_ROOT}}/bin/memlab" {call} --spec "${{CLAUDE_PLUGIN_ROOT}}/memlab-hook.json"`'
            " in the project directory and report its output as written.\n"
        )
    strategies = {
        group: str(node.get("_target_", "?"))
        for group, node in (json.loads(files["memlab-hook.json"]).get("strategies") or {}).items()
        if isinstance(node, dict)
    }
    files["README.md"] = readme(COMMANDS, strategies)
    files["LICENSE"] = LICENSE
    out: dict[str, str | bytes] = {k: v if v.endswith("\n") else v + "\n" for k, v in files.items()}
    out["icon.png"] = icon_png()
    return out


def _manifest(plugin_dir: Path) -> dict | None:
    """The plugin manifest, its file list limited to the files memlab writes (never a path outside)."""
    raw = read_regular(plugin_dir / MANIFEST)
    if raw is None:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        raise MemlabError(f"{plugin_dir / MANIFEST} is not valid JSON; remove the plugin folder by hand") from None
    known = set(KNOWN_FILES)
    files = record.get("files") if isinstance(record, dict) else None
    return {
        "files": [f for f in files if f in known] if isinstance(files, list) else [],
        "created_root": bool(record.get("created_root")) if isinstance(record, dict) else False,
    }


def install_plugin(spec: Path, plugin_dir: Path) -> list[Path]:
    """Write the plugin into ``plugin_dir``; refuses to overwrite files memlab did not write."""
    spec = spec.expanduser().resolve()
    if not spec.is_file():
        raise MemlabError(f"no spec at {spec}; run `memlab export ... --out DIR` first")
    plugin_dir = plugin_dir.expanduser().absolute()
    if plugin_dir.is_symlink():
        raise MemlabError(f"{plugin_dir} is a symbolic link; pick a real folder for --plugin")
    manifest = _manifest(plugin_dir)
    previous = set(manifest["files"]) if manifest else set()
    files = _files(spec)
    for rel in files:
        present = (plugin_dir / rel).exists() or (plugin_dir / rel).is_symlink()
        if present and rel not in previous:
            raise MemlabError(f"{plugin_dir / rel} exists and was not written by memlab; pick an empty --plugin DIR")
    created_root = not plugin_dir.exists()
    written = []
    for rel, text in files.items():
        path = plugin_dir / rel
        make_dirs(path.parent, plugin_dir)
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        atomic_write(path, data, mode=0o755 if rel.startswith("bin/") else None)
        written.append(path)
    root_flag = manifest["created_root"] if manifest else created_root
    record = {"files": sorted(files), "created_root": root_flag}
    atomic_write(plugin_dir / MANIFEST, (json.dumps(record, indent=2) + "\n").encode())
    return written


def uninstall_plugin(plugin_dir: Path) -> str:
    """Remove exactly the files :func:`install_plugin` wrote (and folders left empty)."""
    plugin_dir = plugin_dir.expanduser().absolute()
    record = _manifest(plugin_dir)
    if record is None:
        return f"no memlab plugin in {plugin_dir}"
    for rel in record["files"]:
        (plugin_dir / rel).unlink(missing_ok=True)
    (plugin_dir / MANIFEST).unlink()
    for folder in sorted({(plugin_dir / rel).parent for rel in record["files"]}, key=lambda p: -len(p.parts)):
        if folder != plugin_dir and folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
            folder.rmdir()
    if record["created_root"] and plugin_dir.is_dir() and not any(plugin_dir.iterdir()):
        shutil.rmtree(plugin_dir)
    return f"removed the memlab plugin from {plugin_dir}"
