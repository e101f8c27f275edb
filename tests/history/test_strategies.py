"""Contract tests of the options this part adds: clusterer=knn_graph, selector=current_facts; exact dedup."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.types import InjectionCandidate, Memory, SelectionContext
from memlab.pipeline.consolidate import consolidate
from memlab.pipeline.store import MemoryStore
from memlab.strategies.clusterer.base import ClustererBase
from memlab.strategies.selector.base import SelectorBase
from memlab.text.tokens import item_tokens
from memlab.wiring.build import build, build_components
from tests.support.compose import compose_cfg

T0 = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("group", "option", "protocol"),
    [("clusterer", "knn_graph", ClustererBase), ("selector", "current_facts", SelectorBase)],
)
def test_options_compose_and_build(group, option, protocol):
    cfg = compose_cfg([f"{group}={option}", "embedder=tfidf"])
    obj = build(cfg[group], group)
    assert isinstance(obj, protocol)
    assert obj.name == option and obj.version >= 1


def _blobs(seed: int, n_per: int = 6) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(4, 16))
    rows = np.concatenate([c + 0.05 * rng.normal(size=(n_per, 16)) for c in centres])
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _partition(labels):
    groups: dict[int, set[int]] = {}
    for i, lab in enumerate(labels):
        if lab >= 0:
            groups.setdefault(int(lab), set()).add(i)
    return sorted(map(sorted, groups.values()))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 1000), st.permutations(list(range(24))))
def test_knn_graph_order_independent(seed, perm):
    from memlab.strategies.clusterer.knn_graph import KnnGraphClusterer

    x = _blobs(seed)
    ts = [T0 + timedelta(hours=i) for i in range(len(x))]
    clusterer = KnnGraphClusterer(k=5, similarity_threshold=0.9, min_cluster_size=3, max_cluster_size=20)
    base = clusterer.fit_predict(x, ts)
    assert len(base) == len(x)
    perm = np.array(perm)
    permuted = clusterer.fit_predict(x[perm], [ts[i] for i in perm])
    back = np.empty_like(permuted)
    back[perm] = permuted
    assert _partition(back) == _partition(base)
    assert len(_partition(base)) == 4


def _candidate(i: int, ns: str, days: int, text: str) -> InjectionCandidate:
    return InjectionCandidate(
        f"c{i:02d}", "memory", ns, f"- [{ns}, 2025-01-0{1 + days % 9}] {text} — body " * 1, T0 + timedelta(days=days)
    )


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 600),
    st.lists(st.sampled_from(["decisions", "progress", "patterns", "other"]), min_size=0, max_size=30),
)
def test_current_facts_budget_unique_deterministic(budget, namespaces):
    from memlab.strategies.selector.current_facts import CurrentFactsSelector

    selector = CurrentFactsSelector(max_chars=60)
    cands = [_candidate(i, ns, i, f"fact number {i % 7}") for i, ns in enumerate(namespaces)]
    context = SelectionContext(now=T0 + timedelta(days=40))
    chosen = selector.select(cands, context, budget)
    assert sum(item_tokens(c.text) for c in chosen) <= budget
    assert len({c.id for c in chosen}) == len(chosen) and len({c.text for c in chosen}) == len(chosen)
    assert chosen == selector.select(list(reversed(cands)), context, budget)
    assert all(len(c.text) <= 60 for c in chosen)


def test_current_facts_prefers_decisions_then_newest():
    from memlab.strategies.selector.current_facts import CurrentFactsSelector

    cands = [
        _candidate(1, "progress", 5, "noise"),
        _candidate(2, "decisions", 1, "old decision"),
        _candidate(3, "decisions", 3, "new decision"),
    ]
    chosen = CurrentFactsSelector().select(cands, SelectionContext(now=T0 + timedelta(days=9)), 1000)
    assert [c.id for c in chosen] == ["c03", "c02", "c01"]
    assert chosen[0].text.endswith("new decision")


def test_exact_dedup_reaches_every_copy_beyond_k():
    memories = [
        Memory(f"m{i:03d}", "progress", T0 + timedelta(minutes=i), "same summary", "same body") for i in range(40)
    ]
    memories += [Memory("z", "progress", T0, "other", "text")]
    components = build_components(compose_cfg(["embedder=tfidf", "clusterer=none", "pipeline.knn_k=2"]))
    store = MemoryStore(memories)
    consolidate(store, components, T0 + timedelta(days=1))
    assert all(store.state(f"m{i:03d}").duplicate_of == "m000" for i in range(1, 40))
    assert store.state("m000").duplicate_of is None and store.state("z").duplicate_of is None


def test_knn_graph_identical_rows_share_a_component():
    from memlab.strategies.clusterer.knn_graph import KnnGraphClusterer

    x = np.concatenate([np.repeat(_blobs(1)[:1], 30, axis=0), _blobs(2)])
    ts = [T0 + timedelta(minutes=i) for i in range(len(x))]
    labels = KnnGraphClusterer(k=2, similarity_threshold=0.9, max_cluster_size=50).fit_predict(x, ts)
    assert len(set(labels[:30].tolist())) == 1 and labels[0] >= 0
    capped = KnnGraphClusterer(k=2, similarity_threshold=0.9, max_cluster_size=20).fit_predict(x, ts)
    assert (capped[:30] == -1).all()
