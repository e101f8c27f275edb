"""export → install → the exact installed command lines with SessionStart JSON → uninstall byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
    assert len(start) == 1 and start[0]["command"].startswith('f="${XDG_STATE_HOME:-$HOME/.local/state}/memlab/')
    committed = settings.read_text()  # a team's file: nothing of this machine in it
    assert not any(p in committed for p in (str(ROOT), sys.executable, str(project.parent), os.environ["HOME"]))
    launcher = Path(os.environ["XDG_STATE_HOME"]) / "memlab" / "hooks"
    words = next(launcher.iterdir()).read_text().split()  # this user's launcher holds the machine's command
    assert words[words.index("-m") - 2 : words.index("-m")] == ["-P", "-S"]
    assert os.path.isabs(words[words.index("-P") - 1]) and os.path.isabs(words[-1].strip("'"))
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


def test_project_scope_roundtrip_with_exported_config(seeded, tmp_path, cold_bytecode):
    """A first install on this machine: no hook bytecode yet, `memlab install` compiles it."""
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf"]))))
    install_roundtrip(spec, seeded, tmp_path)


@pytest.mark.parametrize("existed", [True, False])
def test_uninstall_after_edits_and_a_reinstall_keeps_everything_the_user_wrote(seeded, tmp_path, existed):
    settings = seeded / ".claude" / "settings.json"
    if existed:
        settings.parent.mkdir()
        settings.write_text('{"model": "opus"}')
    specs = []
    for budget in (400, 800):  # a spec upgrade between the two installs
        data = spec_from_config(compose_cfg(["embedder=tfidf", f"pipeline.budget_tokens={budget}"]))
        specs.append(tmp_path / f"spec-{budget}.json")
        specs[-1].write_text(json.dumps(data))
    args = ("--project", str(seeded), "--no-consolidate")
    assert cli("install", "--spec", str(specs[0]), *args, cwd=tmp_path).returncode == 0
    data = json.loads(settings.read_text())
    mine = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}],
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo mine"}]}],
    }
    data["hooks"]["SessionStart"] += mine["SessionStart"]
    data["hooks"]["PreToolUse"] = mine["PreToolUse"]
    data["permissions"] = {"allow": ["Bash(ls)"], "deny": ["Bash(rm -rf *)"]}
    settings.write_text(json.dumps(data))
    assert cli("install", "--spec", str(specs[1]), *args, cwd=tmp_path).returncode == 0
    proc = cli("uninstall", "--project", str(seeded), cwd=tmp_path)
    assert proc.returncode == 0 and "everything else kept" in proc.stdout, proc.stdout
    expected = {"hooks": mine, "permissions": data["permissions"], **({"model": "opus"} if existed else {})}
    assert json.loads(settings.read_text()) == expected


def test_a_team_member_without_memlab_gets_no_error_from_the_committed_command(seeded, tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf"]))))
    proc = cli("install", "--spec", str(spec), "--project", str(seeded), "--no-consolidate", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    start = json.loads((seeded / ".claude" / "settings.json").read_text())["hooks"]["SessionStart"][0]
    elsewhere = tmp_path / "teammate-state"
    proc = run_shell(start["hooks"][0]["command"], session_payload(seeded), seeded, XDG_STATE_HOME=str(elsewhere))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
