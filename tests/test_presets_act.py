"""The seed presets act on the shipped histories, with their seeds' mechanisms and prompts."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Summary, SummaryDecision, SupersededFact, Tier
from memlab.embed.tfidf import TfidfEmbedder
from memlab.pipeline.episode import Episode, run_episode
from memlab.pipeline.inject import summary_candidate
from memlab.pipeline.online import merged_memory
from memlab.strategies.clusterer.time_window import TimeWindowClusterer
from memlab.strategies.judge.dspy_judge import DSPyJudge
from memlab.strategies.judge.none import NoJudge
from memlab.strategies.retention.sliding_window import SlidingWindowRetention
from memlab.strategies.retriever.none import NoRetriever
from memlab.strategies.selector.recency import RecencySelector
from memlab.strategies.summarizer.dspy_summarizer import DSPySummarizer, prompt_parts
from memlab.strategies.summarizer.running_document import RunningDocumentSummarizer
from memlab.strategies.temporal.none import NoResolver
from memlab.wiring.components import Components, PipelineSettings
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
PRESETS = ("squidbot", "astra", "mycelic", "seed_git_notes_memory")


def stamps(n: int, same: int = 0) -> list[datetime]:
    """``n`` timestamps a minute apart; the last ``same`` share the previous one's time."""
    out = [T0 + timedelta(minutes=i) for i in range(n - same)]
    return out + [out[-1]] * same


def test_archive_chunks_every_archived_memory():
    clusterer = TimeWindowClusterer(mode="archive", trigger=10, keep=3)
    assert (clusterer.fit_predict(np.zeros((10, 1)), stamps(10)) == -1).all()  # at the trigger: nothing archived
    labels = clusterer.fit_predict(np.zeros((25, 1)), stamps(25))
    # 22 archived (all but the newest 3) in chunks of 10 + 1 − 3 = 8: 8, 8 and the 6 left; nothing dropped
    assert list(labels) == [0] * 8 + [1] * 8 + [2] * 6 + [-1] * 3


def test_archive_chunks_a_live_memory_tied_with_an_archived_one_and_ignore_row_order():
    clusterer = TimeWindowClusterer(mode="archive", trigger=4, keep=2)
    times = stamps(6, same=2)  # the three newest share one time: the retention archives one of them by id
    labels = clusterer.fit_predict(np.zeros((6, 1)), times)
    assert list(labels) == [0, 0, 0, 1, 1, 1]
    order = [5, 2, 0, 4, 1, 3]
    shuffled = clusterer.fit_predict(np.zeros((6, 1)), [times[i] for i in order])
    assert list(shuffled) == [labels[i] for i in order]
    with pytest.raises(MemlabError, match="keep <= trigger"):
        TimeWindowClusterer(mode="archive", trigger=2, keep=3).fit_predict(np.zeros((4, 1)), stamps(4))


def squidbot(clusterer) -> Components:
    return Components(
        embedder=TfidfEmbedder(),
        retention=SlidingWindowRetention(trigger=40, keep=8),
        clusterer=clusterer,
        summarizer=RunningDocumentSummarizer(),
        judge=NoJudge(),
        temporal=NoResolver(),
        selector=RecencySelector(max_items=8, min_confidence=0.0, summaries_first=True),
        retriever=NoRetriever(),
        settings=PipelineSettings(schedule="every_n", schedule_every=7),
    )


def unsummarised_archived(components: Components, n: int = 200) -> tuple[int, int, int]:
    """(archived, archived in no summary, summaries) after a squidbot episode over ``n`` memories spread over days."""
    memories = tuple(
        Memory(f"m{i:03d}", "progress", T0 + timedelta(hours=10 * i), f"step {i} of the migration") for i in range(n)
    )
    store = run_episode(Episode("e", memories), components).store
    archived = [m for m in store.memories if store.state(m).tier is Tier.ARCHIVED]
    cited = {i for s in store.summaries.values() for i in s.source_ids}
    return len(archived), sum(m not in cited for m in archived), len(store.summaries)


def test_squidbot_summarises_every_archived_memory():
    archived, lost, summaries = unsummarised_archived(squidbot(TimeWindowClusterer(mode="archive", trigger=40, keep=8)))
    assert (archived, lost) == (192, 0)
    assert summaries == 6  # chunks of 33: five full and the 27 left
    # the old pairing (one-day windows of at least 3) leaves archived memories out of every section
    _, old_lost, _ = unsummarised_archived(squidbot(TimeWindowClusterer(mode="fixed")))
    assert old_lost > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_llm_and_nollm_forms_share_the_mechanism(preset):
    llm = compose_cfg([f"+experiment={preset}"])
    nollm = compose_cfg([f"+experiment={preset}_nollm"])
    for group in ("retention", "clusterer", "selector", "pipeline"):
        assert llm[group] == nollm[group], group


def test_presets_state_their_seeds_knobs():
    squid = compose_cfg(["+experiment=squidbot"])
    assert (squid["retention"]["trigger"], squid["retention"]["keep"]) == (40, 8)
    assert squid["clusterer"]["mode"] == "archive" and squid["clusterer"]["trigger"] == 40
    assert squid["clusterer"]["keep"] == 8 == squid["selector"]["max_items"]
    assert squid["summarizer"]["prompt"] == "squidbot"
    astra = compose_cfg(["+experiment=astra"])
    assert astra["clusterer"]["mode"] == "gap" and astra["clusterer"]["gap_minutes"] == 720.0
    assert astra["summarizer"]["prompt"] == "astra"
    assert astra["pipeline"]["insights"] and astra["pipeline"]["identity_anchor"]
    for name in ("mycelic", "mycelic_nollm"):
        pipeline = compose_cfg([f"+experiment={name}"])["pipeline"]
        assert pipeline["min_judge_confidence"] == 0.8 and pipeline["online_archive_superseded"] is True
    assert compose_cfg(["+experiment=mycelic"])["judge"]["merge"] == "llm"
    assert compose_cfg(["+experiment=seed_git_notes_memory"])["pipeline"]["summary_details"] is True
    assert compose_cfg([])["pipeline"]["summary_details"] is False


def test_each_prompt_has_its_own_signature():
    seed, _ = prompt_parts("seed")
    squid, squid_fields = prompt_parts("squidbot")
    astra, astra_fields = prompt_parts("astra")
    assert {"emotional_arc", "key_interactions", "unresolved_threads"} <= set(astra.output_fields)
    assert "section" in squid.output_fields and "section" not in seed.output_fields
    assert len({seed.instructions, squid.instructions, astra.instructions}) == 3
    fields = astra_fields(
        {
            "narrative": "Fixed the flaky build.",
            "emotional_arc": "from frustration to relief",
            "key_interactions": ["pinned the runner image"],
            "unresolved_threads": ["ARM builds untested"],
            "source_ids": ["m1"],
        }
    )
    assert fields["summary"] == "Fixed the flaky build. Emotional arc: from frustration to relief"
    assert fields["key_facts"] == ["Key interaction: pinned the runner image", "Unresolved: ARM builds untested"]
    assert squid_fields({"section": "## s", "facts_to_remember": ["a"]})["key_facts"] == ["a"]
    with pytest.raises(MemlabError, match="unknown dspy summarizer prompt"):
        prompt_parts("nope")


CLUSTER = [
    Memory("m1", "decisions", T0, "Use Flask for the API"),
    Memory("m2", "decisions", T0 + timedelta(minutes=5), "Switch the API to FastAPI"),
]


def field_reply(**fields) -> str:
    body = "".join(f"[[ ## {k} ## ]]\n{v if isinstance(v, str) else json.dumps(v)}\n\n" for k, v in fields.items())
    return body + "[[ ## completed ## ]]"


def test_astra_cannot_form_an_insight_on_the_builtin_history_as_its_preset_says():
    """Astra's rule needs ``insight_min_cluster_size`` narratives ending within ``insight_lookback_days``; the
    built-in history's sessions (split at ``gap_minutes``, narrated from 2 memories) never bring 3 within 7 days.
    """
    import itertools

    from memlab.data.project_history.builtin import generate

    cfg = compose_cfg(["+experiment=astra_nollm"])
    gap, need = timedelta(minutes=cfg["clusterer"]["gap_minutes"]), cfg["pipeline"]["insight_min_cluster_size"]
    window = timedelta(days=cfg["pipeline"]["insight_lookback_days"])
    times = sorted(m.timestamp for m in generate(0).memories)
    sessions = [[times[0]]]
    for before, after in itertools.pairwise(times):
        if after - before > gap:
            sessions.append([])
        sessions[-1].append(after)
    ends = [s[-1] for s in sessions if len(s) >= cfg["clusterer"]["min_cluster_size"]]
    most = max(sum(1 for e in ends if t - window <= e <= t) for t in ends)
    assert (len(times), len(ends), most, need) == (58, 11, 2, 3)  # the numbers conf/experiment/astra_nollm.yaml gives


def test_astra_narrative_and_insight_through_the_llm():
    narrative = field_reply(
        narrative="Moved the API to FastAPI.",
        emotional_arc="hesitant, then confident",
        key_interactions=["decided on FastAPI"],
        unresolved_threads=["load test pending"],
        source_ids=["m1", "m2"],
    )
    insight = field_reply(pattern="Framework choices get revisited within a week.", category="process")
    with StubOpenAI(replies=[narrative, insight]) as stub:
        s = DSPySummarizer(llm=stub.llm_config(), prompt="astra")
        out = s.summarize(CLUSTER)
        written = s.write_insight([out])
        prompts = [" ".join(m["content"] for m in r["messages"]) for r in stub.requests]
    assert out.summary == "Moved the API to FastAPI. Emotional arc: hesitant, then confident"
    assert out.key_facts == ("Key interaction: decided on FastAPI", "Unresolved: load test pending")
    assert out.source_ids == ("m1", "m2")
    assert written == ("Framework choices get revisited within a week.", "process")
    assert "emotional arc" in prompts[0].lower() and "recurring pattern" in prompts[1].lower()
    assert DSPySummarizer(llm={"model": "x"}).write_insight([out]) is None  # only Astra's prompt writes patterns


def test_squidbot_section_through_the_llm():
    section = field_reply(
        section="## Week 10\n- API on FastAPI", facts_to_remember=["API uses FastAPI"], outdated=[], source_ids=["m2"]
    )
    with StubOpenAI(replies=[section]) as stub:
        out = DSPySummarizer(llm=stub.llm_config(), prompt="squidbot").summarize(CLUSTER)
        prompt = " ".join(m["content"] for m in stub.requests[0]["messages"])
    assert out.summary == "## Week 10 - API on FastAPI" and out.key_facts == ("API uses FastAPI",)
    assert out.source_ids == ("m2",) and "leaving the agent's context window" in prompt


def test_mycelic_merge_prompt_writes_the_combined_text():
    older, newer = CLUSTER
    assert merged_memory(older, newer).summary == "Use Flask for the API; Switch the API to FastAPI"  # stand-in
    with StubOpenAI(replies=[field_reply(merged="The API moved from Flask to FastAPI.")]) as stub:
        judge = DSPyJudge(llm=stub.llm_config(), merge="llm")
        text = judge.merge_text(older, newer)
    combined = merged_memory(older, newer, text)
    assert combined.summary == "The API moved from Flask to FastAPI." and combined.meta["merged_by"] == "merge_prompt"
    assert combined.meta["sources"] == ["m1", "m2"]
    assert DSPyJudge(llm={"model": "x"}).merge_text(older, newer) is None  # merge: join (the default)
    with pytest.raises(MemlabError, match=r"judge\.merge"):
        DSPyJudge(llm={"model": "x"}, merge="rewrite").merge_text(older, newer)


def test_summary_details_draw_key_facts_decisions_and_superseded_lines():
    summary = Summary(
        "s1",
        "decisions",
        "API framework settled.",
        ("API uses FastAPI",),
        (SummaryDecision("Use FastAPI", "async support", "shipped"),),
        (SupersededFact("Use Flask for the API", "Switch the API to FastAPI", "m1"),),
        T0,
        T0 + timedelta(days=1),
        ("m1", "m2"),
        1.0,
    )
    now = T0 + timedelta(days=2)
    plain = summary_candidate(summary, now)
    assert plain.text == "- [decisions summary, 2025-03-03..2025-03-04] API framework settled."
    assert summary_candidate(summary, now, details=True).text.split("\n") == [
        plain.text,
        "  - Key fact: API uses FastAPI",
        "  - Decision: Use FastAPI; why: async support; outcome: shipped",
        "  - Superseded: Use Flask for the API → Switch the API to FastAPI",
    ]


def test_locomo_reports_astra_extras_only_when_they_run(tmp_path):
    from memlab.run import run
    from tests.locomo.tiny import tiny, write

    path = write(tmp_path / "t.json", tiny())
    base = ["dataset=locomo", f"dataset.path={path}", "embedder=tfidf", "retriever=bm25"]
    astra = [*base, "+experiment=astra_nollm", "embedder=tfidf", "retriever=bm25", "clusterer.min_cluster_size=1"]
    with_extras = run(compose_cfg(astra), tmp_path / "a").metrics
    assert with_extras["n_narratives"] >= 1 and "n_insights" in with_extras and "n_anchor_updates" in with_extras
    plain = run(compose_cfg(base), tmp_path / "b").metrics
    assert not {"n_narratives", "n_insights", "anchor_drift"} & set(plain)
