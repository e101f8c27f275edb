"""Install the exported hook into Claude Code settings (project, local, user) or as a plugin, and undo it.

Settings: our entries are hook commands containing :data:`MARKER`; everything else in the file is kept.
The first install saves the original bytes beside the file (``<file>.memlab-backup``, or a note that the
file did not exist) and a record of what it wrote; uninstall restores the original byte for byte when the
file still holds exactly what install wrote, and otherwise removes only memlab's entries.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from memlab.errors import MemlabError

MARKER = " -m memlab.cli hook "
SCOPES = {"project": ".claude/settings.json", "local": ".claude/settings.local.json", "user": "settings.json"}
#: Claude Code event -> (memlab hook event, matcher or None, timeout seconds).
EVENTS: dict[str, tuple[str, str | None, int]] = {
    "SessionStart": ("session-start", "startup|resume|clear|compact|fork", 10),
    "Stop": ("stop", None, 10),
    "SessionEnd": ("session-end", None, 10),
}


def settings_path(scope: str, project: Path) -> Path:
    """The settings file of a scope (``user`` is ``~/.claude/settings.json``)."""
    if scope not in SCOPES:
        raise MemlabError(f"unknown scope '{scope}'; valid: {', '.join(SCOPES)}")
    if scope == "user":
        return Path(os.path.expanduser("~")) / ".claude" / SCOPES["user"]
    return project / SCOPES[scope]


def memlab_root() -> Path:
    """Folder holding the ``memlab`` package in use."""
    import memlab

    return Path(memlab.__file__).resolve().parent.parent


def launcher_prefix() -> str:
    """``[PYTHONPATH=<root>] <python> -m memlab.cli``, absolute, valid from any cwd.

    PYTHONPATH is added only when the interpreter alone would import a different memlab (a checkout run
    with PYTHONPATH rather than installed).
    """
    python = sys.executable
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = subprocess.run(
        [python, "-c", "import memlab, os; print(os.path.dirname(os.path.dirname(os.path.realpath(memlab.__file__))))"],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
        timeout=60,
    )
    root = memlab_root()
    prefix = f"{shlex.quote(python)} -m memlab.cli"
    if probe.returncode != 0 or Path(probe.stdout.strip()) != root:
        prefix = f"PYTHONPATH={shlex.quote(str(root))} {prefix}"
    return prefix


def fast_prefix() -> str:
    """``PYTHONPATH=<root> <python> -S -m memlab.cli`` for the hook events.

    ``-S`` skips site-packages processing (tens of milliseconds in a large environment); the event hooks
    need only the standard library and memlab itself, which PYTHONPATH provides. Consolidation started in
    the background runs with the full environment.
    """
    return f"PYTHONPATH={shlex.quote(str(memlab_root()))} {shlex.quote(sys.executable)} -S -m memlab.cli"


def hook_command(prefix: str, event: str, spec: Path) -> str:
    """The shell command for one memlab hook event."""
    return f"{prefix} hook {event} --spec {shlex.quote(str(spec))}"


def is_ours(hook: Any) -> bool:
    """Whether a hook entry was written by memlab."""
    return isinstance(hook, dict) and MARKER in str(hook.get("command", ""))


def strip_ours(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` without memlab's hook entries (empty groups and events dropped)."""
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return dict(settings)
    out_hooks: dict[str, Any] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            out_hooks[event] = groups
            continue
        kept = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                inner = [h for h in group["hooks"] if not is_ours(h)]
                if not inner and any(is_ours(h) for h in group["hooks"]):
                    continue
                group = {**group, "hooks": inner}
            kept.append(group)
        if kept or not groups:
            out_hooks[event] = kept
    result = dict(settings)
    if out_hooks or hooks == {}:
        result["hooks"] = out_hooks
    else:
        result.pop("hooks", None)
    return result


def merge(settings: dict[str, Any], spec: Path, prefix: str) -> dict[str, Any]:
    """``settings`` with memlab's entries (replacing earlier memlab entries; others untouched)."""
    result = strip_ours(settings)
    hooks = dict(result.get("hooks") or {})
    for event, (name, matcher, timeout) in EVENTS.items():
        group: dict[str, Any] = {}
        if matcher:
            group["matcher"] = matcher
        group["hooks"] = [{"type": "command", "command": hook_command(prefix, name, spec), "timeout": timeout}]
        hooks[event] = [*(hooks.get(event) or []), group]
    result["hooks"] = hooks
    return result


def _sha(data: bytes | None) -> str | None:
    return hashlib.sha256(data).hexdigest() if data is not None else None


def _load(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    if not path.exists():
        return None, {}
    raw = path.read_bytes()
    if not raw.strip():
        return raw, {}
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise MemlabError(f"{path} is not valid JSON ({exc}); fix it before installing") from None
    if not isinstance(data, dict):
        raise MemlabError(f"{path} does not hold a JSON object; fix it before installing")
    return raw, data


def _record_path(path: Path) -> Path:
    return path.with_name(path.name + ".memlab-install.json")


def install_settings(spec: Path, project: Path, scope: str) -> Path:
    """Merge memlab's hooks into the scope's settings file; returns its path. Idempotent."""
    spec = spec.expanduser().resolve()
    if not spec.is_file():
        raise MemlabError(f"no spec at {spec}; run `memlab export ... --out DIR` first")
    path = settings_path(scope, project.expanduser().resolve())
    raw, data = _load(path)
    record_path = _record_path(path)
    record = json.loads(record_path.read_text()) if record_path.exists() else None
    if record is None:
        created = []
        folder = path.parent
        while not folder.exists():
            created.append(str(folder))
            folder = folder.parent
        backup = path.with_name(path.name + ".memlab-backup")
        record = {"settings": str(path), "existed": raw is not None, "original_sha": _sha(raw), "created_dirs": created}
        path.parent.mkdir(parents=True, exist_ok=True)
        if raw is not None:
            backup.write_bytes(raw)
            record["backup"] = str(backup)
    new = json.dumps(merge(data, spec, fast_prefix()), indent=2, ensure_ascii=False) + "\n"
    path.write_text(new, encoding="utf-8")
    record["written_sha"] = _sha(new.encode("utf-8"))
    record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return path


def uninstall_settings(project: Path, scope: str) -> str:
    """Reverse :func:`install_settings`; returns what was done."""
    path = settings_path(scope, project.expanduser().resolve())
    record_path = _record_path(path)
    record = json.loads(record_path.read_text()) if record_path.exists() else None
    raw = path.read_bytes() if path.exists() else None
    if record and raw is not None and _sha(raw) == record.get("written_sha"):
        if record.get("existed"):
            path.write_bytes(Path(record["backup"]).read_bytes())
            how = f"restored {path} byte for byte"
        else:
            path.unlink()
            how = f"removed {path} (it did not exist before)"
    elif raw is not None:
        _, data = _load(path)
        path.write_text(json.dumps(strip_ours(data), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        how = f"removed memlab hooks from {path} (other changes kept)"
    else:
        how = f"nothing to remove: {path} does not exist"
    if record:
        if record.get("backup"):
            Path(record["backup"]).unlink(missing_ok=True)
        record_path.unlink(missing_ok=True)
        for folder in record.get("created_dirs", []):
            with contextlib.suppress(OSError):
                Path(folder).rmdir()
    return how
