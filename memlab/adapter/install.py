"""Install the exported hook into Claude Code settings (project, local, user) or as a plugin, and undo it.

Settings: our entries are hook commands containing :data:`MARKER` or :data:`LAUNCHER_MARKER`; everything else
is kept. Install saves in memlab's own state folder (:func:`state_dir`; never inside the project, where a
repository could plant a record or a link) the original bytes, the commands it wrote (per entry, not a hash of
the file, so a re-install after the user's edits still knows what is memlab's) and the spec its hooks run
(:mod:`memlab.adapter.installed_spec`). Uninstall removes memlab's entries and keeps all else the user wrote;
the original bytes come back only when nothing but memlab's entries changed.

The project scope's file is committed by a team, so its commands hold nothing of this machine: each runs a
per-user launcher (:func:`write_launcher`: this machine's interpreter, ``PYTHONPATH`` and spec) when there is
one, and does nothing for a user who never installed that spec.

Every write is atomic (a new file renamed into place, never through a symbolic link) and keeps the file's
permission bits; for the project and local scopes a link anywhere below the project (``.claude`` or the
settings file) is refused. The hook commands run Python with ``-P`` (the repository, which is the current
folder of a hook, is never put on ``sys.path``) and ``-S``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from memlab.adapter.safe_io import atomic_write, make_dirs, read_regular, refuse_links
from memlab.core.errors import MemlabError

MARKER = " -m memlab.cli hook "
#: What a project-scope command holds: the per-user launcher folder and name prefix (:func:`launcher_path`).
LAUNCHER_MARKER = "/memlab/hooks/memlab-hook-"
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
    prefix = f"{shlex.quote(python)} -P -m memlab.cli"
    if probe.returncode != 0 or Path(probe.stdout.strip()) != root:
        prefix = f"PYTHONPATH={shlex.quote(str(root))} {prefix}"
    return prefix


def pycache_dir() -> Path:
    """The bytecode folder of the hook commands: ``<state dir>/pycache`` (memlab's own, never a project's)."""
    return state_dir() / "pycache"


def fast_command() -> str:
    """``<python> -P -S -m memlab.cli``: the interpreter part of :func:`fast_prefix`."""
    return f"{shlex.quote(sys.executable)} -P -S -m memlab.cli"


def fast_prefix() -> str:
    """``PYTHONPATH=<root> PYTHONPYCACHEPREFIX=<pycache> <python> -P -S -m memlab.cli`` for the hook events.

    ``-P`` keeps the repository (the current folder) off ``sys.path``: no ``memlab/`` or ``json.py`` there is
    imported. ``-S`` skips site-packages (tens of milliseconds); the event hooks need only the standard
    library and memlab, which PYTHONPATH provides. ``PYTHONPYCACHEPREFIX`` is :func:`pycache_dir`, filled by
    :func:`precompile`, so the hook reads bytecode even under ``PYTHONDONTWRITEBYTECODE``. Consolidation in
    the background runs with the full environment (and ``-P``).
    """
    env = f"PYTHONPATH={shlex.quote(str(memlab_root()))} PYTHONPYCACHEPREFIX={shlex.quote(str(pycache_dir()))}"
    return f"{env} {fast_command()}"


#: Modules an event hook may import, compiled into :func:`pycache_dir` by :func:`precompile` together with
#: every standard-library module they import (memlab's own package is compiled whole).
HOOK_MODULES: tuple[str, ...] = (
    "memlab.cli",
    "memlab.commands.hook",
    "memlab.adapter.session",
    "memlab.adapter.spec",
    "memlab.adapter.state",
    "memlab.adapter.triggers",
    "memlab.adapter.notes_store",
    "memlab.adapter.notes_cache",
    "memlab.adapter.safe_io",
    "memlab.pipeline.inject",
    "memlab.wiring.build",
    "fcntl",
    "subprocess",
)

_PRECOMPILE = """
import compileall, importlib, sys
from memlab.wiring.strategy_index import TARGETS
ok = compileall.compile_dir(sys.argv[1], quiet=2, workers=1)
names = sys.argv[2:] + sorted({t.rpartition(".")[0] for t in TARGETS["selector"]})
for name in names:
    try:
        importlib.import_module(name)
    except Exception:
        pass
try:
    from memlab.adapter.yaml_import import load_yaml  # the first session's parser, from site-packages
    load_yaml().load("a: 1", Loader=getattr(load_yaml(), "CSafeLoader", None) or load_yaml().SafeLoader)
except Exception:
    pass
sys.exit(0 if ok else 1)
"""


def precompile(folder: Path | None = None) -> str:
    """Compile memlab's package and the standard-library modules the event hooks import into ``folder``.

    Runs the hook's interpreter as the hook does (``-P -S``, from ``/``, bytecode writing on): compiles the
    ``memlab`` package and imports :data:`HOOK_MODULES`, the allow-listed selectors and PyYAML (the first
    session's parser, :mod:`memlab.adapter.yaml_import`), writing the bytecode of every module they load.
    Nothing is run from a project; a stale ``.pyc`` is recompiled (Python checks it against its source).

    Args:
        folder: The bytecode folder (default :func:`pycache_dir`).

    Returns:
        One line saying what was done (a failure is reported, never raised: the hooks work without it).
    """
    folder = folder or pycache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        return f"hook bytecode not compiled: cannot create {folder}: {exc.strerror or exc}"
    root = memlab_root()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env.update(PYTHONPATH=str(root), PYTHONPYCACHEPREFIX=str(folder), PYTHONSAFEPATH="1")
    cmd = [sys.executable, "-P", "-S", "-c", _PRECOMPILE, str(root / "memlab"), *HOOK_MODULES]
    try:
        proc = subprocess.run(cmd, env=env, cwd="/", capture_output=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"hook bytecode not compiled: {exc}"
    if proc.returncode != 0:
        return f"hook bytecode partly compiled into {folder} (some modules failed to compile)"
    return f"compiled the hook's bytecode into {folder}"


def hook_command(prefix: str, event: str, spec: Path) -> str:
    """The shell command for one memlab hook event."""
    return f"{prefix} hook {event} --spec {shlex.quote(str(spec))}"


def launcher_path(spec_sha: str) -> Path:
    """This user's launcher of the hooks of the spec whose SHA-256 is ``spec_sha`` (project scope)."""
    return state_dir() / "hooks" / f"memlab-hook-{spec_sha[:16]}"


def portable_command(spec_sha: str, event: str) -> str:
    """A project-scope hook command: the same text on every machine; runs this user's launcher when there is one."""
    where = f'"${{XDG_STATE_HOME:-$HOME/.local/state}}{LAUNCHER_MARKER}{spec_sha[:16]}"'
    return f'f={where}; if [ -x "$f" ]; then exec "$f" {event}; fi'


def write_launcher(spec: Path, spec_sha: str) -> Path:
    """Write this user's launcher for ``spec`` (mode 755, in memlab's state folder); returns its path."""
    path = launcher_path(spec_sha)
    _state_folder(path.parent)
    run = hook_command(fast_prefix(), '"$1"', spec)
    text = f"#!/bin/sh\n# memlab hooks of {spec} (written by memlab install)\nexec env {run}\n"
    atomic_write(path, text.encode("utf-8"), mode=0o755)
    return path


def is_ours(hook: Any, also: frozenset[str] = frozenset()) -> bool:
    """Whether a hook entry was written by memlab (its command, or one of the commands ``also`` recorded)."""
    if not isinstance(hook, dict):
        return False
    command = str(hook.get("command", ""))
    return MARKER in command or LAUNCHER_MARKER in command or command in also


def strip_ours(settings: dict[str, Any], also: frozenset[str] = frozenset()) -> dict[str, Any]:
    """``settings`` without memlab's hook entries (:func:`is_ours`; empty groups and events dropped)."""
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
                inner = [h for h in group["hooks"] if not is_ours(h, also)]
                if not inner and any(is_ours(h, also) for h in group["hooks"]):
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


def merge(settings: dict[str, Any], spec: Path, prefix: str, commands: dict[str, str] | None = None) -> dict[str, Any]:
    """``settings`` with memlab's entries (replacing earlier memlab entries; others untouched).

    ``commands``: each event's command (default: :func:`hook_command` of ``prefix`` and ``spec``).
    """
    if not isinstance(settings.get("hooks", {}), dict):
        raise MemlabError('the settings\' "hooks" is not a JSON object; fix it before installing')
    result = strip_ours(settings)
    hooks = dict(result.get("hooks") or {})
    for event, (name, matcher, timeout) in EVENTS.items():
        group: dict[str, Any] = {}
        if matcher:
            group["matcher"] = matcher
        command = (commands or {}).get(name) or hook_command(prefix, name, spec)
        group["hooks"] = [{"type": "command", "command": command, "timeout": timeout}]
        hooks[event] = [*(hooks.get(event) or []), group]
    result["hooks"] = hooks
    return result


def _sha(data: bytes | None) -> str | None:
    return hashlib.sha256(data).hexdigest() if data is not None else None


def _parse(path: Path, raw: bytes | None) -> dict[str, Any]:
    if raw is None or not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise MemlabError(f"{path} is not valid JSON ({exc}); fix it before installing") from None
    if not isinstance(data, dict):
        raise MemlabError(f"{path} does not hold a JSON object; fix it before installing")
    return data


def state_dir() -> Path:
    """Memlab's per-user state folder (``$XDG_STATE_HOME/memlab``, else ``~/.local/state/memlab``)."""
    base = os.environ.get("XDG_STATE_HOME")
    return (Path(base) if base else Path.home() / ".local" / "state") / "memlab"


def _state_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise MemlabError(f"cannot create memlab's state folder {folder}: {exc.strerror or exc}") from None


def record_dir(settings: Path) -> Path:
    """Where the install record and backup of one settings file live (keyed by its absolute path)."""
    return state_dir() / "installs" / hashlib.sha256(str(settings).encode()).hexdigest()[:24]


def _target(scope: str, project: Path) -> tuple[Path, Path, bool]:
    """``(settings file, folder install may create below, whether links are refused)``.

    Project and local scopes refuse any link below the project (the repository controls those paths);
    the user scope follows the user's own links (dotfile managers link ``~/.claude/settings.json``).
    """
    path = settings_path(scope, project)
    if scope == "user":
        return (path.resolve() if path.is_symlink() else path), Path(os.path.expanduser("~")), False
    refuse_links(path, project)
    return path, project, True


def _read_record(folder: Path, path: Path) -> dict[str, Any] | None:
    raw = read_regular(folder / "record.json")
    if raw is None:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    return record if isinstance(record, dict) and record.get("settings") == str(path) else None


def _recorded(record: dict[str, Any] | None) -> frozenset[str]:
    """The commands an install record says memlab wrote."""
    entries = (record or {}).get("entries")
    return frozenset(e for e in entries if isinstance(e, str)) if isinstance(entries, list) else frozenset()


def install_settings(spec: Path, project: Path, scope: str) -> Path:
    """Merge memlab's hooks into the scope's settings file; returns its path. Idempotent.

    Raises:
        MemlabError: No spec, a spec inside the project, a link below the project, or an unreadable file.
    """
    spec = spec.expanduser().resolve()
    if not spec.is_file():
        raise MemlabError(f"no spec at {spec}; run `memlab export ... --out DIR` first")
    project = project.expanduser().resolve()
    if scope != "user" and spec.is_relative_to(project):
        raise MemlabError(
            f"the spec {spec} lies inside the project {project}; the hook never trusts files from the "
            "repository it serves: keep the spec outside it (e.g. memlab export --out ~/memlab-spec)"
        )
    path, root, strict = _target(scope, project)
    raw = read_regular(path)
    data = _parse(path, raw)
    folder = record_dir(path)
    record = _read_record(folder, path)
    created = [str(p) for p in make_dirs(path.parent, root, check_links=strict)]
    if record is None:
        record = {"settings": str(path), "existed": raw is not None, "original_sha": _sha(raw), "created_dirs": created}
        _state_folder(folder)
        if raw is not None:
            atomic_write(folder / "backup", raw, mode=stat.S_IMODE(os.lstat(path).st_mode))
    spec_sha = _sha(read_regular(spec)) or ""
    commands: dict[str, str] = {}
    if scope == "project":  # a committed file: nothing of this machine in it
        write_launcher(spec, spec_sha)
        commands = {name: portable_command(spec_sha, name) for name, _, _ in EVENTS.values()}
    merged = merge(strip_ours(data, _recorded(record)), spec, fast_prefix(), commands)
    atomic_write(path, (json.dumps(merged, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    ours = [h["command"] for groups in merged["hooks"].values() for g in groups for h in g["hooks"] if is_ours(h)]
    record["entries"] = sorted(_recorded(record) | set(ours))
    record["spec"], record["spec_sha256"] = str(spec), spec_sha  # what `memlab recall` runs
    atomic_write(folder / "record.json", (json.dumps(record, indent=2) + "\n").encode(), mode=0o600)
    return path


def _removable(folder: Path, path: Path, root: Path) -> bool:
    """A folder install created: an ancestor of the settings file, below ``root``, no link on the way."""
    try:
        folder = Path(os.path.abspath(folder))
        below = folder != root and folder.is_relative_to(root)
        return below and path.is_relative_to(folder) and not folder.is_symlink()
    except (TypeError, ValueError):
        return False


def uninstall_settings(project: Path, scope: str) -> str:
    """Reverse :func:`install_settings`; returns what was done.

    Only memlab's own record (in its state folder) is trusted; files named ``*.memlab-install.json`` or
    ``*.memlab-backup`` beside the settings file are never read. The original bytes come back only when the
    file then says what they say; the file (and folders install made) goes only when new and left empty.
    """
    project = project.expanduser().resolve()
    path, root, _ = _target(scope, project)
    folder = record_dir(path)
    record = _read_record(folder, path)
    raw = read_regular(path)
    backup = read_regular(folder / "backup") if record else None
    if raw is None:
        how = f"nothing to remove: {path} does not exist"
    else:
        data = strip_ours(_parse(path, raw), _recorded(record))
        if record and record.get("existed") and backup is not None and _sha(backup) == record.get("original_sha"):
            with contextlib.suppress(MemlabError):
                if _parse(path, backup) == data:
                    data = None
        if data is None:
            atomic_write(path, backup or b"", mode=stat.S_IMODE(os.lstat(path).st_mode))
            how = f"restored {path} byte for byte"
        elif record and not record.get("existed") and data == {}:
            path.unlink()
            how = f"removed {path} (it did not exist before)"
        else:
            atomic_write(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
            how = f"removed memlab hooks from {path} (everything else kept)"
    if record:
        for name in ("backup", "record.json"):
            (folder / name).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            folder.rmdir()
        made = [d for d in record.get("created_dirs") or [] if isinstance(d, str)]
        for created in sorted(made, key=len, reverse=True):
            if _removable(Path(created), path, root):
                with contextlib.suppress(OSError):
                    Path(created).rmdir()
    return how
