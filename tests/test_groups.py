"""The strategy groups are written once (memlab/core/groups.py): the conf, the allow-list, the Components fields, the
base classes and the group lists derived elsewhere agree with the table."""

from __future__ import annotations

import importlib
from dataclasses import fields

import yaml

from memlab.adapter.spec import DEFAULT_OPTIONS
from memlab.benchmarks.base import POLICY
from memlab.core.groups import BASES, CONFIG_DEFAULTS, GROUPS, OTHER_BUILT_GROUPS, SETTINGS_GROUPS, SPEC_DEFAULTS
from memlab.core.paths import CONF_DIR
from memlab.wiring.build import available_groups, available_options
from memlab.wiring.components import Components
from memlab.wiring.strategy_index import TARGETS


def defaults_list() -> list[tuple[str, str]]:
    """``(group, option)`` of conf/config.yaml's defaults list, in order."""
    raw = yaml.safe_load((CONF_DIR / "config.yaml").read_text(encoding="utf-8"))["defaults"]
    return [next(iter(item.items())) for item in raw if isinstance(item, dict)]


def test_config_yaml_picks_the_tables_option_of_every_group_in_build_order():
    picked = [(g, o) for g, o in defaults_list() if g in GROUPS]
    assert picked == [(g, CONFIG_DEFAULTS[g]) for g in GROUPS]


def test_every_group_is_a_conf_folder_holding_its_default_options():
    assert set(GROUPS) <= set(available_groups())
    for group in GROUPS:
        assert CONFIG_DEFAULTS[group] in available_options(group)
        assert SPEC_DEFAULTS[group] in available_options(group)


def test_no_conf_folder_is_a_strategy_group_missing_from_the_table():
    settings_like = {"paths", "dataset", "llm", "tracking", "hydra", "experiment", "search"}
    assert set(available_groups()) - settings_like == set(GROUPS)


def test_the_derived_lists_follow_the_table():
    assert list(BASES) == list(GROUPS)
    assert [f.name for f in fields(Components)][: len(GROUPS)] == list(GROUPS)
    assert set(TARGETS) == {*GROUPS, *OTHER_BUILT_GROUPS}
    assert list(DEFAULT_OPTIONS) == list(GROUPS)
    assert set(POLICY) == ({*GROUPS} - {"temporal", "reader"}) | set(SETTINGS_GROUPS)


def test_every_allow_listed_strategy_inherits_its_groups_base():
    for group in GROUPS:
        module, _, name = BASES[group].rpartition(".")
        base = getattr(importlib.import_module(module), name)
        for target in TARGETS[group]:
            module, _, name = target.rpartition(".")
            try:
                cls = getattr(importlib.import_module(module), name)
            except ModuleNotFoundError:  # an optional package (hdbscan, dateparser, dspy) not installed
                continue
            assert issubclass(cls, base), f"{target} does not inherit {BASES[group]}"
