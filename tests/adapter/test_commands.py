"""recall (with --reason and --as-of), status, tiers and edges on a consolidated repository."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.adapter.install import merge, strip_ours
from tests.adapter.conftest import add_note, cli, upstream_memory


@pytest.mark.slow  # over 4 s: runs with the slow suite (make test-slow, CI)
def test_recall_reason_status_tiers_edges(consolidated):
    add_note(
        consolidated,
        "refs/notes/mem/progress",
        upstream_memory(
            "progress", "2025-12-26T10:00:00+00:00", "Deployed the API yesterday", "Release went out yesterday."
        ),
    )
    assert cli("consolidate", cwd=consolidated).returncode == 0
    hits = json.loads(cli("recall", "API framework", "--json", cwd=consolidated).stdout)
    assert hits and {"id", "score", "tier"} <= set(hits[0])
    reasoned = json.loads(
        cli("recall", "deployed the API", "--reason", "--json", "--no-track", cwd=consolidated).stdout
    )
    assert reasoned["answer"].startswith("Deployed the API yesterday")
    when = [t for t in reasoned["temporal"] if t["text"].lower() == "yesterday"]
    assert when and when[0]["start"].startswith("2025-12-25")
    assert reasoned["sources"][0]["chain"]
    early = json.loads(cli("recall", "API", "--as-of", "2025-12-21", "--json", cwd=consolidated).stdout)
    assert {h["summary"] for h in early} <= {"Use Flask for the API"}
    status = json.loads(cli("status", "--json", cwd=consolidated).stdout)
    assert status["memories"] == 4 and status["never_consolidated"] == 0 and status["runs"] == 2
    assert sum(status["tiers"].values()) == 4
    tiers = json.loads(cli("tiers", "--json", cwd=consolidated).stdout)
    assert sum(len(v) for v in tiers.values()) == 4
    mid = hits[0]["id"]
    edges = json.loads(cli("edges", mid, "--json", cwd=consolidated).stdout)
    assert edges["id"] == mid and mid in edges["chain"]
    bad = cli("edges", "m_nope", cwd=consolidated)
    assert bad.returncode == 2 and "no memory" in bad.stderr
    meta_after = json.loads(cli("status", "--json", cwd=consolidated).stdout)
    assert meta_after["memories"] == 4


hook_entry = st.fixed_dictionaries({"type": st.just("command"), "command": st.sampled_from(["echo a", "ls", "make"])})
group = st.fixed_dictionaries(
    {"hooks": st.lists(hook_entry, max_size=2)}, optional={"matcher": st.sampled_from(["", "Bash"])}
)
settings_st = st.fixed_dictionaries(
    {},
    optional={
        "model": st.sampled_from(["opus", "sonnet"]),
        "hooks": st.dictionaries(st.sampled_from(["Stop", "SessionStart", "PreToolUse"]), st.lists(group, max_size=2)),
        "env": st.dictionaries(st.sampled_from(["A", "B"]), st.text(max_size=3)),
    },
)


def _no_empty_containers_we_touch(data) -> bool:
    hooks = data.get("hooks")
    return hooks is None or (hooks != {} and all(hooks.get(e) != [] for e in ("Stop", "SessionStart", "SessionEnd")))


@settings(max_examples=200, deadline=None)
@given(settings_st.filter(_no_empty_containers_we_touch))
def test_merge_then_strip_is_identity(data):
    """Removing memlab's entries gives back the settings (empty hooks containers memlab touched aside:
    those come back only through the byte-for-byte restore of the backup)."""
    prefix = "PYTHONPATH=/x /py -S -m memlab.cli"
    merged = merge(data, __import__("pathlib").Path("/abs/spec.json"), prefix)
    assert merge(merged, __import__("pathlib").Path("/abs/spec.json"), prefix) == merged  # idempotent
    assert strip_ours(merged) == data


@pytest.mark.parametrize(
    "argv",
    [
        ["session-start"],
        ["session-start", "--spec", "/abs/spec.json"],
        ["stop", "--project", "/p", "--spec", "/s.json", "--time-budget", "2.5"],
        ["session-end", "--time-budget", "1"],
    ],
)
def test_event_hooks_parse_without_argparse_as_argparse_does(argv):
    """The hook events' fast parser gives the namespace the full parser gives."""
    import argparse

    from memlab.commands import hook

    parser = argparse.ArgumentParser()
    hook.add_arguments(parser)
    assert vars(hook.fast_args(argv)) == vars(parser.parse_args(argv))


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["capture", "--summary", "x"],
        ["session-start", "--spec"],
        ["session-start", "--spec=/s.json"],
        ["session-start", "--spec", "/a", "--spec", "/b"],
        ["session-start", "--sp", "/s.json"],
        ["session-start", "--help", "x"],
        ["session-start", "--time-budget", "soon"],
        ["session-start", "--project", "--spec"],
    ],
)
def test_other_hook_arguments_go_to_argparse(argv):
    from memlab.commands import hook

    assert hook.fast_args(argv) is None


def test_hook_commands_read_precompiled_bytecode(consolidated, tmp_path):
    """``memlab install`` compiles the hook's modules into memlab's state folder (never the project); the
    installed command reads them even with ``PYTHONDONTWRITEBYTECODE`` set, and gives the same output."""
    from tests.adapter.conftest import session_payload
    from tests.adapter.test_install_e2e import run_shell
    from tests.adapter.test_security import write_spec

    state = tmp_path / "state"
    spec = write_spec(tmp_path / "spec")
    install = cli(
        "install",
        "--spec",
        str(spec),
        "--project",
        str(consolidated),
        "--no-consolidate",
        "--scope",
        "local",
        cwd=tmp_path,
        XDG_STATE_HOME=str(state),
    )
    assert install.returncode == 0, install.stderr
    pycache = state / "memlab" / "pycache"
    assert f"into {pycache}" in install.stdout
    compiled = {p.name for p in pycache.rglob("*.pyc")}
    assert {n for n in compiled if n.startswith(("session.", "inject.", "seed_weighted.", "json", "dataclasses."))}
    assert not list(consolidated.rglob("*.pyc"))
    start = json.loads((consolidated / ".claude" / "settings.local.json").read_text())["hooks"]["SessionStart"][0]
    command = start["hooks"][0]["command"]
    assert f"PYTHONPYCACHEPREFIX={pycache}" in command
    with_cache = run_shell(command, session_payload(consolidated), consolidated, PYTHONDONTWRITEBYTECODE="1")
    bare = command.replace(f"PYTHONPYCACHEPREFIX={pycache}", f"PYTHONPYCACHEPREFIX={tmp_path / 'empty'}")
    without = run_shell(bare, session_payload(consolidated), consolidated, PYTHONDONTWRITEBYTECODE="1")
    assert json.loads(with_cache.stdout)["hookSpecificOutput"] == json.loads(without.stdout)["hookSpecificOutput"]
    assert not (tmp_path / "empty").exists()
