"""Eight writers at once lose no record; a consolidation killed midway leaves readable refs."""

from __future__ import annotations

import subprocess

import pytest

from memlab.adapter import jsonl_refs
from memlab.adapter.consolidation import load_store
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import load_memories
from memlab.adapter.spec import default_spec, policy_id
from tests.adapter.conftest import PY, cli, env, policy_of

WRITER = """
import sys
from datetime import UTC, datetime
from memlab.adapter import jsonl_refs
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
repo = find_repo(sys.argv[1]); w = sys.argv[2]
for i in range(4):
    append_memory(repo, "progress" if i % 2 else "decisions", f"writer {w} memory {i}", f"body {w}/{i}",
                  timestamp=datetime.now(UTC))
    jsonl_refs.append_records(repo, "meta", [{"id": f"w{w}-{i}", "tier": "hot"}])
"""


def test_eight_concurrent_writers_lose_nothing(repo):
    procs = [
        subprocess.Popen([PY, "-c", WRITER, str(repo), str(w)], env=env(), stderr=subprocess.PIPE, text=True)
        for w in range(8)
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    r = find_repo(repo)
    result = load_memories(r)
    assert result.errors == []
    assert {m.summary for m in result.memories} == {f"writer {w} memory {i}" for w in range(8) for i in range(4)}
    recs, errors = jsonl_refs.read_records(r, "meta")
    assert errors == [] and set(recs) == {f"w{w}-{i}" for w in range(8) for i in range(4)}


@pytest.mark.slow
def test_killed_consolidation_leaves_readable_refs_and_rerun_completes(seeded):
    for point in ("meta", "edges"):
        killed = cli("consolidate", cwd=seeded, MEMLAB_TEST_KILL_AT=point)
        assert killed.returncode == 137
        loaded = load_store(find_repo(seeded), policy_id(default_spec()))  # what `consolidate` runs here
        assert loaded.errors == [] and len(loaded.store) == 3
    done = cli("consolidate", cwd=seeded)
    assert done.returncode == 0, done.stderr
    assert (find_repo(seeded).memlab_dir / "candidates.json").exists()
    assert len(load_store(find_repo(seeded), policy_of(seeded)).runs) == 1
