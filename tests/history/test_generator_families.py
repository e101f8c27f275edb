"""Phrasing families (the generator's ``style``) and hard negatives."""

from __future__ import annotations

from collections import Counter

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Relation
from memlab.data.project_history.generator import generate
from memlab.data.project_history.generator_events import HARD_NEGATIVES
from memlab.data.project_history.generator_families import (
    QUERY_KINDS,
    families,
    parse_style,
    scope_thing,
)
from memlab.data.project_history.generator_topics import TOPICS

POOLS = ("decide", "change", "revert", "restate", "detail", "scoped")
LISTS = ("blocker_raise", "blocker_resolve", "plan", "passing", "recap")


def _templates(family) -> set[str]:
    out: set[str] = set()
    for pool in POOLS:
        plain, subtle = getattr(family, pool)
        for summary, content in (*plain, *subtle):
            out |= {summary, content}
    for name in LISTS:
        for summary, content in getattr(family, name):
            out |= {summary, content}
    for _ns, summary, content in (*family.noise, *family.distractor):
        out |= {summary, content}
    for kind in QUERY_KINDS:
        out |= set(family.queries[kind])
    return out


def _attribute_names(family) -> set[str]:
    names: set[str] = set()
    for topic in TOPICS:
        canonical, synonyms = family.attribute_names(topic)
        names |= {canonical.lower(), *(s.lower() for s in synonyms)}
    return names


def test_classic_is_byte_identical_to_the_generator_before_families():
    # sha256 of generate(0, 400) before the style knob existed (the default dataset of every figure)
    assert generate(0, 400).sha256() == "77e417d5061b2c829cf52cb159805063c57c6bfb7752b46b5a9de4125d836d1a"
    assert generate(3, 150, "easy", 0.3, "classic", 0.0).sha256() == (
        "649d60095606f8b42eee8cbab1755a20e36c285916831553a86bbbdb0c3dcb2f"
    )


def test_families_share_no_template_and_no_attribute_name():
    fams = list(families().values())
    assert [f.name for f in fams] == ["classic", "terse", "narrative", "ticket", "chat", "wiki"]
    for i, a in enumerate(fams):
        for b in fams[i + 1 :]:
            assert not _templates(a) & _templates(b), (a.name, b.name, _templates(a) & _templates(b))
            assert not _attribute_names(a) & _attribute_names(b), (a.name, b.name)
    for family in fams[1:]:
        assert all(len(family.attributes[t.key]) >= 2 for t in TOPICS), family.name


@pytest.mark.parametrize("style", ["terse", "narrative", "ticket", "chat", "wiki"])
def test_each_family_writes_a_history_with_the_same_gold_rules(style):
    events: list = []
    history = generate(9, 300, "default", 0.3, style, log=events)
    assert len(history.memories) == 300
    assert history.meta["style"] == style and style in history.name
    kinds = Counter(q.kind for q in history.queries)
    assert set(kinds) == {"current", "as_of", "when", "history"}
    assert Counter(e.kind for e in events)["change"] > 0
    classic_texts = {m.text for m in generate(9, 300).memories}
    assert not classic_texts & {m.text for m in history.memories if "distractor" not in m.tags}


def test_mixed_style_draws_families_per_instance_and_is_deterministic():
    a = generate(4, 300, "default", 0.3, "terse+chat")
    assert a.sha256() == generate(4, 300, "default", 0.3, "terse+chat").sha256()
    assert a.meta["style"] == "terse+chat"
    summaries = " ".join(m.summary for m in a.memories)
    assert "->" in summaries or "Swap" in summaries  # terse
    assert "Fyi" in summaries or "Bye" in summaries or "is live" in summaries  # chat


def test_parse_style_errors_and_scope_things():
    assert [f.name for f in parse_style("classic+terse+classic")] == ["classic", "terse"]
    with pytest.raises(MemlabError, match="unknown style family 'prose'"):
        parse_style("terse+prose")
    with pytest.raises(MemlabError, match="empty style"):
        parse_style("")
    assert scope_thing("for the docs site") == "docs site"
    assert scope_thing("in tests") == "tests"
    assert families()["terse"].say_scope("for the docs site") == "for docs site only"
    assert families()["classic"].say_scope("for the docs site") == "for the docs site"


def test_hard_negatives_are_plans_passing_mentions_and_recaps():
    events: list = []
    history = generate(11, 600, "default", 0.3, "classic", 0.2, log=events)
    kinds = Counter(e.kind for e in events)
    assert all(kinds[k] > 0 for k in HARD_NEGATIVES), kinds
    gold = {(r.older, r.newer): r.relation for r in history.relations}
    incoming = Counter(n for _o, n in gold)
    for event in events:
        if event.kind in ("plan", "passing"):
            assert incoming[event.memory] == 0 or all(
                gold[(o, n)] is Relation.DUPLICATE for o, n in gold if n == event.memory
            )  # only a word-for-word repeat of an earlier note makes one a duplicate
        if event.kind == "recap":
            assert event.targets and all(gold[(t, event.memory)] is Relation.DUPLICATE for t in event.targets)
    with pytest.raises(MemlabError, match="hard_negatives"):
        generate(0, 100, hard_negatives=1.0)
