"""`memlab recall` lists current memories first and marks a superseded hit with what replaced it."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from memlab.adapter.recall_order import current_first
from memlab.core.types import Memory, Tier
from memlab.pipeline.recall import RecallHit
from memlab.pipeline.store import MemoryStore
from tests.adapter.conftest import cli


def _store() -> MemoryStore:
    def memory(mid: str, day: int, summary: str) -> Memory:
        return Memory(mid, "decisions", datetime(2025, 12, day, tzinfo=UTC), summary)

    store = MemoryStore(
        [memory("kafka", 1, "Use Kafka"), memory("nats", 10, "Switched to NATS"), memory("ci", 2, "CI on push")]
    )
    store.update_state("kafka", superseded_by="nats", valid_until=datetime(2025, 12, 10, tzinfo=UTC))
    return store


def test_superseded_hits_follow_the_current_ones_in_the_retrievers_order():
    store = _store()
    hits = [
        RecallHit(store.memories[i], s, Tier.HOT, r)
        for r, (i, s) in enumerate([("kafka", 0.9), ("nats", 0.8), ("ci", 0.1)])
    ]
    shown = current_first(store, hits, datetime(2025, 12, 28, tzinfo=UTC))
    assert [s.hit.memory.id for s in shown] == ["nats", "ci", "kafka"]
    assert [s.superseded for s in shown] == [False, False, True]
    assert shown[2].mark(store) == "[superseded by nats, 2025-12-10: Switched to NATS]"
    assert shown[0].mark(store) == ""
    before = current_first(store, hits, datetime(2025, 12, 5, tzinfo=UTC))  # --as-of: Kafka was still true
    assert [s.hit.memory.id for s in before] == ["kafka", "nats", "ci"] and not any(s.superseded for s in before)


@pytest.mark.slow  # over 4 s: runs with the slow suite (make test-slow, CI)
def test_exhaustive_recall_lists_the_superseded_memory_last_and_marked(repo, tmp_path):
    from memlab.adapter.export import spec_from_config
    from memlab.adapter.gitcli import find_repo
    from memlab.adapter.notes_store import append_memory
    from tests.support.compose import compose_cfg

    old, new = "Use Kafka for the event bus", "Switched from Kafka to NATS for the event bus"
    for day, summary in ((3, old), (10, new)):
        append_memory(find_repo(repo), "decisions", summary, "", timestamp=datetime(2025, 12, day, tzinfo=UTC))
    spec = tmp_path / "memlab-hook.json"  # the slot judge reads "from Kafka to NATS" as a change
    spec.write_text(json.dumps(spec_from_config(compose_cfg(["embedder=tfidf", "judge=slot"]))))
    assert cli("consolidate", "--spec", str(spec), cwd=repo).returncode == 0
    args = ("recall", "Kafka event bus", "--mode", "exhaustive", "--spec", str(spec))
    hits = json.loads(cli(*args, "--json", cwd=repo).stdout)
    assert [(h["summary"], h["superseded"]) for h in hits] == [(new, False), (old, True)], hits
    assert hits[1]["superseded_by"] == hits[0]["id"] and hits[1]["valid_until"].startswith("2025-12-10"), hits
    lines = cli(*args, cwd=repo).stdout.splitlines()
    assert lines[1].endswith(f"{old} [superseded by {hits[0]['id']}, 2025-12-10: {new}]"), lines
    standard = cli("recall", "Kafka event bus", "--mode", "standard", "--spec", str(spec), cwd=repo).stdout
    assert standard.count("\n") == 1 and new in standard  # outside exhaustive mode: current memories only
