"""Contract tests parametrized over every option of every conf group (options are discovered from conf/)."""

from __future__ import annotations

import copy
import functools
import importlib
import itertools
import string
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlab.benchmarks.base import Benchmark
from memlab.core.groups import BASES
from memlab.core.types import (
    TIER_ORDER,
    InjectionCandidate,
    Memory,
    MemoryState,
    Relation,
    SelectionContext,
    Tier,
)
from memlab.text.tokens import item_tokens
from memlab.wiring.build import GROUPS, available_options, build
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI

#: Groups with a ``none`` option (the ablation): all but the embedder (every run needs vectors).
STRATEGY_GROUPS = [g for g in GROUPS if g != "embedder"]
ANCHOR = datetime(2025, 3, 14, 15, 9, tzinfo=UTC)


def options(group: str) -> list[str]:
    return available_options(group)


_STUB: StubOpenAI | None = None


def stub_llm() -> dict:
    """An llm mapping pointing at a stub server that answers garbage (LLM options must survive it)."""
    global _STUB
    if _STUB is None:
        _STUB = StubOpenAI(replies=["%% not the expected format %%"]).__enter__()
    return _STUB.llm_config()


#: Per-option overrides that keep a contract test fast without changing what is tested.
FAST: dict[tuple[str, str], list[str]] = {}


@functools.cache
def built(group: str, option: str):
    cfg = compose_cfg([f"{group}={option}", "embedder=tfidf", *FAST.get((group, option), [])])
    return build(with_stub_llm(cfg[group]), group)


def with_stub_llm(node):
    """``node`` with every ``llm`` mapping in it (nested judges too) pointing at the stub: never a real model."""
    if isinstance(node, dict):
        return {k: stub_llm() if k == "llm" else with_stub_llm(v) for k, v in node.items()}
    return node


def params(group: str):
    return [pytest.param(group, o, id=f"{group}={o}") for o in options(group)]


ALL = [p for g in GROUPS for p in params(g)]


def mem(i: int, text: str = "", ns: str = "decisions", days: int = 0) -> Memory:
    return Memory(f"m{i:03d}", ns, ANCHOR + timedelta(days=days), text or f"memory number {i}", f"content {i}")


def test_every_strategy_group_has_none_option():
    for group in STRATEGY_GROUPS:
        assert "none" in options(group), f"conf/{group}/none.yaml is missing"


def base_of(group: str) -> type:
    module, _, name = BASES[group].rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize(("group", "option"), ALL)
def test_option_builds_as_its_kind(group, option):
    obj = built(group, option)
    assert isinstance(obj, base_of(group))
    assert isinstance(type(obj).name, str) and type(obj).name
    assert isinstance(type(obj).version, int) and type(obj).version >= 1


def _calls(group: str) -> dict[str, tuple]:
    """Arguments of one call of every method of the group's base class (a method missing here fails the test)."""
    a, b = mem(1, "Use Flask for the API"), mem(2, "Switched the API from Flask to FastAPI", days=1)
    x = np.eye(3, 8, dtype=np.float32)
    return {
        "embedder": {"encode": (["Use FastAPI"],), "encode_few": (["Use FastAPI"],)},
        "retention": {"score": (a, MemoryState(a.id), ANCHOR), "score_all": ([a], [MemoryState(a.id)], ANCHOR)},
        "clusterer": {"fit_predict": (x, [ANCHOR] * 3)},
        "summarizer": {"summarize": ([a, b],), "write_insight": ([],)},
        "judge": {
            "judge": (a, b, 0.5),
            "judge_many": ([(a, b, 0.5)],),
            "observe": ([a, b],),
            "set_eval_seed": (None,),
            "merge_text": (a, b),
            "judge_capture": (a, b, 0.5),
            "tally": (),
            "resume": ({},),
            "withdrawals": (),
        },
        "admission": {"admit": (a, {a.id: a}), "admit_all": ([a, b], {a.id: a, b.id: b})},
        "temporal": {"resolve": ("yesterday", ANCHOR)},
        "selector": {"select": ([candidate(1, 10, 0.5, 0.5, 0.5)], SelectionContext(now=ANCHOR), 100)},
        "retriever": {
            "rank": ("the API", [a, b], ANCHOR, built("embedder", "tfidf")),
            "rank_many": (["the API"], [a, b], ANCHOR, built("embedder", "tfidf")),
        },
        "reader": {"answer": ("Which framework does the API use?", [a, b], ANCHOR + timedelta(days=2))},
    }[group]


@pytest.mark.parametrize(("group", "option"), [p for p in ALL if p.values != ("embedder", "minilm")])
def test_every_method_of_the_kind_is_traced(group, option):
    """A run traces what its base class defines (:func:`memlab.observability.trace.instrument`): every method, optional
    ones (``judge_many``) included, is a span ``group.method`` when the pipeline calls it."""
    from types import SimpleNamespace

    from memlab.observability import trace

    methods = {n for n in dir(base_of(group)) if not n.startswith("_") and callable(getattr(base_of(group), n))}
    calls = _calls(group)
    assert set(calls) == methods
    components = SimpleNamespace(**{group: copy.copy(built(group, option))})
    if (group, option) == ("judge", "record"):  # its own MiniLM takes seconds to load; any embedder is traced alike
        components.judge.embedder = built("embedder", "tfidf")
    assert trace.instrument(components, [group]) == len(methods)
    trace.start({})
    try:
        for method, args in calls.items():
            getattr(getattr(components, group), method)(*args)
    finally:
        tree = trace.stop()
    assert {f"{group}.{m}" for m in methods} <= {node["name"] for node in tree["children"]}


@pytest.mark.parametrize(("group", "option"), params("retention"))
def test_retention_in_unit_interval_and_never_rises_with_age(group, option):
    fn = built(group, option)
    for ns in ("decisions", "progress", "unknown-namespace"):
        m = mem(1, ns=ns)
        for state in (
            MemoryState(m.id),
            MemoryState(m.id, activation_count=50, last_accessed=ANCHOR),
            MemoryState(m.id, superseded_by="x"),
        ):
            prev = None
            for days in (0, 1, 7, 30, 365, 3650):
                s = fn.score(m, state, ANCHOR + timedelta(days=days))
                assert 0.0 <= s.overall <= 1.0
                assert isinstance(s.tier, Tier)
                if prev is not None:
                    assert s.overall <= prev + 1e-12
                prev = s.overall


def _retention_cases() -> tuple[list[Memory], list[MemoryState]]:
    """Memories of several namespaces, ages and access histories (for the batch contract)."""
    memories, states = [], []
    for i in range(24):
        m = mem(i, f"note {i % 5} about topic {i % 3}", ns=("decisions", "progress", "other")[i % 3], days=-7 * i)
        memories.append(m)
        accesses = tuple(ANCHOR - timedelta(days=d) for d in range(0, i % 4))
        states.append(
            MemoryState(
                m.id,
                activation_count=len(accesses),
                last_accessed=accesses[-1] if accesses else None,
                superseded_by="x" if i % 5 == 0 else None,
                access_times=accesses,
            )
        )
    return memories, states


def _tier_monotone(scores) -> None:
    rank = {t: i for i, t in enumerate(TIER_ORDER)}
    for a in scores:
        for b in scores:
            if a.overall > b.overall:
                assert rank[a.tier] <= rank[b.tier], f"higher score {a.overall} got a colder tier than {b.overall}"


@pytest.mark.parametrize(("group", "option"), params("retention"))
def test_retention_batch_contract(group, option):
    fn = built(group, option)
    memories, states = _retention_cases()
    prev = None
    for days in (0, 10, 40, 400, 4000):
        now = ANCHOR + timedelta(days=days)
        scores = list(fn.score_all(memories, states, now, references={}))
        assert len(scores) == len(memories)
        assert fn.score_all([memories[3]], [states[3]], now)[0] == fn.score(memories[3], states[3], now)
        assert list(fn.score_all(memories, states, now)) == scores  # pure
        assert all(0.0 <= s.overall <= 1.0 and isinstance(s.tier, Tier) for s in scores)
        _tier_monotone(scores)
        if prev is not None:
            assert all(s.overall <= p.overall + 1e-12 for s, p in zip(scores, prev, strict=True))
        prev = scores


@pytest.mark.parametrize(("group", "option"), params("clusterer"))
def test_clusterer_partition_is_order_independent(group, option):
    clusterer = built(group, option)
    rng = np.random.default_rng(0)
    centers = rng.normal(size=(3, 16))
    x = np.concatenate([c + 0.05 * rng.normal(size=(5, 16)) for c in centers])
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    ts = [ANCHOR + timedelta(hours=i) for i in range(len(x))]
    labels = clusterer.fit_predict(x, ts)
    assert len(labels) == len(x)
    perm = rng.permutation(len(x))
    labels_perm = clusterer.fit_predict(x[perm], [ts[i] for i in perm])

    def partition(lab, idx):
        groups: dict[int, set[int]] = {}
        for pos, lab_i in enumerate(lab):
            if lab_i >= 0:
                groups.setdefault(int(lab_i), set()).add(int(idx[pos]))
        return sorted(sorted(g) for g in groups.values())

    assert partition(labels, np.arange(len(x))) == partition(labels_perm, perm)
    assert len(clusterer.fit_predict(np.zeros((0, 16)), [])) == 0


@pytest.mark.parametrize(("group", "option"), params("summarizer"))
def test_summarizer_cites_only_given_ids(group, option):
    summarizer = built(group, option)
    cluster = [mem(i, f"Use tool {i % 2}", days=i) for i in range(5)]
    out = summarizer.summarize(cluster)
    again = summarizer.summarize(list(reversed(cluster)))
    assert out == again
    if out is not None:
        assert set(out.source_ids) <= {m.id for m in cluster}
        cited = [m for m in cluster if m.id in out.source_ids]
        assert out.temporal_start == min(m.timestamp for m in cited)
        assert out.temporal_end == max(m.timestamp for m in cited)


@pytest.mark.parametrize(("group", "option"), params("judge"))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.text(max_size=300), b=st.text(max_size=300), sim=st.one_of(st.none(), st.floats(-1, 1)))
def test_judge_always_answers_a_relation(group, option, a, b, sim):
    judge = built(group, option)
    older = Memory("o", "decisions", ANCHOR, a, b)
    newer = Memory("n", "decisions", ANCHOR + timedelta(days=1), b, a)
    verdict = judge.judge(older, newer, similarity=sim)
    assert verdict.relation in set(Relation)
    assert 0.0 <= verdict.confidence <= 1.0


@pytest.mark.parametrize(("group", "option"), params("temporal"))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=st.one_of(
        st.text(max_size=200),
        st.lists(
            st.sampled_from(
                [
                    "yesterday",
                    "last week",
                    "a month ago",
                    "on Friday",
                    "in May 2023",
                    "today",
                    "2 days ago",
                    "x",
                    "the day before",
                    ",",
                    "next month",
                ]
            ),
            max_size=8,
        ).map(" ".join),
    ),
    offset=st.integers(min_value=-4000, max_value=4000),
)
def test_temporal_intervals_are_half_open_and_inside_text(group, option, text, offset):
    resolver = built(group, option)
    anchor = ANCHOR + timedelta(days=offset)
    refs = resolver.resolve(text, anchor)
    spans = []
    for ref in refs:
        assert ref.start < ref.end
        lo, hi = ref.span
        assert 0 <= lo < hi <= len(text)
        spans.append((lo, hi))
        assert 0.0 <= ref.confidence <= 1.0
    spans.sort()
    for (_, hi), (lo2, _) in itertools.pairwise(spans):
        assert hi <= lo2, "spans overlap"


def candidate(i: int, text_len: int, rel: float, rec: float, act: float, conf: float = 1.0) -> InjectionCandidate:
    return InjectionCandidate(
        id=f"c{i:03d}",
        kind="memory",
        namespace="decisions",
        text="x" * text_len,
        timestamp=ANCHOR,
        relevance=rel,
        recency=rec,
        activation=act,
        confidence=conf,
    )


cand_strategy = st.lists(
    st.builds(
        candidate,
        st.integers(0, 40),
        st.integers(0, 900),
        st.floats(0, 1),
        st.floats(0, 1),
        st.floats(0, 1),
        st.floats(0, 1),
    ),
    max_size=30,
)


@pytest.mark.parametrize(("group", "option"), params("selector"))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cands=cand_strategy, budget=st.integers(0, 3000), seed=st.integers(0, 1000))
def test_selector_budget_no_duplicates_order_independent(group, option, cands, budget, seed):
    selector = built(group, option)
    ctx = SelectionContext(now=ANCHOR)
    chosen = selector.select(cands, ctx, budget)
    assert sum(item_tokens(c.text, ctx.chars_per_token) for c in chosen) <= budget
    assert len({c.id for c in chosen}) == len(chosen)
    shuffled = list(cands)
    np.random.default_rng(seed).shuffle(shuffled)
    assert [c.id for c in selector.select(shuffled, ctx, budget)] == [c.id for c in chosen]


@pytest.mark.parametrize("option", [o for o in options("embedder") if o != "minilm"])
def test_embedder_unit_rows_and_batch_independent(option):
    emb = built("embedder", option)
    texts = ["Use FastAPI for the API", "Switched CI to GitHub Actions", "", "ünïcödé ✓", string.punctuation]
    full = emb.encode(texts)
    assert full.shape[0] == len(texts) and full.dtype == np.float32
    norms = np.linalg.norm(full, axis=1)
    assert np.all((np.abs(norms - 1) < 1e-5) | (norms == 0))
    for i, t in enumerate(texts):
        assert np.array_equal(emb.encode([t])[0], full[i])
    assert isinstance(emb.model_id, str) and emb.model_id


@pytest.mark.parametrize("option", options("dataset"))
def test_dataset_option_builds_a_benchmark(option, tmp_path):
    raw = compose_cfg([f"dataset={option}", "embedder=tfidf"], resolve=False)
    extra = [f"dataset.{k}={tmp_path / 'data.json'}" for k, v in raw["dataset"].items() if v == "???"]
    cfg = compose_cfg([f"dataset={option}", "embedder=tfidf", *extra])
    bench = build(cfg["dataset"], "dataset")
    assert isinstance(bench, Benchmark)


@pytest.mark.parametrize("option", options("tracking"))
def test_tracking_option_builds(option):
    cfg = compose_cfg([f"tracking={option}"])
    tracker = build(cfg["tracking"], "tracking")
    assert hasattr(tracker, "start") and hasattr(tracker, "finish")


@pytest.mark.parametrize("option", options("llm"))
def test_llm_option_composes(option):
    cfg = compose_cfg([f"llm={option}"])
    assert "model" in cfg["llm"]


RETRIEVER_TEXTS = [
    "Use FastAPI for the API",
    "Switched CI to GitHub Actions",
    "The API now uses Flask",
    "Deploy on Fridays is forbidden",
    "",
    "use fastapi for the api",
    "ünïcödé ✓ " + string.punctuation,
]


@pytest.mark.parametrize(("group", "option"), params("retriever"))
@given(query=st.text(max_size=40), order=st.permutations(range(len(RETRIEVER_TEXTS))))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_retriever_ranks_candidates_once_best_first(group, option, query, order):
    retriever = built(group, option)
    embedder = built("embedder", "tfidf")
    pool = [mem(i, t, days=i % 3) for i, t in enumerate(RETRIEVER_TEXTS)]
    candidates = [pool[i] for i in order]
    now = ANCHOR + timedelta(days=5)
    ranking = retriever.rank(query, candidates, now, embedder)
    ids = [unit_id for unit_id, _ in ranking]
    assert len(ids) == len(set(ids)) and set(ids) <= {m.id for m in candidates}
    scores = [score for _, score in ranking]
    assert scores == sorted(scores, reverse=True)  # best first
    assert retriever.rank(query, candidates, now, embedder) == ranking  # deterministic
    many = retriever.rank_many([query, "the API"], candidates, now, embedder)
    assert many[0] == ranking and many[1] == retriever.rank("the API", candidates, now, embedder)
    best = retriever.rank_many([query], candidates, now, embedder, limit=2)[0]
    assert best == ranking[: len(best)] and len(best) <= len(ranking)
    assert retriever.rank(query, [], now, embedder) == []
