"""Re-captures: the recapture judge, content-keyed exact duplicates, the blocker source and kept-out pairs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.core.types import Memory, Relation, Verdict
from memlab.pipeline.candidates import later_pairs
from memlab.pipeline.phases import judge_pairs
from memlab.pipeline.verdicts import exact_key, is_title
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.recapture import RecaptureJudge, passage, window_overlap
from tests.test_pipeline import components

T0 = datetime(2025, 12, 1, tzinfo=UTC)
TEXT = (
    "| 5.1.3 | Implement the scan phase | done |\n| 5.1.4 | Implement the cluster phase | done |\n"
    "| 5.1.5 | Implement the summarize phase | done |\n| 5.1.6 | Implement the tier phase | done |"
)


def rec(mid, content, summary=None, hours=0, namespace="progress"):
    return Memory(
        mid, namespace, T0 + timedelta(hours=hours), summary if summary is not None else content[:40], content
    )


def test_passage_reads_escapes_cut_marks_and_spaces():
    assert passage(rec("a", '...a\\n  "b"\\t c…')) == 'a "b" c'
    assert passage(rec("a", "", summary="...only a summary...")) == "only a summary"


def test_shifted_and_nested_windows_overlap():
    a, b = TEXT[:120], TEXT[60:]
    size, share = window_overlap(a, b)
    assert size == 60 and share == pytest.approx(60 / min(len(a), len(b)))
    assert window_overlap(TEXT[10:90], TEXT) == (80, 1.0)
    assert window_overlap(TEXT[1:90], TEXT[:91]) == (89, 1.0)  # a cut mid-word at either edge


def test_a_changed_value_is_not_a_recapture():
    old = "The staging database listens on port 5432 and keeps seven days of backups."
    new = "The staging database listens on port 6543 and keeps seven days of backups."
    assert window_overlap(old, new)[1] < 0.5
    judge = RecaptureJudge()
    assert judge.judge(rec("a", old), rec("b", new, hours=1)).relation is Relation.COEXIST
    assert (
        judge.judge(rec("a", TEXT[:120] + "..."), rec("b", "..." + TEXT[40:], hours=1)).relation is Relation.DUPLICATE
    )


def test_a_list_recaptured_with_its_task_boxes_changed_is_superseded():
    todo = "...retry on timeout\n- [ ] Implemented\n- [ ] Tested\n- [ ] Verified\n### Next: the batch insert..."
    judge = RecaptureJudge()
    ticked = judge.judge(rec("a", todo), rec("b", todo.replace("[ ] Tested", "[x] Tested"), hours=1))
    assert ticked.relation is Relation.SUPERSEDE and "task boxes" in ticked.reason
    cleared = judge.judge(rec("a", todo.replace("[ ]", "[X]")), rec("b", todo, hours=1))
    assert cleared.relation is Relation.SUPERSEDE  # a box cleared again: the newer is still the list's state
    assert judge.judge(rec("a", todo), rec("b", todo, hours=1)).relation is Relation.DUPLICATE
    shifted = judge.judge(rec("a", todo), rec("b", "..." + todo[20:].replace("[ ] Verified", "[x] Verified"), hours=1))
    assert shifted.relation is Relation.SUPERSEDE  # a shifted window of the list, a box ticked inside it
    other = "...retry on timeout\n- [x] Documented\n- [ ] Released\n### Next: the index rebuild..."
    assert judge.judge(rec("a", todo), rec("b", other, hours=1)).relation is Relation.COEXIST  # another list


def test_a_whole_statement_is_not_a_window_of_its_extension():
    judge = RecaptureJudge()
    short, longer = rec("a", "The API listens on port 80"), rec("b", "The API listens on port 8080", hours=1)
    assert judge.judge(short, longer).relation is Relation.COEXIST
    grown = rec("b", "Use Redis for caching. Sessions are cached there too from now on.", hours=1)
    assert judge.judge(rec("a", "Use Redis for caching."), grown).relation is Relation.COEXIST
    assert judge.judge(rec("a", "Use Redis for caching...."), grown).relation is Relation.DUPLICATE  # a cut excerpt


@given(st.text(min_size=1, max_size=80), st.text(min_size=1, max_size=80))
def test_window_overlap_is_symmetric_and_bounded(a, b):
    size, share = window_overlap(a, b)
    assert (size, share) == window_overlap(b, a)
    assert 0 <= size <= min(len(a), len(b)) and 0.0 <= share <= 1.0


def test_identical_content_under_a_title_is_one_memory():
    body = "Port conflict blocking Docker Compose services\nAnother project's Prometheus uses port 9090."
    a = Memory("a", "learnings", T0, "Port conflict blocking Docker Compose services", body)
    b = Memory("b", "learnings", T0 + timedelta(hours=1), "▶ learned ───\nPort conflict blocking Docker...", body)
    c = Memory("c", "learnings", T0, "Upgrade to Prometheus 3.1 next week", body)  # says more than the body
    assert is_title(a.summary, body) and is_title(b.summary, body) and not is_title(c.summary, body)
    assert exact_key(a) == exact_key(b) != exact_key(c)


def test_later_pairs_reach_a_later_record_in_any_namespace():
    matrix = np.eye(4, dtype=np.float32)
    matrix[3] = matrix[0]  # the fix reads like the blocker
    matrix[1] = matrix[0]  # an earlier look-alike
    pairs = later_pairs(matrix, sources=[2], rank=[0, 1, 2, 3], k=1, min_similarity=0.0)
    assert [(i, j) for i, j, _ in pairs] == [(2, 3)]
    found = later_pairs(matrix, sources=[0], rank=[0, 1, 2, 3], k=2, min_similarity=0.5)
    assert sorted((i, j) for i, j, _ in found) == [(0, 1), (0, 3)]
    assert later_pairs(matrix, sources=[3], rank=[0, 1, 2, 3], k=2, min_similarity=0.0) == []


class Supersedes(JudgeBase):
    name = "always_supersede"
    version = 1

    def judge(self, older, newer, similarity=None):
        return Verdict(Relation.SUPERSEDE, 0.9, "scripted")

    def judge_capture(self, older, newer, similarity=None):  # as the cascade's first stage does
        return RecaptureJudge().judge(older, newer)


def test_kept_out_pairs_are_read_only_as_recaptures():
    frag_a, frag_b = rec("fa", TEXT[:120] + "..."), rec("fb", "..." + TEXT[40:], hours=1)
    mem_a, mem_b = rec("ma", "Deployed search to staging."), rec("mb", "Deployed search to production.", hours=2)
    late = rec("late", TEXT[:120] + " and more...", hours=3)
    comps = components(judge=Supersedes())
    admitted = {"fa": False, "fb": False, "ma": True, "mb": True, "late": True}
    todo = [(frag_a, frag_b, 0.9), (mem_a, mem_b, 0.8), (frag_a, mem_b, 0.5), (frag_a, late, 0.9)]
    verdicts = judge_pairs(comps, todo, admitted)
    assert verdicts[0].relation is Relation.DUPLICATE  # two kept-out windows of one passage
    assert verdicts[1].relation is Relation.SUPERSEDE  # admitted: the policy's judge reads it
    assert verdicts[2].relation is Relation.COEXIST  # never a supersession through a kept-out record
    assert verdicts[3].relation is Relation.COEXIST  # an admitted newer record is never hidden behind a kept-out one


def test_a_kept_out_list_ticked_later_supersedes_only_what_the_block_does_not_show():
    todo = "...retry on timeout\n- [ ] Implemented\n- [ ] Tested\n- [ ] Verified\n### Next: the batch insert..."
    ticked = todo.replace("[ ] Tested", "[x] Tested")
    old_frag, new_frag = rec("of", todo), rec("nf", ticked, hours=1)
    old_mem, new_mem = rec("om", todo, hours=2), rec("nm", ticked, hours=3)
    admitted = {"of": False, "nf": False, "om": True, "nm": True}
    pairs = [(old_frag, new_frag, 0.9), (old_mem, new_frag, 0.9), (old_frag, new_mem, 0.9)]
    verdicts = judge_pairs(components(judge=Supersedes()), pairs, admitted)
    assert [v.relation for v in verdicts] == [Relation.SUPERSEDE, Relation.COEXIST, Relation.SUPERSEDE]


def test_each_memory_object_is_keyed_once_per_store_and_a_replaced_one_again(monkeypatch):
    """`exact_keys` reads a memory's text once per store (a 100k store missed the function's LRU cache on every
    call), and a memory replaced under its id (a new object, other text) gets its own key, not the cached one."""
    from memlab.pipeline import verdicts
    from memlab.pipeline.store import MemoryStore

    calls: list[str] = []
    real = verdicts.exact_key
    monkeypatch.setattr(verdicts, "exact_key", lambda m: calls.append(m.id) or real(m))
    t = datetime(2026, 1, 1, tzinfo=UTC)
    memories = [Memory(f"m{i}", "progress", t, f"note {i % 3}", "") for i in range(6)]
    store = MemoryStore(memories)
    first = verdicts.exact_keys(store, memories)
    assert verdicts.exact_keys(store, memories) == first and sorted(calls) == sorted(m.id for m in memories)
    assert first["m0"] == first["m3"] != first["m1"]
    replaced = Memory("m0", "progress", t, "note 1", "")
    assert verdicts.exact_keys(store, [replaced]) == {"m0": first["m1"]} and calls.count("m0") == 2
