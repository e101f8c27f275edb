"""The one builder: the allow-list matches conf/, off-list targets are refused, unused groups raise."""

from __future__ import annotations

import re

import pytest

from memlab.build import GROUPS, Unused, build_components, build_node, config_hash
from memlab.errors import MemlabError
from memlab.paths import CONF_DIR
from memlab.strategy_index import TARGETS
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

    judge = build_node({"_target_": CASCADE, "slot": {"_target_": SLOT, "dup_jaccard": 0.5}}, "judge", where="spec")
    assert isinstance(judge.slot, SlotJudge) and judge.slot.dup_jaccard == 0.5
    several = build_node({"_target_": CASCADE, "slot": [{"_target_": SLOT}, {"_target_": SLOT}]}, "judge")
    assert [type(j) for j in several.slot] == [SlotJudge, SlotJudge]


@pytest.mark.parametrize(
    "target", ["os.system", "memlab.strategies.selector.none.NoSelector", "memlab.adapter.gitcli.run_git"]
)
def test_a_nested_node_off_its_groups_allow_list_is_refused(target):
    with pytest.raises(MemlabError, match="is not one of memlab's judge classes"):
        build_node({"_target_": CASCADE, "slot": {"_target_": target}}, "judge", where="spec")


def test_a_cascade_spec_from_before_nested_nodes_is_a_one_line_error():
    with pytest.raises(MemlabError, match=r"cannot build judge .*_target_; re-export the spec"):
        build_node({"_target_": CASCADE, "slot": {"dup_jaccard": 0.5}}, "judge", where="spec")


def test_the_cascade_config_reads_no_other_groups_keys():
    text = (CONF_DIR / "judge" / "cascade.yaml").read_text(encoding="utf-8")
    read = set(re.findall(r"\$\{([^}]*)\}", text))
    assert read == {"seed", "learned_supersede_threshold", "cascade_edits", "llm", "paths.cache_dir"}
    assert "oc.select" not in text
