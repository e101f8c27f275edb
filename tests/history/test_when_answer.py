"""Which context item answers a ``when`` question (memlab.benchmarks.project_history.when_answer)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlab.benchmarks.project_history.when_answer import when_memory
from memlab.core.types import Edge, EdgeType, Memory
from memlab.pipeline.context import ContextItem, QueryContext
from memlab.pipeline.store import MemoryStore
from memlab.strategies.temporal.rules import RulesResolver
from memlab.text.modality import prospective, retrospective


def _m(mid: str, day: int, summary: str, content: str = "") -> Memory:
    return Memory(mid, "decisions", datetime(2025, 3, day, 10, tzinfo=UTC), summary, content)


def _context(*memories: Memory) -> QueryContext:
    items = tuple(ContextItem(m, rank, 1.0 / (1 + rank), m.text) for rank, m in enumerate(memories))
    return QueryContext((), items, 0)


@pytest.mark.parametrize(
    ("text", "ahead", "back"),
    [
        ("Moved CI from Travis to GitHub Actions.", False, False),
        ("We might try GitHub Actions next sprint.", True, False),
        ("Should we look at GitHub Actions?", True, False),
        ("Proposal: evaluate GitHub Actions; nothing decided.", True, False),
        ("The release will be on 1 May.", True, False),
        ("For the record: CI moved to GitHub Actions in March.", False, True),
        ("Reminder: we are still on GitHub Actions.", False, True),
        ("Looking back, the move was right.", False, True),
    ],
)
def test_modality_markers(text, ahead, back):
    assert (prospective(text), retrospective(text)) == (ahead, back)


def test_recorded_prefers_the_note_that_changed_the_fact_over_plans_and_recaps():
    decision = _m("a", 1, "Use Travis CI")
    plan = _m("b", 3, "Thinking about GitHub Actions", "We might move CI to GitHub Actions next sprint.")
    change = _m("c", 10, "CI on GitHub Actions", "Moved CI from Travis to GitHub Actions.")
    recap = _m("d", 20, "CI recap", "For the record: CI moved to GitHub Actions in March.")
    store = MemoryStore([decision, plan, change, recap])
    store.add_edge(Edge("c", "a", EdgeType.SUPERSEDES))
    # retrieval put the plan and the recap first; the change is third
    assert when_memory(store, _context(plan, recap, change), "recorded", RulesResolver()).id == "c"
    # without a supersession edge: the first note that neither plans nor retells
    store.edges.clear()
    assert when_memory(store, _context(plan, recap, change), "recorded", RulesResolver()).id == "c"
    # a note the store holds as a duplicate of an earlier one is not the record either
    store.update_state("c", duplicate_of="a")
    assert when_memory(store, _context(plan, recap, change), "recorded", RulesResolver()).id == "b"  # first item
    assert when_memory(store, _context(), "recorded", RulesResolver()) is None


def test_mentioned_prefers_a_note_naming_another_day_than_its_own():
    blocker = _m("a", 12, "Blocked: webhooks failing", "Signature checks fail since yesterday.")
    fixed = _m("b", 13, "Webhooks fixed", "Fixed this morning; bookings confirmed.")
    plain = _m("c", 14, "Webhook notes", "Raw body passthrough is required.")
    store = MemoryStore([blocker, fixed, plain])
    resolver = RulesResolver(prefer="past")
    assert when_memory(store, _context(fixed, plain, blocker), "mentioned", resolver).id == "a"
    assert when_memory(store, _context(plain, fixed), "mentioned", resolver).id == "b"  # only its own day
    assert when_memory(store, _context(plain), "mentioned", resolver).id == "c"


def test_questions_about_events_are_asked_about_the_past():
    """``when`` and ``history`` questions ask about past events (contested facts stay eligible); ``current`` and
    ``as_of`` ask what holds (a pending doubt keeps a fact out)."""
    from datetime import UTC, datetime

    from memlab.benchmarks.project_history.evaluate_queries import episode_query
    from memlab.data.project_history.schema import GoldQuery

    at = datetime(2025, 3, 1, tzinfo=UTC)
    end = datetime(2025, 6, 1, tzinfo=UTC)
    past = {
        k: episode_query(GoldQuery(k, k, "Which?", at, "x", ("m1",)), end).past
        for k in ("current", "as_of", "when", "history")
    }
    assert past == {"current": False, "as_of": False, "when": True, "history": True}
