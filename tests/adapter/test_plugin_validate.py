"""The real Claude Code client accepts what memlab writes: ``claude plugin validate`` from the npm package
``@anthropic-ai/claude-code`` at the pinned release (installed into a temporary folder) on the plugin of
``memlab install --plugin`` and on a plugin built from the hooks that ``memlab install --scope project`` writes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.adapter.conftest import cli
from tests.adapter.test_security import write_spec

PACKAGE = "@anthropic-ai/claude-code"
#: The Claude Code release the plugin is validated with (runs on node 20; CI's slow suite installs exactly this).
CLAUDE_CODE_VERSION = "2.1.197"


@pytest.fixture(scope="module")
def claude(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``claude`` executable of the npm package, installed for this module only."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"npm is not on PATH: cannot install {PACKAGE}")
    prefix = tmp_path_factory.mktemp("claude-code")
    proc = subprocess.run(
        [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", f"{PACKAGE}@{CLAUDE_CODE_VERSION}"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    exe = prefix / "node_modules" / ".bin" / "claude"
    if proc.returncode != 0 or not exe.exists():
        pytest.skip(f"cannot install {PACKAGE} from npm: {(proc.stderr or proc.stdout).strip()[-300:]}")
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=120)
    if version.returncode != 0:
        pytest.skip(f"{PACKAGE} installed but does not run here: {version.stderr.strip()[-300:]}")
    assert version.stdout.strip().startswith(CLAUDE_CODE_VERSION), version.stdout  # the pinned release runs
    return exe


def validate(claude: Path, plugin: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(claude), "plugin", "validate", "--strict", str(plugin)],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(plugin.parent), "NO_COLOR": "1"},
    )


@pytest.mark.slow
def test_claude_validates_the_plugin_install_writes(claude, tmp_path):
    spec = write_spec(tmp_path / "spec")
    plugin = tmp_path / "plugin"
    assert cli("install", "--spec", str(spec), "--plugin", str(plugin), cwd=tmp_path).returncode == 0
    proc = validate(claude, plugin)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "error" not in proc.stdout.lower().replace("0 errors", ""), proc.stdout
    assert "warning" not in proc.stdout.lower(), proc.stdout


@pytest.mark.slow
def test_claude_validates_the_hooks_project_install_writes(claude, seeded, tmp_path):
    spec = write_spec(tmp_path / "spec")
    proc = cli("install", "--spec", str(spec), "--project", str(seeded), "--no-consolidate", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    settings = json.loads((seeded / ".claude" / "settings.json").read_text())
    plugin = tmp_path / "from-settings"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / "hooks").mkdir()
    manifest = {"name": "memlab-settings-hooks", "version": "0.1.0", "description": "hooks", "author": {"name": "t"}}
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest))
    (plugin / "hooks" / "hooks.json").write_text(json.dumps({"hooks": settings["hooks"]}))
    proc = validate(claude, plugin)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning" not in proc.stdout.lower(), proc.stdout
