"""Fixtures for the adapter's end-to-end tests: real temporary git repositories and the real CLI."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
NOW = "2025-12-28T09:00:00+00:00"


def git(repo: Path, *args: str, input: str | None = None) -> str:
    """Run git in ``repo`` and return stdout (fails the test on error)."""
    proc = subprocess.run(["git", *args], cwd=repo, input=input, capture_output=True, text=True, check=True)
    return proc.stdout


def make_repo(path: Path) -> Path:
    """A fresh repository with one commit."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    git(path, "config", "user.email", "t@example.com")
    git(path, "config", "user.name", "T")
    git(path, "commit", "-q", "--allow-empty", "-m", "init")
    return path


def env(**extra: str) -> dict[str, str]:
    """Environment for a memlab subprocess running this checkout."""
    base = {k: v for k, v in os.environ.items() if k not in ("MEMLAB_SPEC", "MEMLAB_NOW", "MEMLAB_TEST_KILL_AT")}
    base["PYTHONPATH"] = str(ROOT)
    base["MEMLAB_NOW"] = NOW
    base.update(extra)
    return base


def cli(*args: str, cwd: Path, stdin: str | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m memlab.cli <args>``."""
    return subprocess.run(
        [PY, "-m", "memlab.cli", *args], cwd=cwd, input=stdin, capture_output=True, text=True, env=env(**extra)
    )


def main_in_process(*args: str) -> tuple[int, str, str]:
    """``memlab <args>`` in this process (no interpreter start-up): exit code, stdout, stderr."""
    import contextlib
    import io

    from memlab.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = os.environ.get("MEMLAB_NOW")
    os.environ["MEMLAB_NOW"] = NOW
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        if saved is None:
            os.environ.pop("MEMLAB_NOW", None)
        else:
            os.environ["MEMLAB_NOW"] = saved
    return code, out.getvalue(), err.getvalue()


def policy_of(project: Path) -> str:
    """The policy id of the repository's last consolidation (its derived records carry it)."""
    return json.loads((project / ".git" / "memlab" / "last-consolidation.json").read_text())["policy"]


def upstream_memory(ns: str, ts: str, summary: str, body: str, tags: list[str] | None = None) -> str:
    """A memory exactly as git-notes-memory writes it (unquoted timestamp, block tags)."""
    lines = ["---", f"type: {ns}", f"timestamp: {ts}", f"summary: {summary}"]
    if tags:
        lines.append("tags:")
        lines += [f"- {t}" for t in tags]
    return "\n".join([*lines, "---", "", body, ""])


def add_note(repo: Path, ref: str, text: str, commit: str = "HEAD") -> None:
    """Append raw text to the note on ``commit`` under ``ref``."""
    git(repo, "notes", f"--ref={ref}", "append", "-F", "-", commit, input=text)


def session_payload(repo: Path, source: str = "startup", session_id: str = "s-1") -> str:
    """A SessionStart JSON like Claude Code sends."""
    return json.dumps(
        {
            "session_id": session_id,
            "transcript_path": "/home/u/.claude/projects/x/secret-transcript.jsonl",
            "cwd": str(repo),
            "hook_event_name": "SessionStart",
            "source": source,
        }
    )


class HookBytecode:
    """The session's hook bytecode folder, compiled into once per interpreter by :meth:`warm`.

    One folder serves both installs: the prefix mirrors each source's absolute path, so the checkout's and the
    virtualenv's copies of memlab sit apart and share the standard library's bytecode.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._done: set[str] = set()

    def warm(self, python: str, kind: str) -> Path:
        """Compile the hook's modules with ``python`` (``kind``: its install) unless done; the folder."""
        from tests.adapter.installed import install_env

        if python not in self._done:
            code = "import sys, pathlib, memlab.adapter.install as i; print(i.precompile(pathlib.Path(sys.argv[1])))"
            args = [python, "-c", code, str(self.folder)]
            subprocess.run(args, env=install_env(kind), check=True, capture_output=True, timeout=600)
            self._done.add(python)
        return self.folder


@pytest.fixture(scope="session")
def hook_bytecode(tmp_path_factory: pytest.TempPathFactory) -> HookBytecode:
    """Bytecode compiled once per session: ``memlab install`` finds it up to date instead of compiling ~1,000
    files (a second of CPU, and megabytes every later pytest run deletes)."""
    return HookBytecode(tmp_path_factory.mktemp("bytecode") / "pycache")


@pytest.fixture(autouse=True)
def _private_user_state(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, hook_bytecode: HookBytecode
) -> None:
    """Install records and git-notes-memory's lock folder go to temporary folders, never the real home.

    memlab's state folder holds a link ``pycache`` to :func:`hook_bytecode` (compiled for this interpreter): every
    ``memlab install`` would compile the hook's modules again. Tests of that compilation take
    :func:`cold_bytecode` (``test_commands.py`` also gives ``memlab install`` a state folder of its own).
    """
    from memlab.adapter.install import pycache_dir

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    monkeypatch.setenv("MEMORY_PLUGIN_DATA_DIR", str(tmp_path_factory.mktemp("gnm") / "absent"))
    pycache_dir().parent.mkdir(mode=0o700)
    pycache_dir().symlink_to(hook_bytecode.warm(sys.executable, "checkout"), target_is_directory=True)


@pytest.fixture
def cold_bytecode() -> None:
    """No bytecode in memlab's state folder: ``memlab install`` compiles the hook's modules from nothing."""
    from memlab.adapter.install import pycache_dir

    pycache_dir().unlink()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A fresh repository."""
    return make_repo(tmp_path / "repo")


def seed(repo: Path) -> Path:
    """Add a few upstream-format memories, one body holding `---` lines and a nested front-matter block."""
    add_note(
        repo,
        "refs/notes/mem/decisions",
        upstream_memory(
            "decisions",
            "2025-12-20T10:00:00+00:00",
            "Use Flask for the API",
            "We chose Flask because it is small.",
            ["web"],
        ),
    )
    add_note(
        repo,
        "refs/notes/mem/decisions",
        upstream_memory(
            "decisions",
            "2025-12-24T10:00:00+00:00",
            "Use FastAPI for the API",
            "## Why\n\n---\n\nAsync support.\n\n---\ndocument_type: retrospective\n---\n\nDone.",
        ),
    )
    add_note(
        repo,
        "refs/notes/mem/learnings",
        upstream_memory(
            "learnings", "2025-12-21T10:00:00+00:00", "pytest -x stops at the first failure", "Use it when bisecting."
        ),
    )
    return repo


@pytest.fixture
def seeded(repo: Path) -> Path:
    """A repository holding :func:`seed`'s memories."""
    return seed(repo)


@pytest.fixture(scope="session")
def consolidated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A seeded repository consolidated once per test session (copied by :func:`consolidated`)."""
    path = seed(make_repo(tmp_path_factory.mktemp("template") / "repo"))
    proc = cli("consolidate", cwd=path)
    assert proc.returncode == 0, proc.stderr
    return path


@pytest.fixture
def consolidated(consolidated_template: Path, tmp_path: Path) -> Path:
    """A private copy of the consolidated template repository."""
    import shutil

    target = tmp_path / "consolidated"
    shutil.copytree(consolidated_template, target, symlinks=True)
    return target


@pytest.fixture(scope="session")
def hook_venv(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The interpreter of a virtualenv with memlab installed in its site-packages (built once per session)."""
    from tests.adapter.installed import make_venv

    return make_venv(tmp_path_factory.mktemp("venv") / "env")


@pytest.fixture(params=["checkout", "venv"])
def installed(request: pytest.FixtureRequest, tmp_path: Path, hook_bytecode: HookBytecode) -> Any:
    """A fresh repository (one commit, no memory yet) with the hooks installed, no consolidation run."""
    from tests.adapter.installed import install, write_spec

    python = sys.executable if request.param == "checkout" else request.getfixturevalue("hook_venv")
    hook_bytecode.warm(python, request.param)
    project = make_repo(tmp_path / "project")
    spec_dir = tmp_path / "spec"
    spec_dir.mkdir()
    return install(project, write_spec(spec_dir), python, request.param)


@pytest.fixture
def installed_checkout(tmp_path: Path) -> Any:
    """:func:`installed` for the checkout install only (tests that need memlab's full environment)."""
    from tests.adapter.installed import install, write_spec

    project = make_repo(tmp_path / "project")
    spec_dir = tmp_path / "spec"
    spec_dir.mkdir()
    return install(project, write_spec(spec_dir), sys.executable, "checkout")


def _background_consolidations(under: Path) -> list[int]:
    """Pids of detached ``memlab.cli consolidate`` processes whose ``--project`` lies under ``under`` (Linux
    ``/proc``; none elsewhere)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            argv = entry.read_bytes().split(b"\0")
        except OSError:
            continue
        at = argv.index(b"--project") + 1 if b"--project" in argv else len(argv)
        if b"memlab.cli" not in argv or b"consolidate" not in argv or at >= len(argv):
            continue
        if Path(argv[at].decode(errors="replace")).is_relative_to(under):
            found.append(int(entry.parent.name))
    return found


@pytest.fixture(autouse=True)
def _end_background_consolidations(tmp_path: Path) -> Iterator[None]:
    """A consolidation the hook left running when its test ended is stopped.

    The hooks detach one on the first session and after sessions (``spawn_consolidation``); a test that checks
    it waits for it. Left running, each spent a second or more of CPU after its test, in the repository that
    test owned: measured on ``tests/adapter`` alone, 96 s of 216 s of CPU came from processes nothing waited
    for, slowing the tests that ran beside them.
    """
    yield
    import signal

    for pid in _background_consolidations(tmp_path.resolve()):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
