"""The README's path from a run to a hook works as written on a fresh checkout (a new MLflow store, a new
home folder), and the first session after the install gets the repository's memories."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess

import pytest

from tests.adapter.conftest import NOW, PY, ROOT, git, session_payload

SECTION = "## From the winning run to a Claude Code hook"


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text[text.index(SECTION) :], re.S)
    assert block, "no bash block under the README's hook section"
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]


@pytest.mark.slow
def test_readme_run_to_hook_path_works_as_written(seeded, tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(seeded, "remote", "add", "origin", str(bare))
    settings = seeded / ".claude" / "settings.json"
    e = {k: v for k, v in os.environ.items() if not k.startswith(("MEMLAB_", "MLFLOW_"))}
    e.update(HOME=str(home), PYTHONPATH=str(ROOT), MLFLOW_TRACKING_URI=f"sqlite:///{tmp_path}/mlruns.db")
    e.update(MEMLAB_NOW=NOW, LITELLM_LOCAL_MODEL_COST_MAP="True")
    commands = readme_commands()
    quickstart = "python -m memlab --multirun +experiment=seed_git_notes_memory_nollm,tuned dataset=project_history"
    assert commands[0] == quickstart  # what make quickstart runs
    assert any(c.startswith("memlab export --sweep last") for c in commands)
    assert any(c.startswith("memlab install") for c in commands)
    chosen = ""
    for line in commands:
        line = line.replace("/path/to/repo", shlex.quote(str(seeded)))
        line = re.sub(r"^memlab ", f"{shlex.quote(PY)} -m memlab.cli ", line)
        line = re.sub(r"^python ", f"{shlex.quote(PY)} ", line)
        proc = subprocess.run(["bash", "-c", line], cwd=work, env=e, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, f"{line}\n{proc.stderr[-2000:]}"
        if line.startswith(f"{shlex.quote(PY)} -m memlab.cli best"):
            chosen = proc.stdout.split()[0]  # the comparison's winner by its main metric
        if line.startswith(f"{shlex.quote(PY)} -m memlab.cli export"):
            spec = json.loads((home / "memlab-spec" / "memlab-hook.json").read_text())
            assert spec["source"]["experiment"] == "presets" and spec["source"]["sweep"], spec["source"]
            assert chosen and spec["source"]["run_id"] == chosen, (chosen, spec["source"])  # the winner is exported
        if " recall " in line:  # current memories first, superseded ones after them and marked
            marked = ["[superseded by " in hit for hit in proc.stdout.splitlines()]
            assert marked and marked == sorted(marked), proc.stdout
            spec_file = home / "memlab-spec" / "memlab-hook.json"
            used = f"memlab recall: policy {spec_file} (installed, project scope)"
            assert used in proc.stderr.splitlines(), proc.stderr  # the installed winner, not the default
        if " install " in line:
            hooks = json.loads(settings.read_text())["hooks"]
            command = hooks["SessionStart"][0]["hooks"][0]["command"]
            e2 = {k: v for k, v in e.items() if k != "PYTHONPATH"}
            first = subprocess.run(
                ["bash", "-c", command],
                input=session_payload(seeded),
                cwd=seeded,
                env=e2,
                capture_output=True,
                text=True,
            )
            out = json.loads(first.stdout)
            assert "Use FastAPI for the API" in out["hookSpecificOutput"]["additionalContext"]
            assert "raw notes" not in out["systemMessage"]  # install ran the first consolidation
    assert not settings.exists()
    assert git(bare, "for-each-ref", "--format=%(refname)", "refs/notes/").split()  # sync pushed the notes
