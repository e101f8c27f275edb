"""Every command in README.md runs as printed, in order, on a fresh clone (slow).

The commands are read from the README's fenced ``bash`` blocks, so this test follows the README when it changes.
The clone is of this checkout's HEAD, with ``../shared`` beside it as CI has it; its ``.venv`` is a hard-linked
copy of this checkout's (``make setup`` in a clone took 3 min 55 s here from the local wheels, load 1.2), with the
paths that name the checkout rewritten, so the clone's code is what runs. A fresh HOME holds the exported spec.

What cannot run as printed is listed in ``PLACEHOLDERS`` (a path the reader supplies), ``BOUNDED`` (run in a form
that ends) and ``NOT_RUN`` (with the reason); a README command matching none of them runs verbatim, and a new one
that cannot run here fails this test until it is listed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.sweeps import procs
from tests.test_readme_figures import figure_blocks, unsourced

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
README = ROOT / "README.md"
#: README commands not run here, with the reason.
NOT_RUN = {
    "make test": "CI runs the default suite itself, as .ci/run's last step",
}
#: Commands run in a form that ends: (pattern, replacement, reason).
BOUNDED = [
    (r"\+search=project_history_dev$", "+search=project_history_dev hydra.sweeper.n_trials=2",
     "30 trials take 10-15 min; two show the search runs and stores its study"),
]  # fmt: skip
#: The README's injected block after the Redis capture (the plain block after the second hook command block).
INJECTED = ["[decisions, 2025-12-21] Moved the event bus from NATS to Redis Streams",
            "[learnings, 2025-12-11] The integration tests need Docker running"]  # fmt: skip


def readme_commands(text: str) -> list[str]:
    """The commands of every fenced bash block, in order: continuations joined, trailing comments dropped."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.split(r"\s{2,}#\s", line)[0].strip()
            if line:
                commands.append(re.sub(r"\s+", " ", line))
    return commands


def clone_with_venv(tmp: Path) -> Path:
    """A clone of HEAD at ``tmp/memlab`` with ``tmp/shared`` and a hard-linked copy of this checkout's venv."""
    clone = tmp / "memlab"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    (tmp / "shared").symlink_to(SHARED.resolve())
    venv = clone / ".venv"
    subprocess.run(["cp", "-al", str(ROOT / ".venv"), str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    texts = [p for p in (venv / "bin").iterdir() if p.is_file() and not p.is_symlink()]
    texts += [*site.glob("__editable__*memlab*"), *site.glob("memlab-*.dist-info/*")]
    for path in texts:
        try:
            body = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if str(ROOT) in body:  # a new file, not a write through the hard link into this checkout's venv
            path.unlink()
            path.write_text(body.replace(str(ROOT), str(clone)), encoding="utf-8")
            path.chmod(0o755 if path.parent.name == "bin" else 0o644)
    (venv / ".installed").unlink()
    (venv / ".installed").touch()  # newer than the clone's pyproject.toml: `make` sees the set-up done
    return clone


def repository(tmp: Path) -> Path:
    """The reader's repository: one commit, a remote to sync with."""
    repo, bare = tmp / "repo", tmp / "remote.git"
    for args in (["init", "-q", "--bare", str(bare)], ["init", "-q", str(repo)]):
        subprocess.run(["git", *args], check=True)
    for args in (["config", "user.email", "r@example.com"], ["config", "user.name", "R"],
                 ["commit", "-q", "--allow-empty", "-m", "init"], ["remote", "add", "origin", str(bare)]):  # fmt: skip
        subprocess.run(["git", *args], cwd=repo, check=True)
    return repo


def mlflow_ui(command: str, clone: Path, env: dict, log: Path) -> None:
    """The README's UI command on a free port, from the clone: its page answers, then the server is stopped."""
    port = procs.free_port()
    with log.open("wb") as out:
        server = subprocess.Popen(command.replace("--port 5000", f"--port {port}"), shell=True, cwd=clone, env=env,
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    try:
        procs.wait_for_http(f"http://127.0.0.1:{port}/", server, timeout=300)
    finally:
        procs.stop(server)


def session_block(repo: Path, env: dict) -> str:
    """What the installed SessionStart command injects, run as Claude Code runs it."""
    hooks = json.loads((repo / ".claude" / "settings.json").read_text())["hooks"]
    command = hooks["SessionStart"][0]["hooks"][0]["command"]
    event = {"session_id": "s", "cwd": str(repo), "hook_event_name": "SessionStart", "source": "startup"}
    proc = subprocess.run(["sh", "-c", command], input=json.dumps(event), cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    return json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.slow
def test_every_readme_command_runs_as_printed_on_a_fresh_clone(tmp_path):
    if not SHARED.is_dir() or not (ROOT / ".venv").is_dir():
        pytest.skip("needs ../shared beside the checkout and the checkout's .venv (make setup)")
    clone, repo, home = clone_with_venv(tmp_path), repository(tmp_path), tmp_path / "home"
    home.mkdir()
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith(("MEMLAB_", "MLFLOW_"))}
    env.update(HOME=str(home), PATH=f"/usr/local/bin:/usr/bin:/bin:{os.environ.get('PATH', '')}")
    places = {"/path/to/repo": shlex.quote(str(repo)), "/tmp/other.db": str(tmp_path / "other.db")}
    activated, ran, chosen = "", [], ""
    for command in readme_commands((clone / "README.md").read_text(encoding="utf-8")):
        if command in NOT_RUN:
            continue
        if command == ". .venv/bin/activate":
            activated = f"{command} && "
            continue
        for pattern, replacement, _reason in BOUNDED:
            command = re.sub(pattern, replacement, command)
        for placeholder, value in places.items():
            command = command.replace(placeholder, value)
        if " -m mlflow ui " in command:
            mlflow_ui(command, clone, env, tmp_path / "ui.log")
            ran.append(command)
            continue
        if command.startswith("memlab report NAME"):  # any report: with its runs missing it is refused
            command = command.replace("NAME", "adr")
        proc = subprocess.run(["bash", "-c", activated + command], cwd=clone, env=env, capture_output=True,
                              text=True, timeout=1800)  # fmt: skip
        ran.append(command)
        if command.startswith("memlab report adr"):
            assert proc.returncode == 2 and proc.stderr.count("\n") == 1, (command, proc.stderr[-2000:])
            assert "memlab: error: no FINISHED runs of experiment adr_decisions" in proc.stderr, proc.stderr
            continue
        assert proc.returncode == 0, f"{command}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
        if command.startswith(("make quickstart", "python -m memlab --multirun +experiment=seed_git_notes")):
            for sources, block in figure_blocks(README.read_text(encoding="utf-8")):  # its figures are what it prints
                if "quickstart" in sources:
                    assert not unsourced(block, sources, proc.stdout), (
                        unsourced(block, sources, proc.stdout),
                        proc.stdout,
                    )
        if command.startswith("memlab best --sweep last"):
            chosen = proc.stdout.split()[0]
        if command.startswith("memlab export --sweep last"):
            spec = json.loads((home / "memlab-spec" / "memlab-hook.json").read_text())
            assert chosen and spec["source"]["run_id"] == chosen, (chosen, spec["source"])
        if command.startswith("memlab install"):
            first = session_block(repo, env)
            assert "Switched from Kafka to NATS" in first and "Use Kafka" not in first, first
        if command.startswith("memlab recall"):  # current facts first, superseded ones after and marked
            hits = proc.stdout.splitlines()
            assert "NATS" in hits[0] and any("Use Kafka" in h and "[superseded by " in h for h in hits), hits
            assert "(installed, project scope)" in proc.stderr, proc.stderr  # the installed winner, not the default
        if command.startswith("memlab consolidate"):
            block = session_block(repo, env)
            assert all(line in block for line in INJECTED) and "to NATS" not in block, block
    assert not (repo / ".claude" / "settings.json").exists()  # the README ends by uninstalling
    bare = tmp_path / "remote.git"
    assert subprocess.run(["git", "for-each-ref", "refs/notes/"], cwd=bare, capture_output=True, text=True).stdout
    assert any(c.startswith("make quickstart") for c in ran) and any("hook capture" in c for c in ran)
    shutil.rmtree(clone / ".venv")  # the hard links, not the checkout's venv
