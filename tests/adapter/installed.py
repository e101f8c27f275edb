"""The hook as Claude Code runs it (fixtures ``installed`` and ``installed_checkout``: ``conftest.py``).

``memlab install`` into a real repository, then every event through the exact command string read back
from ``.claude/settings.json`` (``sh -c``, the project as cwd, the event JSON on stdin, the user's
environment plus ``CLAUDE_PROJECT_DIR`` and nothing of this test process's Python set-up).

Two installs: ``checkout`` (this checkout run with ``PYTHONPATH``, as ``make setup`` leaves it) and ``venv``
(memlab and PyYAML copied into a fresh virtualenv's site-packages, as ``pip install`` leaves a pure-Python
package; installed by that virtualenv's interpreter, with no ``PYTHONPATH``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from memlab.adapter.export import spec_from_config
from tests.adapter.conftest import NOW, ROOT
from tests.support.compose import compose_cfg

EVENTS = {"SessionStart": "session-start", "Stop": "stop", "SessionEnd": "session-end"}
#: Variables of this test process that Claude Code would not pass on (the user's shell has none of them).
_DROP = ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH", "VIRTUAL_ENV", "MEMLAB_SPEC", "MEMLAB_HOOK_BUDGET")


def claude_env(project: Path, **extra: str) -> dict[str, str]:
    """The environment a hook command gets: the user's, ``CLAUDE_PROJECT_DIR``, the fixed test clock."""
    base = {k: v for k, v in os.environ.items() if k not in _DROP and not k.startswith("MEMLAB_TEST")}
    base.update({"CLAUDE_PROJECT_DIR": str(project), "MEMLAB_NOW": NOW, **extra})
    return base


def payload(project: Path, event: str, **fields: str) -> str:
    """An event JSON as Claude Code sends it."""
    data = {
        "session_id": fields.pop("session_id", "s-1"),
        "transcript_path": "/home/u/.claude/projects/x/transcript.jsonl",
        "cwd": str(project),
        "hook_event_name": event,
    }
    if event == "SessionStart":
        data["source"] = fields.pop("source", "startup")
    if event == "SessionEnd":
        data["reason"] = fields.pop("reason", "other")
    data.update(fields)
    return json.dumps(data)


@dataclass
class Installed:
    """A project with memlab's hooks installed; :meth:`run` runs one event exactly as Claude Code does."""

    project: Path
    python: str
    spec: Path
    kind: str

    @property
    def settings(self) -> Path:
        """The settings file install wrote."""
        return self.project / ".claude" / "settings.json"

    def command(self, event: str) -> str:
        """The command string of memlab's hook for ``event``, read back from the settings file."""
        groups = json.loads(self.settings.read_text())["hooks"][event]
        marks = (f" hook {EVENTS[event]} ", f'"$f" {EVENTS[event]};')  # this user's command, or a team's
        found = [h["command"] for g in groups for h in g["hooks"] if any(m in h["command"] for m in marks)]
        assert len(found) == 1, found
        return found[0]

    def prefix(self) -> str:
        """``<env> <python> -P -S -m memlab.cli`` as installed (in the project scope: read from the launcher)."""
        from memlab.adapter.install import LAUNCHER_MARKER, launcher_path

        stop = self.command("Stop")
        if LAUNCHER_MARKER in stop:
            launcher = launcher_path(stop.split(LAUNCHER_MARKER)[1][:16]).read_text()
            stop = launcher.splitlines()[-1].removeprefix("exec env ")
        return stop.split(" hook ")[0]

    def run(self, event: str, stdin: str | None = None, *, timeout: float = 60, **extra: str):
        """Run ``event``'s installed command: ``sh -c``, cwd = project, event JSON on stdin."""
        return subprocess.run(
            ["sh", "-c", self.command(event)],
            input=payload(self.project, event) if stdin is None else stdin,
            cwd=self.project,
            env=claude_env(self.project, **extra),
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def session_start(self, source: str = "startup", session_id: str = "s-1", **extra: str) -> dict:
        """The parsed SessionStart output (exit code 0 and an empty stderr checked)."""
        proc = self.run("SessionStart", payload(self.project, "SessionStart", source=source, session_id=session_id))
        assert proc.returncode == 0 and proc.stderr == "", (proc.returncode, proc.stderr)
        return json.loads(proc.stdout) if proc.stdout.strip() else {}

    def context(self, **kwargs: str) -> str:
        """The injected block ('' when nothing was injected)."""
        out = self.session_start(**kwargs)
        return out.get("hookSpecificOutput", {}).get("additionalContext", "")

    def memlab(self, *args: str, stdin: str | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
        """``memlab ARGS`` with the installed interpreter and ``memlab.cli`` (as a user's shell runs it)."""
        cmd = self.prefix().replace(" -S ", " ") + " " + " ".join(_quote(a) for a in args)
        return subprocess.run(
            ["sh", "-c", cmd],
            input=stdin,
            cwd=self.project,
            env=claude_env(self.project, **extra),
            capture_output=True,
            text=True,
            timeout=300,
        )

    def log(self) -> str:
        """``.git/memlab/hook.log`` ('' when missing)."""
        path = self.project / ".git" / "memlab" / "hook.log"
        return path.read_text() if path.exists() else ""


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


def write_spec(folder: Path) -> Path:
    """The conf defaults with the TF-IDF embedder as an exported spec (outside any project)."""
    spec = folder / "memlab-hook.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf"]))))
    return spec


def make_venv(folder: Path) -> str:
    """A virtualenv holding memlab and PyYAML in its site-packages, and memlab's other dependencies beside them
    (links to this environment's packages, as ``pip install`` would place them: the background consolidation
    needs numpy and the rest); its python. No ``.pth`` file and no editable install is carried over.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, capture_output=True)
    python = folder / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    import yaml

    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "memlab", Path(site) / "memlab", ignore=ignore)
    shutil.copytree(Path(yaml.__file__).parent, Path(site) / "yaml", ignore=ignore)
    for extra in Path(yaml.__file__).parent.parent.glob("_yaml*"):
        (shutil.copytree if extra.is_dir() else shutil.copy2)(extra, Path(site) / extra.name)
    here = Path(yaml.__file__).parent.parent
    for entry in here.iterdir():
        target = Path(site) / entry.name
        skip = entry.suffix == ".pth" or entry.name.startswith(("memlab", "__editable__", "_yaml", "yaml"))
        if not skip and not target.exists():
            target.symlink_to(entry)
    return str(python)


def install_env(kind: str) -> dict[str, str]:
    """This process's environment without its Python set-up (``checkout``: this checkout on ``PYTHONPATH``)."""
    env = {k: v for k, v in os.environ.items() if k not in _DROP}
    if kind == "checkout":
        env["PYTHONPATH"] = str(ROOT)
    return env


def install(project: Path, spec: Path, python: str, kind: str, *, consolidate: bool = False) -> Installed:
    """``memlab install --scope project`` with ``python`` (``checkout``: this checkout on ``PYTHONPATH``)."""
    args = [python, "-m", "memlab.cli", "install", "--spec", str(spec), "--project", str(project)]
    proc = subprocess.run(
        [*args, *([] if consolidate else ["--no-consolidate"])],
        cwd=spec.parent,
        env={**install_env(kind), "MEMLAB_NOW": NOW},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return Installed(project, python, spec, kind)
