"""Slot candidates: pairs of notes naming one attribute of one subject in other words, and their verdicts."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.types import Memory, Relation, Verdict
from memlab.embed.knn import knn_pairs
from memlab.pipeline.consolidate import consolidate
from memlab.pipeline.inject import contested
from memlab.pipeline.slot_candidates import slot_pairs
from memlab.pipeline.store import MemoryStore
from tests.test_contested import TableJudge
from tests.test_pipeline import components

T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)

#: synonyms share a vector: what a sentence embedder does for "message queue" / "event bus"
PHRASES = {"message queue": [1, 0, 0], "event bus": [1, 0, 0], "web framework": [0, 1, 0], "database": [0, 0, 1]}


class PhraseEmbedder:
    name, version = "phrases", 1

    def encode(self, texts):
        return np.asarray([PHRASES[t] for t in texts], dtype=np.float32)


def notes():
    texts = [
        ("old", "Switched the project's message queue from Kafka to NATS"),
        ("web", "Web framework for the project going forward: Django"),
        ("db", "Database for the project going forward: PostgreSQL"),
        ("billing", "Event bus for the billing service going forward: Amazon SQS"),
        ("new", "Event bus for the project going forward: Redis Streams"),
        ("fix", "Fixed the flaky login test"),
    ]
    return [Memory(i, "decisions", T0 + timedelta(days=d), t, "") for d, (i, t) in enumerate(texts)]


def text_matrix():
    """Text vectors: the new note reads like the other 'going forward' notes, not like the old one."""
    x = np.array(
        [[1, 0, 0, 0.2], [0, 1, 0.1, 1], [0, 0.1, 1, 1], [0.1, 0, 0, 1], [0.15, 0.3, 0.3, 1], [0.3, 0.3, 0.3, 0.3]],
        dtype=np.float32,
    )
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def ids(memories, pairs):
    return {(memories[i].id, memories[j].id) for i, j, _ in pairs}


def test_slot_pairs_reach_a_synonym_slot_that_text_neighbours_miss():
    mem, x = notes(), text_matrix()
    assert ("old", "new") not in ids(mem, knn_pairs(x, 1, 0.0))
    pairs = slot_pairs(mem, x, PhraseEmbedder(), k=1)
    found = ids(mem, pairs)
    assert ("old", "new") in found
    # the pair carries the texts' cosine (what the judge is given), not the slot score
    (cos,) = [s for i, j, s in pairs if (mem[i].id, mem[j].id) == ("old", "new")]
    assert cos == pytest.approx(float(x[0] @ x[4]))


def test_slot_pairs_never_join_other_subjects_or_notes_without_an_attribute():
    mem, x = notes(), text_matrix()
    found = ids(mem, slot_pairs(mem, x, PhraseEmbedder(), k=10))
    assert all("fix" not in pair for pair in found)  # names no attribute
    assert ("old", "billing") not in found and ("billing", "new") not in found  # billing service vs project
    assert ("old", "new") in found and ("web", "db") in found
    assert slot_pairs(mem, x, PhraseEmbedder(), k=0) == []
    assert slot_pairs(mem[:1], x[:1], PhraseEmbedder(), k=3) == []


@pytest.mark.slow  # over 4 s: runs with the slow suite (make test-slow, CI)
def test_slot_pairs_with_minilm_pair_message_queue_and_event_bus_of_one_subject():
    from memlab.embed.minilm import MiniLMEmbedder

    minilm = MiniLMEmbedder()
    mem = notes()
    x = np.asarray(minilm.encode([m.text for m in mem]), dtype=np.float32)
    found = ids(mem, slot_pairs(mem, x, minilm, k=1))
    assert ("old", "new") in found
    assert ("old", "billing") not in found


class HashEmbedder:
    """A fixed unit vector per string (deterministic), for any phrase or text."""

    name, version = "hash", 1

    def encode(self, texts):
        out = []
        for t in texts:
            seed = int.from_bytes(hashlib.sha256(t.encode()).digest()[:4], "big")
            v = np.random.default_rng(seed).normal(size=8)
            out.append(v / np.linalg.norm(v))
        return np.asarray(out, dtype=np.float32)


ATTRS = ["Event bus", "Message queue", "Web framework", "Database", "Test runner"]
SUBJECTS = ["project", "billing service"]
NOTE = st.one_of(
    st.tuples(st.sampled_from(ATTRS), st.sampled_from(SUBJECTS), st.sampled_from(["Kafka", "NATS", "Django"])).map(
        lambda t: f"{t[0]} for the {t[1]} going forward: {t[2]}"
    ),
    st.sampled_from(["Fixed the flaky login test", "Paired on the release notes"]),
)


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(NOTE, min_size=0, max_size=12), k=st.integers(0, 4))
def test_slot_pairs_invariants(texts, k):
    from memlab.text.attributes import attribute_phrases
    from memlab.text.slot_parse import parse

    mem = [Memory(f"m{i}", "decisions", T0 + timedelta(days=i), t, "") for i, t in enumerate(texts)]
    x = HashEmbedder().encode([m.text for m in mem]) if mem else np.zeros((0, 8), dtype=np.float32)
    pairs = slot_pairs(mem, x, HashEmbedder(), k)
    keys = [(i, j) for i, j, _ in pairs]
    assert keys == sorted(set(keys)) and all(i < j for i, j in keys)
    assert len(pairs) <= k * len(mem)
    for i, j, cos in pairs:
        assert attribute_phrases(mem[i]) and attribute_phrases(mem[j])
        si, sj = parse(mem[i]).subjects, parse(mem[j]).subjects
        assert not (si and sj and not si & sj)
        assert cos == pytest.approx(float(x[i] @ x[j]), abs=1e-5)


def run_slot(verdict, **settings):
    mem = notes()
    comps = components(
        TableJudge({("old", "new"): verdict}),
        knn_k=1,
        min_pair_similarity=0.999,  # no text pair: every judged pair comes from the slot source
        knn_k_slot=1,
        **settings,
    )
    comps = replace(comps, embedder=MatrixEmbedder(mem))
    store = MemoryStore(mem)
    consolidate(store, comps, T0 + timedelta(days=10))
    return store


class MatrixEmbedder(PhraseEmbedder):
    """Texts get :func:`text_matrix` rows, phrases the :data:`PHRASES` vectors."""

    def __init__(self, memories):
        self.rows = {m.text: row for m, row in zip(memories, text_matrix(), strict=True)}

    def encode(self, texts):
        return np.asarray([self.rows[t] if t in self.rows else PHRASES[t] for t in texts], dtype=np.float32)


def test_a_slot_only_supersede_is_reviewed_not_applied_by_default():
    store = run_slot(Verdict(Relation.SUPERSEDE, 0.9, "sure"))
    assert store.state("old").superseded_by is None
    assert [(r["older"], r["newer"], r["relation"]) for r in store.review_queue] == [("old", "new", "SUPERSEDE")]
    assert contested(store, T0 + timedelta(days=10)) == {"old": 0.9}


def test_a_slot_only_verdict_below_the_slot_confidence_is_dropped():
    store = run_slot(Verdict(Relation.SUPERSEDE, 0.4, "weak"), knn_slot_min_confidence=0.5)
    assert store.review_queue == [] and store.state("old").superseded_by is None


def test_a_slot_only_supersede_is_applied_without_slot_review():
    store = run_slot(Verdict(Relation.SUPERSEDE, 0.9, "sure"), knn_slot_review=False)
    assert store.state("old").superseded_by == "new" and store.review_queue == []
