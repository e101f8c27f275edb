"""The scaling changes give the results of the straightforward code they replace (issue 19)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.types import Edge, EdgeType, Memory, Tier
from memlab.embed.knn import knn_pairs
from memlab.pipeline.recall import MODE_TIERS, eligible
from memlab.pipeline.store import MemoryStore
from memlab.strategies.retriever.topk import VectorBank, top_order
from memlab.text import slot_parse

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def knn_pairs_reference(matrix: np.ndarray, k: int, min_similarity: float, block: int) -> list[tuple[int, int, float]]:
    """The loop :func:`knn_pairs` had before it was vectorised."""
    n = matrix.shape[0]
    if n < 2 or k <= 0:
        return []
    k_eff = min(k, n - 1)
    mat = np.asarray(matrix, dtype=np.float32)
    found: dict[tuple[int, int], float] = {}
    for lo in range(0, n, block):
        hi = min(n, lo + block)
        sims = mat[lo:hi] @ mat.T
        rows = np.arange(hi - lo)
        sims[rows, rows + lo] = -np.inf
        part = (
            np.argpartition(-sims, k_eff - 1, axis=1)[:, :k_eff]
            if k_eff < n - 1
            else np.argsort(-sims, axis=1, kind="stable")[:, :k_eff]
        )
        for r, cols in enumerate(part):
            i = lo + r
            for j in cols:
                s = float(sims[r, j])
                if s < min_similarity:
                    continue
                found[(i, int(j)) if i < j else (int(j), i)] = s
    return [(i, j, s) for (i, j), s in sorted(found.items())]


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 40),
    k=st.integers(0, 8),
    threshold=st.sampled_from([-1.0, 0.0, 0.2, 0.5]),
    block=st.integers(1, 16),
    repeats=st.integers(1, 3),
    seed=st.integers(0, 2**16),
)
def test_knn_pairs_equals_the_loop_it_replaced(n, k, threshold, block, repeats, seed):
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(max(1, n // repeats), 6)).astype(np.float32)
    mat = np.repeat(base, repeats, axis=0)[:n]  # repeated rows: ties
    mat /= np.maximum(np.linalg.norm(mat, axis=1, keepdims=True), 1e-9)
    got = knn_pairs(mat, k, threshold, block)
    assert got == knn_pairs_reference(mat, k, threshold, block)
    assert all(type(i) is int and type(j) is int and type(s) is float for i, j, s in got)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.sampled_from([0.0, 0.1, 0.5, 0.5, 1.0, -2.0]), min_size=0, max_size=30),
    limit=st.integers(0, 35),
)
def test_top_order_is_the_prefix_of_the_full_sort(values, limit):
    scores = np.asarray(values, dtype=np.float32)
    full = np.lexsort((np.arange(len(scores)), -scores))
    assert top_order(scores, limit).tolist() == full[:limit].tolist()
    assert top_order(scores, None).tolist() == full.tolist()


def test_vector_bank_embeds_each_text_once_and_scores_every_row():
    calls: list[list[str]] = []

    class Embedder:
        model_id = "toy"

        def encode(self, texts):
            calls.append(list(texts))
            return np.asarray([[len(t), 1.0] for t in texts], dtype=np.float32)

    bank = VectorBank("toy")
    rows = bank.lookup(["bb", "a", "bb"], Embedder())
    rows2 = bank.lookup(["ccc", "a"], Embedder())
    assert calls == [["a", "bb"], ["ccc"]]
    assert rows.tolist() == [1, 0, 1] and rows2.tolist() == [2, 0]
    assert bank.scores(np.asarray([[1.0, 0.0]])).ravel().tolist() == [1.0, 2.0, 3.0]


def test_recall_of_a_pool_with_positions_equals_recall_of_the_plain_list(monkeypatch):
    from memlab.data.project_history.generator import generate
    from memlab.pipeline import recall as recall_module
    from memlab.strategies.retriever import engine
    from memlab.wiring.build import build_components
    from tests.support.compose import compose_cfg

    monkeypatch.setattr(engine, "BANK_MIN_UNITS", 5)  # the vector bank for every pool
    cfg = compose_cfg(["+experiment=project_history_large", "dataset.size=300"])
    history = generate(0, 300)
    memories = sorted(history.memories, key=lambda m: (m.timestamp, m.id))
    questions = [q.question for q in history.queries[:6]]
    results = {}
    units = recall_module.units
    for plain in (False, True):
        if plain:  # eligible as the list it returned before it carried positions
            monkeypatch.setattr(recall_module, "units", lambda *a, **kw: list(units(*a, **kw)))
        components = build_components(cfg, groups=("embedder", "retriever"))
        store = MemoryStore(memories[:150])
        got = []
        for cut in (150, 220, 300):  # per version of the store: a small as-of pool first, then larger pools
            store.add(memories[:cut])
            now = memories[cut - 1].timestamp
            for as_of, mode in [(memories[cut // 3].timestamp, "standard"), (None, "standard"), (None, "exhaustive")]:
                hits = recall_module.recall_many(
                    store, components, questions, now, mode=mode, limit=5, as_of=as_of, track=False
                )
                got.append([[(h.memory.id, h.score, h.tier, h.rank) for h in q] for q in hits])
        results[plain] = got
    assert results[False] == results[True]
    assert any(any(q) for step in results[False] for q in step)


def eligible_reference(store: MemoryStore, mode: str, now: datetime, as_of: datetime | None) -> list[str]:
    """The loop :func:`eligible` runs when it cannot use its arrays."""
    if as_of is not None:
        return [m.id for m in store.ordered(until=as_of) if store.valid_at(m.id, as_of)]
    out = []
    for memory in store.ordered(until=now):
        state = store.state(memory.id)
        if state.tier not in MODE_TIERS[mode]:
            continue
        if mode != "exhaustive":
            if not store.valid_at(memory.id, now):
                continue
            if state.duplicate_of and state.duplicate_of in store.memories:
                continue
        out.append(memory.id)
    return out


@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(0, 25))
def test_eligible_arrays_match_the_loop(data, n):
    hours = data.draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    store = MemoryStore(
        Memory(f"m{i:02d}", "decisions", T0 + timedelta(hours=h), f"note {i}") for i, h in enumerate(hours)
    )
    for i in range(n):
        mid = f"m{i:02d}"
        store.update_state(mid, tier=data.draw(st.sampled_from(list(Tier))))
        if data.draw(st.booleans()):
            store.update_state(mid, valid_until=T0 + timedelta(hours=data.draw(st.integers(0, 30))))
        if data.draw(st.booleans()):
            store.update_state(mid, duplicate_of=data.draw(st.sampled_from([f"m{j:02d}" for j in range(n)] + ["gone"])))
    now = T0 + timedelta(hours=data.draw(st.integers(-1, 31)))
    as_of = data.draw(st.one_of(st.none(), st.integers(-1, 31).map(lambda h: T0 + timedelta(hours=h))))
    for mode in MODE_TIERS:
        assert [m.id for m in eligible(store, mode, now, as_of)] == eligible_reference(store, mode, now, as_of)


def test_store_caches_follow_every_write():
    store = MemoryStore([Memory("b", "decisions", T0 + timedelta(hours=2), "b")])
    assert [m.id for m in eligible(store, "standard", T0 + timedelta(days=1))] == ["b"]
    store.add([Memory("a", "decisions", T0, "a")])
    assert [m.id for m in store.ordered()] == ["a", "b"]
    store.states["b"] = store.states["b"].__class__(memory_id="b", tier=Tier.ARCHIVED)  # a direct write
    assert [m.id for m in eligible(store, "standard", T0 + timedelta(days=1))] == ["a"]
    assert [m.id for m in store.ordered(until=T0 + timedelta(hours=1))] == ["a"]


def edges_of_reference(store: MemoryStore, node_id: str) -> list[Edge]:
    """The scan over every edge that ``MemoryStore.edges_of`` did before it kept an index by node."""
    found = [e for e in store.edges.values() if node_id in (e.source, e.target)]
    return sorted(found, key=lambda e: (e.type.value, e.source, e.target))


_NODES = ["a", "b", "c", "d", "s"]
_EDGE_OPS = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(_NODES), st.sampled_from(_NODES), st.sampled_from(list(EdgeType))),
    st.tuples(st.just("write"), st.sampled_from(_NODES), st.sampled_from(_NODES), st.sampled_from(list(EdgeType))),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.tuples(st.just("retire"), st.sampled_from(_NODES)),
    st.tuples(st.just("copy")),
    st.tuples(st.just("look")),
)


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(_EDGE_OPS, max_size=30))
def test_edges_of_matches_the_scan_after_every_write(ops):
    import copy

    store = MemoryStore(Memory(n, "decisions", T0, n) for n in _NODES)
    for op in ops:
        if op[0] == "add":
            store.add_edge(Edge(op[1], op[2], op[3], reason=f"{len(store.edges)}"))
        elif op[0] == "write":  # a direct write, past add_edge
            store.edges[(op[1], op[2], op[3])] = Edge(op[1], op[2], op[3], reason="direct")
        elif op[0] == "delete" and store.edges:
            del store.edges[list(store.edges)[op[1] % len(store.edges)]]
        elif op[0] == "retire":
            store.retire_summary(op[1])
        elif op[0] == "copy":
            store = copy.deepcopy(store)
        for node in _NODES:
            assert store.edges_of(node) == edges_of_reference(store, node)
    store.edges = dict(store.edges)  # a plain dict put in from outside: no version, no cached index
    store.add_edge(Edge("a", "b", EdgeType.SUPERSEDES, reason="plain"))
    for node in _NODES:
        assert store.edges_of(node) == edges_of_reference(store, node)


def _changes_unfiltered(text: str) -> list[tuple]:
    out = []
    for name, pat in slot_parse.CHANGE_PATTERNS:
        for m in pat.finditer(text):
            g = m.groupdict()
            out.append(
                (name, slot_parse._value_tokens(g.get("old") or ""), slot_parse._value_tokens(g.get("new") or ""))
            )
    return out


@pytest.mark.parametrize(
    "text",
    [
        "Switched the billing service from Kafka to NATS.",
        "REPLACED Redis WITH Memcached for the cache; no longer needed: Celery. Going forward: RQ.",
        "Reverted back to Flask in staging. The outage over, deploys resumed.",
        "Postgres became the primary store. Uses pytest in CI, locally too, for the docs site.",
        "We don't use Jenkins anymore; GitHub Actions took over from Jenkins.",
        "Na\u00efve caf\u00e9 note: MOVED to Nomad instead of Kubernetes in favour of simplicity.",
        "CircleCI has been replaced by Buildkite. The queue was SQS; it is now Kafka. Jest is once more the runner.",
        "From this week we release on Thursdays; Tom\u00e1s owns payments from today. v1 slips to 1 December.",
        "The move to API keys was reversed; starting now, Keycloak again. v2 now ships on 3 March.",
    ],
)
def test_change_and_scope_prefilters_change_nothing(text):
    for variant in (text, text.upper(), text.lower()):
        got = [(c.cue, c.old, c.new) for c in slot_parse.changes(variant)]
        assert got == _changes_unfiltered(variant)
        scopes = {s for pat, s in slot_parse.SCOPE_PATTERNS if s is not None and pat.search(variant)}
        assert slot_parse.scopes(variant) == frozenset(scopes)


def test_every_change_pattern_has_its_words():
    assert len(slot_parse._CHANGE_KEYS) == len(slot_parse.CHANGE_PATTERNS)
    for (_, pat), keys in zip(slot_parse.CHANGE_PATTERNS, slot_parse._CHANGE_KEYS, strict=True):
        assert any(re.search(re.escape(k), pat.pattern, re.IGNORECASE) for k in keys), pat.pattern


def _blocked_reference(mat, groups, k, threshold):
    from memlab.embed.knn import knn_pairs_within

    return {(i, j) for i, j, _ in knn_pairs_within(mat, groups, k, threshold)}


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(2, 40),
    k=st.integers(1, 6),
    blocks=st.integers(1, 4),
    cuts=st.lists(st.integers(1, 39), max_size=4),
    seed=st.integers(0, 2**16),
)
def test_blocked_knn_added_in_steps_finds_the_pairs_of_each_full_search(n, k, blocks, cuts, seed):
    from memlab.embed.knn_blocks import BlockedKnn

    rng = np.random.default_rng(seed)
    mat = rng.normal(size=(n, 5)).astype(np.float32)  # continuous: no exact ties
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    groups = [int(g) for g in rng.integers(0, blocks, size=n)]
    keys = [f"k{i:02d}" for i in range(n)]
    rows = {key: i for i, key in enumerate(keys)}
    index = BlockedKnn(k, 0.0)
    found: set[tuple[int, int]] = set()
    start = 0
    for stop in [*sorted({c for c in cuts if c < n}), n]:
        if stop <= start:
            continue
        step = index.add(keys[start:stop], groups[start:stop], mat, rows)
        pairs = {tuple(sorted((rows[a], rows[b]))) for a, b, _ in step}
        full_now = _blocked_reference(mat[:stop], groups[:stop], k, 0.0)
        assert pairs <= full_now  # every pair a step reports is a pair of the full search at that point
        assert not pairs & found  # and is reported once
        found |= pairs
        assert full_now <= found  # every pair of the full search has been reported by now
        start = stop


@settings(max_examples=80, deadline=None)
@given(data=st.data(), rows=st.integers(0, 6), cols=st.integers(1, 25))
def test_top_columns_is_the_prefix_of_the_stable_argsort(data, rows, cols):
    from memlab.embed.knn_blocks import top_columns

    values = st.sampled_from([-np.inf, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0])
    sims = np.array(data.draw(st.lists(values, min_size=rows * cols, max_size=rows * cols)), dtype=np.float32)
    sims = sims.reshape(rows, cols)
    k = data.draw(st.integers(1, cols))
    expected = np.argsort(-sims, axis=1, kind="stable")[:, :k]
    assert top_columns(sims, k).tolist() == expected.tolist()


def test_incremental_consolidation_judges_only_the_new_pairs():
    from memlab.data.project_history.generator import generate
    from memlab.pipeline.consolidate import consolidate
    from memlab.wiring.build import build_components
    from tests.support.compose import compose_cfg

    cfg = compose_cfg(["+experiment=project_history_large", "dataset.size=300", "pipeline.incremental=true"])
    components = build_components(
        cfg, groups=("embedder", "judge", "retention", "clusterer", "summarizer", "admission")
    )
    memories = sorted(generate(0, 300).memories, key=lambda m: (m.timestamp, m.id))
    store = MemoryStore(memories[:290])
    consolidate(store, components, memories[289].timestamp)
    before = set(store.judged)
    store.add(memories[290:])
    consolidate(store, components, memories[-1].timestamp)
    new_pairs = set(store.judged) - before
    new_ids = {m.id for m in memories[290:]}
    assert new_pairs and all(a in new_ids or b in new_ids for a, b in new_pairs)
    assert len(new_pairs) < 0.1 * len(before)


def test_learned_judge_many_equals_judge_of_each_pair():
    from memlab.data.project_history.generator import generate
    from memlab.embed.knn import knn_pairs
    from memlab.embed.tfidf import TfidfEmbedder
    from memlab.strategies.judge.learned import LearnedJudge

    memories = sorted(generate(3, 200).memories, key=lambda m: (m.timestamp, m.id))
    mat = TfidfEmbedder().encode([m.text for m in memories])
    pairs = [(memories[i], memories[j], s) for i, j, s in knn_pairs(mat, 5, 0.2)][:300]
    judge = LearnedJudge(supersede_threshold=0.2)
    judge.observe(memories)
    assert judge.judge_many(pairs) == [judge.judge(o, n, s) for o, n, s in pairs]
    assert judge.judge_many([]) == []


@pytest.mark.parametrize(
    ("target", "kwargs"),
    [
        ("memlab.strategies.clusterer.agglomerative.AgglomerativeClusterer", {"max_items": 5}),
        ("memlab.strategies.clusterer.hdbscan.HdbscanClusterer", {"max_items": 5}),
    ],
)
def test_a_clusterer_asked_for_too_many_items_names_the_scalable_option(target, kwargs):
    import importlib

    from memlab.core.errors import MemlabError

    module, name = target.rsplit(".", 1)
    clusterer = getattr(importlib.import_module(module), name)(**kwargs)
    vectors = np.eye(6, dtype=np.float32)
    with pytest.raises(MemlabError, match=r"exceeds max_items=5.*clusterer=knn_graph"):
        clusterer.fit_predict(vectors, [T0 + timedelta(hours=i) for i in range(6)])
