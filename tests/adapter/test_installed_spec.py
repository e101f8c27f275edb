"""``memlab recall`` without ``--spec`` runs the spec ``memlab install`` installed for the repository.

Real repositories, the real ``install``/``uninstall``/``recall`` commands. The specs differ from the built-in
default policy observably: a ``pipeline.recall_limit`` of 1 or 2 against the default 10, over a repository holding
three memories, so the number of hits says which policy ran.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
from pathlib import Path

import pytest

from memlab.adapter.export import spec_from_config
from memlab.adapter.install import record_dir
from tests.adapter.conftest import cli, env, main_in_process
from tests.support.compose import compose_cfg

DEFAULT = "memlab recall: built-in default policy (nothing installed for this repository; see memlab install)\n"


def write_spec(folder: Path, limit: int) -> Path:
    """An exported spec (TF-IDF embedder) returning at most ``limit`` hits, outside any project."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / "memlab-hook.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf", f"pipeline.recall_limit={limit}"]))))
    return spec


def install(project: Path, spec: Path, *scope: str) -> None:
    """``memlab install --no-consolidate`` of ``spec`` into ``project`` (``scope``: extra arguments)."""
    code, _, err = main_in_process(
        "install", "--spec", str(spec), "--project", str(project), "--no-consolidate", *scope
    )
    assert code == 0, err


def recall(project: Path, *args: str) -> tuple[int, list[str], str]:
    """``memlab recall API`` in ``project``: exit code, hit lines, stderr."""
    code, out, err = main_in_process("recall", "API", "--no-track", "--project", str(project), *args)
    return code, out.splitlines(), err


def record_file(project: Path, scope: str = "project") -> Path:
    name = "settings.local.json" if scope == "local" else "settings.json"
    return record_dir(project / ".claude" / name) / "record.json"


def test_recall_runs_the_installed_spec_until_uninstall(seeded, tmp_path):
    code, lines, err = recall(seeded)
    assert code == 0 and len(lines) == 3 and err == DEFAULT  # nothing installed
    spec = write_spec(tmp_path / "spec", limit=1)
    install(seeded, spec)
    record = json.loads(record_file(seeded).read_text())
    assert record["spec"] == str(spec.resolve())
    assert record["spec_sha256"] == hashlib.sha256(spec.read_bytes()).hexdigest()
    code, lines, err = recall(seeded)
    assert code == 0 and len(lines) == 1 and "API" in lines[0], lines
    assert err == f"memlab recall: policy {spec.resolve()} (installed, project scope)\n"

    other = write_spec(tmp_path / "other", limit=2)
    code, lines, err = recall(seeded, "--spec", str(other))
    assert code == 0 and len(lines) == 2 and err == ""  # --spec overrides the install

    assert main_in_process("uninstall", "--project", str(seeded))[0] == 0
    assert not record_file(seeded).exists() and not (seeded / ".claude").exists()
    code, lines, err = recall(seeded)
    assert code == 0 and len(lines) == 3 and err == DEFAULT


def test_the_local_scope_install_comes_before_the_project_one(seeded, tmp_path):
    install(seeded, write_spec(tmp_path / "project-spec", limit=1))
    local = write_spec(tmp_path / "local-spec", limit=2)
    install(seeded, local, "--scope", "local")
    code, lines, err = recall(seeded)
    assert (
        code == 0 and len(lines) == 2 and err == f"memlab recall: policy {local.resolve()} (installed, local scope)\n"
    )


def test_memlab_spec_comes_before_the_install(seeded, tmp_path, monkeypatch):
    install(seeded, write_spec(tmp_path / "spec", limit=1))
    chosen = write_spec(tmp_path / "env", limit=2)
    monkeypatch.setenv("MEMLAB_SPEC", str(chosen))
    code, lines, err = recall(seeded)
    assert code == 0 and len(lines) == 2 and err == f"memlab recall: policy {chosen.resolve()} ($MEMLAB_SPEC)\n"


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line of a failed command (exit code 2, nothing on stdout, no traceback)."""
    assert proc.returncode == 2 and proc.stdout == "", (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr
    return proc.stderr


@pytest.mark.parametrize("change", ["missing", "changed"])
def test_a_missing_or_changed_installed_spec_is_a_one_line_error(seeded, tmp_path, change):
    spec = write_spec(tmp_path / "spec", limit=1)
    install(seeded, spec)
    if change == "missing":
        spec.unlink()
    else:
        spec.write_text(spec.read_text().replace('"recall_limit": 1', '"recall_limit": 5'))
    err = one_line_error(cli("recall", "API", cwd=seeded))
    assert ("is missing" if change == "missing" else "changed since install") in err, err
    assert f"re-run `memlab install --spec {spec.resolve()} --project {seeded}" in err and "pass --spec" in err


#: Corrupt install records (a link, or bytes in place of the record install wrote) and what the error says.
CORRUPT: list[tuple[str, bytes | dict | None, str]] = [
    ("not JSON", b'{"settings": ', "cannot be read"),
    ("not an object", b"[]", "is not the record of"),
    ("another settings file", b'{"settings": "/elsewhere/.claude/settings.json"}', "is not the record of"),
    ("no spec", {"spec": None, "spec_sha256": None}, "names no spec"),
    ("relative spec", {"spec": "relative/memlab-hook.json"}, "no absolute spec path"),
    ("spec not a string", {"spec": ["/a"]}, "no absolute spec path"),
    ("short digest", {"spec_sha256": "0" * 63}, "no valid spec sha256"),
    ("link", None, "cannot be read"),
]


def test_a_corrupt_install_record_is_a_one_line_error(seeded, tmp_path):
    install(seeded, write_spec(tmp_path / "spec", limit=1))
    path = record_file(seeded)
    good = path.read_bytes()
    for name, content, says in CORRUPT:
        path.unlink()
        if content is None:  # a link to a harmless copy: never followed
            target = tmp_path / "elsewhere.json"
            target.write_bytes(good)
            path.symlink_to(target)
        elif isinstance(content, dict):
            record = {**json.loads(good), **content}
            path.write_text(json.dumps({k: v for k, v in record.items() if v is not None}))
        else:
            path.write_bytes(content)
        code, out, err = main_in_process("recall", "API", "--project", str(seeded))
        assert code == 2 and out == "" and len(err.splitlines()) == 1, (name, err)
        assert f"install record {path}" in err and says in err, (name, err)
        assert f"re-run `memlab install --spec SPEC --project {seeded}` or pass --spec" in err, (name, err)
    path.unlink()
    path.write_bytes(good)
    assert recall(seeded)[0] == 0  # the record install wrote is used again


def test_the_plugin_recall_runs_the_plugin_spec(seeded, tmp_path):
    """The plugin's ``/recall`` passes the plugin's own spec copy (never the default, nor a settings install)."""
    install(seeded, write_spec(tmp_path / "project-spec", limit=2))
    plugin = tmp_path / "plugin"
    code, _, err = main_in_process(
        "install", "--spec", str(write_spec(tmp_path / "spec", limit=1)), "--plugin", str(plugin)
    )
    assert code == 0, err
    text = (plugin / "commands" / "recall.md").read_text()
    command = text.split("Run `", 1)[1].split("`", 1)[0].replace("$ARGUMENTS", shlex.quote("API"))
    proc = subprocess.run(
        ["sh", "-c", command],
        cwd=seeded,
        env={**env(CLAUDE_PLUGIN_ROOT=str(plugin)), "PYTHONPATH": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert len(proc.stdout.splitlines()) == 1 and "API" in proc.stdout, proc.stdout
