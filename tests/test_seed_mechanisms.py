"""Each seed preset's mechanism as its seed describes it, changing the store: MycelicMemory's gate and its no-LLM
MERGE path, squidbot's document keeping every archived message, Astra's pruner and its dissonance check."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memlab.core.types import Memory, MemoryState, Relation, Tier, Verdict
from memlab.pipeline.anchor import IdentityAnchor, dissonance_check, fold, unit
from memlab.pipeline.online import process_arrival
from memlab.pipeline.store import MemoryStore
from memlab.strategies.judge.slot import SlotJudge
from memlab.strategies.retention.salience_prune import SaliencePruneRetention
from memlab.strategies.summarizer.running_document import RunningDocumentSummarizer
from memlab.wiring.components import PipelineSettings
from tests.test_online import NEAR, NEW, OLD, ScriptedJudge, TableEmbedder, comps

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


def test_a_verdict_at_the_gate_goes_to_review_and_one_above_it_applies() -> None:
    gate = PipelineSettings(min_judge_confidence=0.8, review_at_threshold=True)
    assert gate.held(0.8) and not gate.held(0.81) and not PipelineSettings(min_judge_confidence=0.8).held(0.8)
    for confidence, applied in ((0.8, False), (0.85, True)):
        store = MemoryStore()
        judge = ScriptedJudge({("a", "b"): Relation.SUPERSEDE}, confidence=confidence)
        components = comps(judge, TableEmbedder(NEAR), min_judge_confidence=0.8, review_at_threshold=True)
        process_arrival(store, components, OLD)
        process_arrival(store, components, NEW)
        assert (store.state("a").valid_until is not None) is applied
        assert len(store.review_queue) == (0 if applied else 1)


def _merge_pair() -> tuple[Memory, Memory]:
    older = Memory("a", "decisions", T0, "The billing service uses PostgreSQL", "")
    newer = Memory("b", "decisions", T0 + timedelta(days=1),
                   "The billing service uses PostgreSQL with read replicas for nightly reports", "")  # fmt: skip
    return older, newer


def test_graded_same_value_lets_a_merge_pass_mycelics_gate_and_change_the_store() -> None:
    older, newer = _merge_pair()
    fixed, graded = SlotJudge().judge(older, newer, 0.9), SlotJudge(graded_same_value=True).judge(older, newer, 0.9)
    assert fixed.relation is graded.relation is Relation.MERGE
    assert fixed.confidence == 0.7 and graded.confidence == pytest.approx(0.9)  # as sure as the pair is similar
    gate = PipelineSettings(min_judge_confidence=0.8, review_at_threshold=True)
    assert gate.held(fixed.confidence) and not gate.held(graded.confidence)

    class Fixed(ScriptedJudge):
        def judge(self, o, n, similarity=None):
            return Verdict(graded.relation, graded.confidence, "graded")

    table = {older.text: [1, 0.1, 0, 0], newer.text: [1, 0.12, 0, 0]}
    store = MemoryStore()
    components = comps(Fixed(), TableEmbedder(table), min_judge_confidence=0.8, review_at_threshold=True)
    process_arrival(store, components, older)
    records = process_arrival(store, components, newer)
    assert [r["operation"] for r in records] == ["MERGE"] and len(store.memories) == 3  # the combined memory


def test_the_running_document_keeps_every_archived_message_bounded_by_size() -> None:
    long = " and more detail" * 10
    messages = [Memory(f"m{i}", "progress", T0 + timedelta(hours=3 * i), f"Message {i} says V{i} holds{long}", "")
                for i in range(120)]  # fmt: skip
    section = RunningDocumentSummarizer().summarize(messages)  # 120 lines of 190 characters: over 12,000
    assert all(f"V{i} " in section.summary for i in range(120))  # no message dropped (a line count kept 20)
    assert sum(len(f) for f in section.key_facts) <= 12000 + 120 * len("[2025-01-06] ")
    assert section.key_facts[0].startswith("[2025-01-06] ")  # the chunk spans days: each line dated


def _old_restatement(i: int) -> Memory:
    return Memory(f"p{i}", "progress", T0, f"Nightly build of the billing service passed ({i})", "")


def test_astras_pruner_archives_an_old_restatement_with_nearest_entropy_but_not_with_mean() -> None:
    words = [
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "echo",
        "foxtrot",
        "golf",
        "hotel",
        "india",
        "juliet",
        "kilo",
        "lima",
        "mike",
        "november",
    ]
    others = [Memory(f"o{i}", "decisions", T0, f"{w} {words[i - 1]} decided", "") for i, w in enumerate(words)]
    memories = [*(_old_restatement(i) for i in range(3)), *others]
    states = [MemoryState(m.id) for m in memories]
    now = T0 + timedelta(days=200)
    nearest = SaliencePruneRetention(entropy="nearest").score_all(memories, states, now)[:3]
    mean = SaliencePruneRetention().score_all(memories, states, now)[:3]
    assert all(s.tier is Tier.ARCHIVED for s in nearest)  # decay < 0.1: pruned
    assert not any(s.tier is Tier.ARCHIVED for s in mean)  # 0.2 · (1 − mean cosine) alone keeps it above 0.1
    fresh = SaliencePruneRetention(entropy="nearest").score_all(memories, states, T0 + timedelta(days=10))
    assert not any(s.tier is Tier.ARCHIVED for s in fresh)  # not idle 30 days, time factor high


def test_a_dissonance_check_runs_above_its_level_names_the_pulling_narratives_and_rebases() -> None:
    anchor = IdentityAnchor()
    base, away = unit(np.array([1.0, 0.0, 0.0])), unit(np.array([0.0, 1.0, 0.0]))
    fold(anchor, [base])
    anchor.vectors.update(n0=base)
    for k in range(6):
        fold(anchor, [away], weight=0.3)
        anchor.vectors[f"n{k + 1}"] = away
    assert anchor.drift > 0.3
    assert dissonance_check(anchor, None) is None and dissonance_check(anchor, 0.99) is None
    dissonant = dissonance_check(anchor, 0.3)
    assert dissonant == [f"n{k + 1}" for k in range(6)]  # the narratives that pulled it away, not the origin's
    assert anchor.drift == pytest.approx(0.0) and np.allclose(anchor.origin, anchor.live)  # re-based


def _mechanisms(preset: str, dataset: str, *overrides: str) -> dict:
    from memlab.core.paths import PROJECT_ROOT
    from tests.support.scripts import load_script

    script = load_script(PROJECT_ROOT / "experiments" / "presets" / "mechanisms.py", "memlab_preset_mechanisms")
    return script.mechanisms(preset, dataset, list(overrides))


@pytest.mark.slow  # one preset episode on a shipped history each (about a minute at idle)
def test_on_shipped_histories_each_mechanism_changes_the_store() -> None:
    squidbot = _mechanisms("squidbot_nollm", "builtin_history")
    assert squidbot["archived"] > 0 and squidbot["archived_quoted"] >= 0.95  # before: 76 %
    own = _mechanisms("squidbot_nollm", "project_history", "seed=1020", "retention.trigger=100", "retention.keep=20")
    assert own["archived_quoted"] >= 0.95  # squidbot's own 100 / 20 (before: 29 %)
    mycelic = _mechanisms("mycelic_nollm", "project_history", "seed=1020")
    assert mycelic["operations"].get("MERGE", 0) > 0  # before: 0 (every MERGE at 0.7, under the gate)
    applied = [float(k.split("@")[1]) for k in mycelic["applied_confidences"]]
    assert applied and min(applied) > 0.8  # nothing at exactly 0.8 applies
    astra = _mechanisms("astra_nollm", "project_history", "seed=1020")
    assert astra["archived"] > 0  # the pruner acts (before: never)
    drifted = _mechanisms("astra_nollm", "project_history", "seed=0")
    assert drifted["dissonance_checks"] and drifted["n_dissonance_checks"] > 0
