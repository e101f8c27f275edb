"""Every new option, composed through Hydra, runs a consolidation and a SessionStart block on a small history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlab.core.types import Memory
from memlab.pipeline.consolidate import consolidate
from memlab.pipeline.inject import store_block
from memlab.pipeline.store import MemoryStore
from memlab.wiring.build import build_components
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI

T0 = datetime(2025, 1, 1, tzinfo=UTC)
TOPICS = ["web framework", "database", "CI pipeline", "deployment target", "cache layer"]
NAMESPACES = ["decisions", "progress", "blockers", "learnings"]


def history() -> list[Memory]:
    out = []
    for i in range(40):
        topic = TOPICS[i % len(TOPICS)]
        out.append(
            Memory(
                f"m{i:02d}",
                NAMESPACES[i % len(NAMESPACES)],
                T0 + timedelta(days=3 * i, minutes=i),
                f"Update {i // len(TOPICS)} on the {topic}",
                f"Notes about the {topic}, revision {i // len(TOPICS)}.",
            )
        )
    return out


CASES = [
    ["retention=power_law"],
    ["retention=actr"],
    ["retention=salience_prune"],
    ["retention=sliding_window", "retention.trigger=10", "retention.keep=5"],
    ["retention=fifo_cap", "retention.capacity=7"],
    ["retention=overtaken", "retention.max_later_share=0.25"],
    ["clusterer=hdbscan"],
    ["clusterer=time_window", "clusterer.window_hours=240"],
    ["clusterer=time_window", "clusterer.mode=gap", "clusterer.gap_minutes=10000", "summarizer=session_narrative"],
    ["summarizer=running_document", "clusterer=time_window", "clusterer.window_hours=480"],
    ["summarizer=dspy", "clusterer=time_window", "clusterer.window_hours=480"],
    ["selector=mmr"],
    ["selector=knapsack"],
    ["selector=recency"],
    ["selector=retention_topk"],
]


@pytest.mark.parametrize("overrides", CASES, ids=[" ".join(c) for c in CASES])
def test_option_runs_through_the_pipeline(overrides, tmp_path):
    cfg = compose_cfg(["embedder=tfidf", *overrides])
    with StubOpenAI(replies=["%% not the expected format %%"]) as stub:
        if "llm" in cfg["summarizer"]:
            cfg["summarizer"]["llm"] = stub.llm_config()
            cfg["summarizer"]["cache_dir"] = str(tmp_path)
        components = build_components(cfg)
        store = MemoryStore(history())
        now = T0 + timedelta(days=150)
        result = consolidate(store, components, now)
        block = store_block(store, components, now, query="which web framework")
    assert sum(result.tier_counts.values()) == 40
    for summary in store.summaries.values():
        assert set(summary.source_ids) <= set(store.memories)
    assert block.tokens <= components.settings.budget_tokens
    if "retention=sliding_window" in overrides:
        assert result.tier_counts["archived"] == 35 and result.tier_counts["hot"] == 5
    if "retention=fifo_cap" in overrides:
        assert result.tier_counts["archived"] == 33
    if "retention=overtaken" in overrides:
        assert result.tier_counts["cold"] == 29 and result.tier_counts["hot"] == 11
    if any(o.startswith("summarizer=") for o in overrides):
        assert result.summaries_created >= 1
