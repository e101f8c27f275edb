"""The pieces of freshness and one policy everywhere, in process: the pending block, the policy's and the spec's
identities, the block's pinned items and ``recall --reason``'s choice of hit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memlab.adapter.freshness import MARK, pending_block, raw_candidate
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory, load_memories
from memlab.adapter.reasoning import reason
from memlab.adapter.recall_order import Shown
from memlab.adapter.spec import policy_id, resolve_spec, spec_id
from memlab.core.types import Memory, Tier
from memlab.pipeline.inject import build_block
from memlab.pipeline.recall import RecallHit
from memlab.pipeline.store import MemoryStore
from memlab.strategies.selector.recency import RecencySelector
from memlab.strategies.temporal.none import NoResolver
from tests.adapter.conftest import make_repo

T0 = datetime(2025, 12, 1, tzinfo=UTC)


def test_a_new_memory_comes_first_marked_and_hides_the_fact_it_names_as_changed(tmp_path):
    repo = find_repo(make_repo(tmp_path / "r"))
    spec = resolve_spec(None)
    for i, summary in enumerate(("Use Kafka for the event bus", "The integration tests need Docker running")):
        append_memory(repo, "decisions", summary, "", timestamp=T0 + timedelta(days=i))
    pool = [raw_candidate(m, T0 + timedelta(days=5), 500) for m in load_memories(repo).memories]
    append_memory(
        repo, "decisions", "Switched from Kafka to NATS for the event bus", "", timestamp=T0 + timedelta(days=3)
    )
    now = T0 + timedelta(days=5)
    block = pending_block(repo, spec, pool, RecencySelector(), now, "unchecked")
    lines = [ln for ln in block.text.splitlines() if ln.startswith("- [")]
    assert lines[0] == f"- [decisions, 2025-12-04{MARK}] Switched from Kafka to NATS for the event bus", lines
    assert any("Docker" in ln for ln in lines) and not any("Use Kafka" in ln for ln in lines), lines


def test_first_items_lead_the_block_and_take_their_share_of_the_budget():
    now = T0 + timedelta(days=30)
    pool = [
        raw_candidate(Memory(f"m{i}", "decisions", T0 + timedelta(days=i), f"fact number {i} " * 8, ""), now, 500)
        for i in range(20)
    ]
    pinned = [raw_candidate(Memory("new", "decisions", now, "a new fact " * 12, ""), now, 500, MARK)]
    alone = build_block(pool, 300, RecencySelector(), now)
    led = build_block(pool, 300, RecencySelector(), now, first=pinned)
    assert led.items[0] == pinned[0] and pinned[0] not in alone.items
    assert 0 < len(led.items) - 1 < len(alone.items)  # the pinned item's tokens came out of the same budget


def test_the_policy_id_follows_what_decides_the_records_and_the_spec_id_every_setting():
    spec = resolve_spec(None)
    budget = {**spec, "pipeline": {**spec["pipeline"], "budget_tokens": 150}}
    hook = {**spec, "hook": {**spec["hook"], "max_chars": 999}}
    moved = {**spec, "path": "/elsewhere/memlab-hook.json"}
    assert policy_id(budget) != policy_id(spec) and spec_id(budget) != spec_id(spec)
    assert policy_id(hook) == policy_id(spec) and spec_id(hook) != spec_id(spec)
    assert policy_id(moved) == policy_id(spec) and spec_id(moved) == spec_id(spec)


def test_reason_answers_from_the_current_hit_about_the_question_or_says_none_matches():
    old = Memory("a", "decisions", T0, "Use Kafka for the event bus", "")
    new = Memory("b", "decisions", T0 + timedelta(days=9), "Moved the event bus to Redis Streams", "")
    docker = Memory("c", "learnings", T0 + timedelta(days=10), "The integration tests need Docker running", "")
    store = MemoryStore([old, new, docker])
    shown = [Shown(RecallHit(docker, 0.9, Tier.HOT)), Shown(RecallHit(new, 0.5, Tier.HOT))]
    shown.append(Shown(RecallHit(old, 0.8, Tier.HOT), "b", T0 + timedelta(days=9)))  # superseded: never the answer
    answer = reason(store, shown, NoResolver(), "what is our event bus")
    assert answer.answer == new.summary and answer.confidence == 1.0
    assert [s["id"] for s in answer.sources] == ["c", "b", "a"]
    assert reason(store, shown, NoResolver(), "which message broker do we use").answer == ""
    assert reason(store, shown[2:], NoResolver(), "event bus").answer == ""  # only a superseded hit matches
