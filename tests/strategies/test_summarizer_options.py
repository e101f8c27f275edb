"""Summarizer options: extractive with superseded facts, session narrative, running document, and the DSPy
summarizer through the stub OpenAI server (no quality is claimed from the stub)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, SummaryDecision, SupersededFact
from memlab.strategies.summarizer.dspy_summarizer import DSPySummarizer
from memlab.strategies.summarizer.extractive import ExtractiveSummarizer
from memlab.strategies.summarizer.running_document import RunningDocumentSummarizer
from memlab.strategies.summarizer.session_narrative import SessionNarrativeSummarizer
from tests.support.stub_openai import StubOpenAI

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


def mem(i: int, summary: str, ns: str = "decisions", minutes: int = 0, content: str = "", **meta) -> Memory:
    return Memory(f"m{i}", ns, T0 + timedelta(minutes=minutes), summary, content, meta=meta)


FLASK = mem(1, "Use Flask for the API", content="Flask is simple. We know it.")
FASTAPI = mem(2, "Switch the API to FastAPI", minutes=60, content="Async support matters.")
CI = mem(3, "CI runs on GitHub Actions", ns="progress", minutes=120)
CLUSTER = [FASTAPI, CI, FLASK]


def test_extractive_fills_superseded_facts_from_the_mapping():
    plain = ExtractiveSummarizer().summarize(CLUSTER)
    assert plain.superseded_facts == () and plain.key_facts[-1] == "Use Flask for the API"
    out = ExtractiveSummarizer().summarize(CLUSTER, superseded={"m1": "m2", "m9": "m1"})
    assert out.superseded_facts == (SupersededFact("Use Flask for the API", "Switch the API to FastAPI", "m1"),)
    assert out.key_facts == ("CI runs on GitHub Actions", "Switch the API to FastAPI")
    assert out.decisions == (SummaryDecision("Switch the API to FastAPI", "Async support matters."),)
    assert out.source_ids == ("m1", "m2", "m3")  # the superseded memory is still a cited source
    outside = ExtractiveSummarizer().summarize(CLUSTER, superseded={"m3": "m77"})
    assert outside.superseded_facts == (SupersededFact("CI runs on GitHub Actions", "m77", "m3"),)


def test_session_narrative_by_hand():
    session = [
        mem(1, "Caroline: I went to the support group yesterday.", ns="dialogue", speaker="Caroline"),
        mem(2, "Melanie: How was the support group?", ns="dialogue", minutes=1, speaker="Melanie"),
        mem(3, "Caroline: The support group was inspiring.", ns="dialogue", minutes=2, speaker="Caroline"),
        mem(4, "Melanie: Will you paint this weekend?", ns="dialogue", minutes=3, speaker="Melanie"),
    ]
    out = SessionNarrativeSummarizer(max_interactions=2).summarize(list(reversed(session)))
    assert out.summary == (
        "Session 2025-01-06..2025-01-06, 4 items (Caroline, Melanie): "
        'began "Caroline: I went to the support group yesterday." … '
        'ended "Melanie: Will you paint this weekend?". 1 unresolved thread(s).'
    )
    # the three support-group turns share "support group"; turn 4 shares nothing → not a key interaction
    interactions = [f for f in out.key_facts if f.startswith("Key interaction:")]
    assert interactions == [
        "Key interaction: Melanie: How was the support group?",
        "Key interaction: Caroline: The support group was inspiring.",
    ]
    # turn 2's question is in the first half: not counted open; turn 4's is
    assert [f for f in out.key_facts if f.startswith("Unresolved:")] == [
        "Unresolved: Melanie: Will you paint this weekend?"
    ]
    assert out.source_ids == ("m1", "m2", "m3", "m4") and out.decisions == ()


def test_session_narrative_blockers_are_open_until_superseded():
    blocker = mem(5, "Build fails on ARM runners", ns="blockers", minutes=5)
    out = SessionNarrativeSummarizer().summarize([FLASK, blocker])
    assert "Unresolved: Build fails on ARM runners" in out.key_facts
    fixed = SessionNarrativeSummarizer().summarize([FLASK, blocker], superseded={"m5": "m99"})
    assert not any(f.startswith("Unresolved:") for f in fixed.key_facts)


def test_running_document_section():
    out = RunningDocumentSummarizer().summarize([*CLUSTER, mem(4, "Use Flask for the API", minutes=200)])
    assert out.summary == (
        "## 2025-01-06 .. 2025-01-06 (4 messages)\n"
        "- Use Flask for the API\n- Switch the API to FastAPI\n- CI runs on GitHub Actions"
    )
    marked = RunningDocumentSummarizer().summarize(CLUSTER, superseded={"m1": "m2"})
    assert marked.key_facts[0] == "~~Use Flask for the API~~ → Switch the API to FastAPI"
    small = RunningDocumentSummarizer(max_section_chars=30, min_line_chars=8).summarize(CLUSTER)
    # bounded by size, not by lines: every message keeps a line, each cut to an equal share (30 // 3 = 10)
    assert small.key_facts == ("Use Flask ", "Switch the", "CI runs on")
    floor = RunningDocumentSummarizer(max_section_chars=3, min_line_chars=6).summarize(CLUSTER)
    assert [len(f) for f in floor.key_facts] == [6, 6, 6]  # never below min_line_chars: no message is lost


def test_a_running_document_section_over_days_dates_every_line():
    days = [mem(1, "Use Flask for the API"), mem(2, "Switch the API to FastAPI", minutes=3000)]
    out = RunningDocumentSummarizer().summarize(days)
    assert out.key_facts[0].startswith("[2025-01-06] ") and out.key_facts[1].startswith("[2025-01-08] ")


def reply(
    summary="Moved from Flask to FastAPI.",
    facts=("API uses FastAPI",),
    decisions=None,
    superseded=None,
    ids=("m1", "m2"),
) -> str:
    decisions = decisions if decisions is not None else [{"decision": "Use FastAPI", "rationale": "async"}]
    superseded = superseded if superseded is not None else []
    return (
        f"[[ ## summary ## ]]\n{summary}\n\n[[ ## key_facts ## ]]\n{json.dumps(list(facts))}\n\n"
        f"[[ ## decisions ## ]]\n{json.dumps(decisions)}\n\n"
        f"[[ ## superseded_facts ## ]]\n{json.dumps(superseded)}\n\n"
        f"[[ ## source_ids ## ]]\n{json.dumps(list(ids))}\n\n[[ ## completed ## ]]"
    )


def test_dspy_summary_fields_and_prompt():
    text = reply(
        superseded=[
            {"original_fact": "Flask", "superseded_by": "FastAPI", "source_memory_id": "m1"},
            {"original_fact": "ghost", "superseded_by": "x", "source_memory_id": "m42"},
        ],
        ids=("m1", "m2", "m42"),
    )
    with StubOpenAI(replies=[text]) as stub:
        s = DSPySummarizer(llm=stub.llm_config())
        out = s.summarize(CLUSTER, superseded={"m1": "m2"})
        prompt = " ".join(m["content"] for m in stub.requests[0]["messages"])
    assert out.summary == "Moved from Flask to FastAPI."
    assert out.key_facts == ("API uses FastAPI",)
    assert out.decisions == (SummaryDecision("Use FastAPI", "async", None),)
    assert out.superseded_facts == (SupersededFact("Flask", "FastAPI", "m1"),)  # m42 is not a member: dropped
    assert out.source_ids == ("m1", "m2") and out.confidence == pytest.approx(2 / 3)
    assert (out.temporal_start, out.temporal_end) == (FLASK.timestamp, FASTAPI.timestamp)
    assert "[m3] (progress, 2025-01-06T11:00:00+00:00) CI runs on GitHub Actions" in prompt
    assert "m1 -> m2" in prompt and "superseded" in prompt.lower()
    assert s.failures_ == []


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "",
        reply(summary=""),
        reply().replace('["m1", "m2"]', '{"a": 1}'),
        reply(decisions=5),
        "[[ ## summary ## ]]\nonly this",
    ],
)
def test_dspy_malformed_output_falls_back(text):
    with StubOpenAI(replies=[text]) as stub:
        s = DSPySummarizer(llm=stub.llm_config())
        out = s.summarize(CLUSTER)
        assert out == ExtractiveSummarizer().summarize(CLUSTER)
        assert len(s.failures_) == 1
        assert DSPySummarizer(llm=stub.llm_config(), fallback="none").summarize(CLUSTER) is None


def test_dspy_cites_the_whole_cluster_when_every_id_is_invented():
    with StubOpenAI(replies=[reply(ids=("x1", "x2"))]) as stub:
        out = DSPySummarizer(llm=stub.llm_config()).summarize(CLUSTER)
    assert out.source_ids == ("m1", "m2", "m3") and out.confidence == 0.0


def test_dspy_server_error_falls_back():
    def boom(messages):
        raise RuntimeError("down")

    with StubOpenAI(responder=boom) as stub:
        out = DSPySummarizer(llm=stub.llm_config()).summarize(CLUSTER)
    assert out == ExtractiveSummarizer().summarize(CLUSTER)


def test_dspy_responses_are_cached_by_content(tmp_path):
    with StubOpenAI(replies=[reply()]) as stub:
        s = DSPySummarizer(llm=stub.llm_config(cache=True), cache_dir=str(tmp_path))
        first = s.summarize(CLUSTER)
        again = DSPySummarizer(llm=stub.llm_config(cache=True), cache_dir=str(tmp_path)).summarize(
            list(reversed(CLUSTER))
        )
        assert len(stub.requests) == 1 and again == first
        assert len(list(tmp_path.rglob("*.json"))) == 1
        DSPySummarizer(llm=stub.llm_config(cache=True), cache_dir=str(tmp_path)).summarize(CLUSTER[:2])  # other content
        assert len(stub.requests) == 2


def test_dspy_failures_are_not_cached(tmp_path):
    with StubOpenAI(replies=["garbage", reply()]) as stub:
        s = DSPySummarizer(llm=stub.llm_config(cache=True), cache_dir=str(tmp_path))
        assert s.summarize(CLUSTER) == ExtractiveSummarizer().summarize(CLUSTER)
        assert list(tmp_path.rglob("*.json")) == []
        assert s.summarize(CLUSTER).summary == "Moved from Flask to FastAPI."


def test_dspy_without_llm_is_a_configuration_error():
    with pytest.raises(MemlabError, match="llm="):
        DSPySummarizer(llm={"model": None}).summarize(CLUSTER)
    with pytest.raises(MemlabError, match="valid: extractive, none"):
        DSPySummarizer(llm={"model": "x"}, fallback="retry").summarize(CLUSTER)
