"""The one builder: the allow-list matches conf/, off-list targets are refused, unused groups raise."""

from __future__ import annotations

import re

import pytest

from memlab.core.errors import MemlabError
from memlab.core.paths import CONF_DIR
from memlab.wiring.build import GROUPS, Unused, build_components, build_node, config_hash
from memlab.wiring.strategy_index import TARGETS
from tests.support.compose import compose_cfg


def conf_targets(group: str) -> set[str]:
    found = set()
    for path in (CONF_DIR / group).glob("*.yaml"):
        match = re.search(r"^_target_:\s*(\S+)", path.read_text(encoding="utf-8"), re.MULTILINE)
        if match:
            found.add(match.group(1))
    return found


@pytest.mark.parametrize("group", sorted(TARGETS))
def test_allow_list_names_exactly_the_conf_targets(group):
    assert TARGETS[group] == conf_targets(group)


def test_every_strategy_group_has_an_allow_list_and_a_none_option():
    for group in GROUPS:
        assert group in TARGETS
        if group != "embedder":
            assert (CONF_DIR / group / "none.yaml").is_file(), group


@pytest.mark.parametrize(
    "target",
    [
        "memlab.adapter.gitcli.run_git",  # a memlab function that runs a command
        "os.system",
        "memlab.strategies.judge.slot.SlotJudge",  # a real class, but of another group
        "memlab.strategies.selector.none.Nope",
    ],
)
def test_targets_off_the_allow_list_are_refused_before_import(target, monkeypatch):
    import importlib

    imported = []
    monkeypatch.setattr(importlib, "import_module", lambda name: imported.append(name))
    with pytest.raises(MemlabError, match="is not one of memlab's selector classes"):
        build_node({"_target_": target}, "selector", where="spec")
    assert imported == []


def test_bad_parameters_are_one_line():
    with pytest.raises(MemlabError, match=r"cannot build selector .*max_itemz"):
        build_node(
            {"_target_": "memlab.strategies.selector.seed_weighted.SeedWeightedSelector", "max_itemz": 3}, "selector"
        )


def test_unused_groups_raise_when_touched():
    comps = build_components(compose_cfg(["embedder=tfidf"]), groups=("temporal",), benchmark="temporal_norm")
    assert isinstance(comps.judge, Unused) and not isinstance(comps.temporal, Unused)
    with pytest.raises(MemlabError, match=r"benchmark 'temporal_norm' used strategy group 'judge'.*uses: temporal"):
        comps.judge.judge(None, None)
    with pytest.raises(MemlabError, match="selector"):
        _ = comps.selector.name


def test_config_and_spec_build_the_same_policy():
    cfg = compose_cfg(["embedder=tfidf", "judge=slot"])
    spec = {"strategies": {g: cfg[g] for g in GROUPS}, "pipeline": cfg["pipeline"], "llm": {}}
    a = build_components(cfg)
    b = build_components(spec, where="spec")
    for group in GROUPS:
        assert type(getattr(a, group)) is type(getattr(b, group))
        assert vars(getattr(a, group)) == vars(getattr(b, group))
    assert a.settings == b.settings


def test_config_hash_is_canonical():
    assert config_hash({"a": 1, "b": [1, 2]}) == config_hash({"b": [1, 2], "a": 1})
    assert len(config_hash({})) == 12


CASCADE = "memlab.strategies.judge.cascade.CascadeJudge"
SLOT = "memlab.strategies.judge.slot.SlotJudge"


def test_a_nested_node_is_built_as_an_option_of_the_same_group():
    from memlab.strategies.judge.slot import SlotJudge

    node = {"_target_": CASCADE, "learned": {"_target_": SLOT}, "slot": {"_target_": SLOT, "dup_jaccard": 0.5}}
    judge = build_node(node, "judge", where="spec")
    assert isinstance(judge.slot, SlotJudge) and judge.slot.dup_jaccard == 0.5
    several = build_node({**node, "slot": [{"_target_": SLOT}, {"_target_": SLOT}]}, "judge")
    assert [type(j) for j in several.slot] == [SlotJudge, SlotJudge]


@pytest.mark.parametrize(
    "target", ["os.system", "memlab.strategies.selector.none.NoSelector", "memlab.adapter.gitcli.run_git"]
)
def test_a_nested_node_off_its_groups_allow_list_is_refused(target):
    with pytest.raises(MemlabError, match="is not one of memlab's judge classes"):
        build_node({"_target_": CASCADE, "slot": {"_target_": target}}, "judge", where="spec")


def test_a_cascade_spec_from_before_its_stages_were_nodes_is_a_one_line_error():
    old = {"_target_": CASCADE, "fallback": "learned", "slot": {"_target_": SLOT}}
    with pytest.raises(MemlabError, match=r"^cannot build judge .*; re-export the spec$"):
        build_node(old, "judge", where="spec")


def test_the_cascade_config_reads_no_other_groups_keys():
    text = (CONF_DIR / "judge" / "cascade.yaml").read_text(encoding="utf-8")
    assert re.findall(r"\$\{([^}]*)\}", text) == []  # its stages' files read theirs
    assert "oc.select" not in text


def test_adding_a_judge_meets_errors_that_each_name_the_next_step(monkeypatch):
    """A new judge is three files: its class (``memlab/strategies/judge/<name>.py``), its option
    (``conf/judge/<name>.yaml``) and its line in the allow-list; each error a contributor meets on the way names
    the next step, and a class that does not subclass the kind is refused at build time, not mid-run."""
    import sys
    import types
    from datetime import UTC, datetime, timedelta

    from memlab.core.types import Memory, Relation, Verdict
    from memlab.pipeline.consolidate import consolidate
    from memlab.pipeline.store import MemoryStore
    from memlab.strategies.judge.base import JudgeBase
    from tests.test_pipeline import components as policy

    module = types.ModuleType("memlab.strategies.judge.keyword")
    target = f"{module.__name__}.KeywordJudge"
    monkeypatch.setitem(sys.modules, module.__name__, module)

    class KeywordJudge:  # step 1: the class as a newcomer writes it, its conf option naming it
        name, version = "keyword", 1

        def judge(self, older, newer, similarity=None):
            return Verdict(Relation.SUPERSEDE if "switched" in newer.text else Relation.COEXIST, 0.9, "keyword")

    module.KeywordJudge = KeywordJudge
    with pytest.raises(MemlabError, match=r"add it to TARGETS\['judge'\] in memlab/wiring/strategy_index\.py"):
        build_node({"_target_": target}, "judge")
    monkeypatch.setitem(TARGETS, "judge", TARGETS["judge"] | {target})  # step 2: its line in the allow-list
    with pytest.raises(MemlabError) as refused:
        build_node({"_target_": target}, "judge")
    assert str(refused.value).count("\n") == 0
    assert "does not subclass JudgeBase, the judge kind; declare it `class KeywordJudge(JudgeBase)`" in str(
        refused.value
    )
    module.KeywordJudge = type("KeywordJudge", (JudgeBase,), dict(vars(KeywordJudge)))  # step 3: the fix it names
    judge = build_node({"_target_": target}, "judge")
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    memories = [
        Memory("a", "decisions", t0, "Use Flask for the API", ""),
        Memory("b", "decisions", t0 + timedelta(days=1), "switched the API from Flask to FastAPI", ""),
    ]
    result = consolidate(MemoryStore(memories), policy(judge), t0 + timedelta(days=2))
    assert result.edges_created == {"supersedes": 1}  # observe, judge_many ...: the base gave them
