"""export → install → the exact installed command lines with SessionStart JSON → uninstall byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from memlab.adapter.export import spec_from_config
from tests.adapter.conftest import NOW, ROOT, cli, env, session_payload
from tests.support.compose import compose_cfg

SOURCES = ("startup", "resume", "clear", "compact", "fork")
ORIGINAL = '{\n    "model": "opus",\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo keep"}]}]}\n}'


def run_shell(command: str, stdin: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """Run a hook command line the way Claude Code does (a shell), from an unrelated cwd."""
    e = env(**extra)
    e.pop("PYTHONPATH")  # the command line must carry everything it needs
    return subprocess.run(["bash", "-c", command], input=stdin, capture_output=True, text=True, cwd=cwd, env=e)


def check_installed(settings: Path, project: Path, elsewhere: Path) -> None:
    data = json.loads(settings.read_text())
    assert data["model"] == "opus"
    assert data["hooks"]["Stop"][0]["hooks"][0]["command"] == "echo keep"
    start = [h for g in data["hooks"]["SessionStart"] for h in g["hooks"]]
    words = start[0]["command"].split()
    assert len(start) == 1 and words[words.index("-m") - 2 : words.index("-m")] == ["-P", "-S"]
    assert os.path.isabs(words[words.index("-P") - 1]) and os.path.isabs(words[-1])
    contexts = {}
    for source in SOURCES:
        proc = run_shell(start[0]["command"], session_payload(project, source, f"sess-{source}"), elsewhere)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        out = json.loads(proc.stdout)
        contexts[source] = out.get("hookSpecificOutput", {}).get("additionalContext")
        assert out["systemMessage"].startswith("memlab:")
    block = contexts["startup"]
    assert block and block.startswith("<memory_consolidated_summaries") and len(block) < 10_000
    assert f'generated_at="{NOW[:10]}"' in block  # the clock the command line received
    assert contexts["clear"] == contexts["compact"] == block
    assert contexts["resume"] is None or contexts["resume"] == block
    assert contexts["fork"] is None  # the fork carries the block already injected
    stop = data["hooks"]["Stop"][1]["hooks"][0]["command"]
    assert run_shell(stop, json.dumps({"session_id": "x", "cwd": str(project)}), elsewhere).returncode == 0


def install_roundtrip(spec: Path, project: Path, tmp_path: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(ORIGINAL)
    original = settings.read_bytes()
    proc = cli("install", "--spec", str(spec), "--project", str(project), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr  # install runs the consolidation the first session reads
    assert "consolidated 3 memories" in proc.stdout
    assert "4/4 writing derived notes and the SessionStart cache" in proc.stderr
    again = cli("install", "--spec", str(spec), "--project", str(project), "--no-consolidate", cwd=tmp_path)
    assert again.returncode == 0, again.stderr  # idempotent
    check_installed(settings, project, tmp_path)
    assert cli("uninstall", "--project", str(project), cwd=tmp_path).returncode == 0
    assert settings.read_bytes() == original
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


@pytest.mark.slow  # about 3 s or more: with the slow suite (CI runs it)
def test_install_local_scope_without_settings_then_uninstall_removes_it(consolidated, tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf"]))))
    assert (
        cli("install", "--spec", str(spec), "--project", str(consolidated), "--scope", "local", cwd=tmp_path).returncode
        == 0
    )
    local = consolidated / ".claude" / "settings.local.json"
    check_installed_local = json.loads(local.read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    proc = run_shell(check_installed_local, session_payload(consolidated), tmp_path)
    assert json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert cli("uninstall", "--project", str(consolidated), "--scope", "local", cwd=tmp_path).returncode == 0
    assert not (consolidated / ".claude").exists()


def test_user_scope_uses_home(consolidated, tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf"]))))
    home = tmp_path / "home"
    home.mkdir()
    assert cli("install", "--spec", str(spec), "--scope", "user", cwd=tmp_path, HOME=str(home)).returncode == 0
    assert "session-start" in (home / ".claude" / "settings.json").read_text()
    assert cli("uninstall", "--scope", "user", cwd=tmp_path, HOME=str(home)).returncode == 0
    assert not (home / ".claude").exists()


@pytest.mark.slow  # about 3 s or more: with the slow suite (CI runs it)
def test_uninstall_keeps_later_edits(consolidated, tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf"]))))
    settings = consolidated / ".claude" / "settings.json"
    assert cli("install", "--spec", str(spec), "--project", str(consolidated), cwd=tmp_path).returncode == 0
    data = json.loads(settings.read_text())
    data["theme"] = "dark"
    settings.write_text(json.dumps(data))
    assert cli("uninstall", "--project", str(consolidated), cwd=tmp_path).returncode == 0
    assert json.loads(settings.read_text()) == {"theme": "dark"}


def test_plugin_layout_and_hooks_run(consolidated, tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf"]))))
    plugin = tmp_path / "plugin"
    assert cli("install", "--spec", str(spec), "--plugin", str(plugin), cwd=tmp_path).returncode == 0
    assert json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())["name"] == "memlab-memory"
    hooks = json.loads((plugin / "hooks" / "hooks.json").read_text())["hooks"]
    command = hooks["SessionStart"][0]["hooks"][0]["command"]
    assert "${CLAUDE_PLUGIN_ROOT}" in command
    proc = run_shell(command, session_payload(consolidated), tmp_path, CLAUDE_PLUGIN_ROOT=str(plugin))
    assert json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert {p.name for p in (plugin / "commands").iterdir()} == {"recall.md", "consolidate.md", "status.md"}
    assert cli("uninstall", "--plugin", str(plugin), cwd=tmp_path).returncode == 0
    assert not plugin.exists()


@pytest.mark.slow
def test_done_when_benchmark_run_export_install_session_uninstall(seeded, tmp_path):
    """From a finished benchmark run (MLflow, sqlite) to a working hook and back."""
    from memlab.run import run

    db = tmp_path / "mlruns.db"
    cfg = compose_cfg(["+experiment=quickstart", "embedder=tfidf", "tracking=mlflow", f"tracking.uri=sqlite:///{db}"])
    outcome = run(cfg, tmp_path / "out")
    uri = f"sqlite:///{db}"
    proc = cli("export", "--run-id", outcome.run_id, "--tracking-uri", uri, "--out", str(tmp_path / "exp"), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    spec_path = tmp_path / "exp" / "memlab-hook.json"
    spec = json.loads(spec_path.read_text())
    assert spec["source"]["run_id"] == outcome.run_id and spec["source"]["metrics"]
    assert spec["strategies"]["retention"]["weights"] == cfg["retention"]["weights"]
    assert spec["pipeline"] == cfg["pipeline"]
    best = cli(
        "export",
        "--best",
        "--experiment",
        "quickstart",
        "--metric",
        "current_truth_at_1",
        "--tracking-uri",
        uri,
        "--out",
        str(tmp_path / "best"),
        cwd=ROOT,
    )
    assert best.returncode == 0, best.stderr
    assert cli(
        "best", "--experiment", "quickstart", "--metric", "current_truth_at_1", "--tracking-uri", uri, cwd=ROOT
    ).stdout.startswith(outcome.run_id)
    install_roundtrip(spec_path, seeded, tmp_path)


def test_project_scope_roundtrip_with_exported_config(seeded, tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf"]))))
    install_roundtrip(spec, seeded, tmp_path)
