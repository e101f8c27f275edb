"""Parity: the benchmark pipeline (components from the config) and the exported hook select the same
items in the same order on the same memories."""

from __future__ import annotations

import json
from datetime import datetime

from memlab.adapter.export import spec_from_config
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import load_memories
from memlab.data.project_history.builtin import generate
from memlab.pipeline.consolidate import consolidate
from memlab.pipeline.inject import store_block
from memlab.pipeline.store import MemoryStore
from memlab.wiring.build import build_components
from tests.adapter.conftest import NOW, cli, session_payload
from tests.adapter.helpers import write_memories
from tests.support.compose import compose_cfg


def test_pipeline_and_hook_select_the_same_items_in_order(repo, tmp_path):
    history = generate(0)
    write_memories(repo, list(history.memories))
    memories = load_memories(find_repo(repo)).memories
    assert len(memories) == len({(m.summary, m.content) for m in history.memories})

    cfg = compose_cfg(["embedder=tfidf", "selector.max_items=12"])
    now = datetime.fromisoformat(NOW)
    store = MemoryStore(memories)
    components = build_components(cfg)
    consolidate(store, components, now)
    expected = store_block(store, components, now)
    assert len(expected.items) >= 5

    spec_path = tmp_path / "memlab-hook.json"
    spec_path.write_text(json.dumps(spec_from_config(cfg)))
    assert cli("consolidate", "--spec", str(spec_path), cwd=repo).returncode == 0
    out = cli("hook", "session-start", "--spec", str(spec_path), cwd=repo, stdin=session_payload(repo))
    context = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context == expected.text
    lines = [ln for ln in context.splitlines() if ln.startswith("- [")]
    assert lines == [c.text for c in expected.items]
