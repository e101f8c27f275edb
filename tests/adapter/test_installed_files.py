"""Nothing written through a link or into a special file under ``.git/memlab``, through the installed command:
``hook.log`` as a link to a file outside the repository, ``.git/memlab`` itself a link, a FIFO at
``candidates.json``."""

from __future__ import annotations

import os

import pytest

from tests.adapter.conftest import seed

DEEP = "[" * 100_000


def test_a_log_linked_outside_is_replaced_never_written_through(installed, tmp_path):
    seed(installed.project)
    victim = tmp_path / "outside.txt"
    data = os.urandom(630_000).hex().encode()  # 1.26 MB: past the log's limit, where it is cut
    victim.write_bytes(data)
    folder = installed.project / ".git" / "memlab"
    folder.mkdir(exist_ok=True)
    (folder / "hook.log").symlink_to(victim)
    for _ in range(2):
        proc = installed.run("SessionStart", DEEP)  # a line for hook.log
        assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
    assert victim.read_bytes() == data
    assert not (folder / "hook.log").is_symlink() and "nested too deeply" in installed.log()


def test_a_state_folder_linked_outside_gets_nothing_written(installed, tmp_path):
    seed(installed.project)
    outside = tmp_path / "outside"
    outside.mkdir()
    (installed.project / ".git" / "memlab").symlink_to(outside, target_is_directory=True)
    for event in ("SessionStart", "Stop"):
        proc = installed.run(event)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    proc = installed.memlab("status")
    assert proc.returncode != 0 and "is a symbolic link" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert list(outside.iterdir()) == []


@pytest.mark.slow  # consolidations: over 2 s
def test_a_fifo_at_the_candidate_cache_wedges_nothing(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    cache = hook.project / ".git" / "memlab" / "candidates.json"
    cache.parent.mkdir(exist_ok=True)
    os.mkfifo(cache)
    assert "Use FastAPI for the API" in hook.context()  # from the raw notes, at once
    proc = hook.memlab("consolidate", "--json")
    assert proc.returncode == 0, proc.stderr
    assert cache.is_file() and "Use FastAPI for the API" in hook.context()
