"""An incremental consolidation judges what a full one judges about the new memories; cheaper embedding paths give
the same vectors; the block's header claims what the policy does with superseded facts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.data.project_history.generator import generate
from memlab.embed.tfidf import TfidfEmbedder
from memlab.pipeline.consolidate import consolidate
from memlab.pipeline.inject import CLAIMS, header_text, superseded_claim
from memlab.pipeline.store import MemoryStore
from memlab.strategies.judge.cascade import CascadeJudge
from memlab.strategies.judge.learned import LearnedJudge
from memlab.strategies.judge.slot import SlotJudge
from memlab.wiring.build import build_components
from tests.support.compose import compose_cfg


def edges_touching(store: MemoryStore, ids: set[str]) -> set[tuple[str, str, str]]:
    return {(e.source, e.target, e.type.value) for e in store.edges.values() if {e.source, e.target} & ids}


@pytest.mark.parametrize(("judge", "new"), [("similarity", 20), ("slot", 8)])
def test_an_incremental_run_gives_the_new_memories_the_full_runs_verdicts(judge, new):
    components = build_components(compose_cfg(["embedder=tfidf", f"judge={judge}", "clusterer=none"]))
    memories = sorted(generate(3, 120).memories, key=lambda m: (m.timestamp, m.id))
    old, new = memories[:-new], memories[-new:]
    now = memories[-1].timestamp
    full = MemoryStore(memories)
    consolidate(full, components, now)
    step = MemoryStore(old)
    consolidate(step, components, old[-1].timestamp)
    step.add(new)
    result = consolidate(step, components, now, fresh=frozenset(m.id for m in new))
    fresh = {m.id for m in new}
    assert edges_touching(full, fresh) and edges_touching(step, fresh) == edges_touching(full, fresh)
    assert result.clusters_found == 0 and result.summaries_created == 0  # clusters wait for the full run
    assert {m.id: step.state(m.id).tier for m in new} == {m.id: full.state(m.id).tier for m in new}


@pytest.mark.slow
def test_an_incremental_run_concludes_what_a_full_run_concludes_on_pairs_the_new_memories_changed():
    """The cascade reads the store (slot profiles): new memories change verdicts on older pairs, judged again."""
    components = build_components(compose_cfg(["embedder=tfidf", "judge=cascade", "clusterer=none"]))
    memories = sorted(generate(1, 60).memories, key=lambda m: (m.timestamp, m.id))
    old, new = memories[:-15], memories[-15:]
    full = MemoryStore(memories)
    consolidate(full, components, memories[-1].timestamp)
    step = MemoryStore(old)
    consolidate(step, components, old[-1].timestamp)
    step.add(new)
    consolidate(step, components, memories[-1].timestamp, fresh=frozenset(m.id for m in new))
    missed = edges_touching(full, {m.id for m in old}) - edges_touching(step, {m.id for m in memories})
    assert edges_touching(full, {m.id for m in old}) and not missed


def test_the_cascade_judge_resumes_whether_the_store_cited_and_counts_its_checks_anew():
    judge = CascadeJudge(LearnedJudge(), SlotJudge())
    judge.resume({"checks": 7, "passed": 3, "cites": 0})  # it judges every pair again (observes): checks anew
    assert judge.tally() == {"checks": 0, "passed": 0, "cites": 0} and not judge.cited_before_
    for earlier in ({"checks": 7, "passed": 3, "cites": 1}, {"checks": 7, "passed": 3}, {}):
        judge.resume(earlier)
        assert judge.cited_before_  # only a run that said the store did not cite makes a withdrawal possible


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=80), min_size=1, max_size=5))
def test_tfidf_without_scikit_learn_gives_the_same_vectors(texts):
    embedder = TfidfEmbedder(n_features=64, ngram_max=2)
    assert abs(embedder.encode(texts) - embedder.encode_few(texts)).max() < 1e-6


@pytest.mark.slow  # loads torch and sentence-transformers
def test_minilm_in_numpy_gives_sentence_transformers_vectors():
    from memlab.embed.minilm import MiniLMEmbedder

    texts = ["Which message broker do we use?", "x " * 400, "Moved the event bus from NATS to Redis Streams 東京"]
    few = MiniLMEmbedder().encode_few(texts)
    assert abs(MiniLMEmbedder().encode(texts) - few).max() < 1e-5


@pytest.mark.parametrize(
    ("overrides", "claim"),
    [
        (["+experiment=tuned"], "omitted"),
        (["+experiment=seed_git_notes_memory_nollm"], "listed"),
        (["judge=none"], "unchecked"),
    ],
)
def test_the_header_claims_what_the_policy_does_with_superseded_facts(overrides, claim):
    components = build_components(compose_cfg([*overrides, "embedder=tfidf"]))
    assert superseded_claim(components) == claim
    assert CLAIMS[claim] in header_text(claim)
