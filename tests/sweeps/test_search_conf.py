"""The Optuna searches of conf/search compose with every value they may try, and the development search never
reads evaluation data (composition only: no trial runs here)."""

from __future__ import annotations

import math

import pytest
import yaml
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.core.override_parser.types import ChoiceSweep, IntervalSweep, RangeSweep
from omegaconf import OmegaConf

from memlab.core.paths import CONF_DIR
from memlab.wiring.config import compose, compose_node

SEARCHES = sorted(p.stem for p in (CONF_DIR / "search").glob("*.yaml") if "params:" in p.read_text(encoding="utf-8"))
#: Evaluation data of the history benchmarks: generator seeds below 1000 (0-4 reported) and the built-in history.
DEV_SEEDS = {1020, 1021, 1022}


def search_params(name: str) -> dict[str, str]:
    """The search's ``hydra.sweeper.params`` (key -> sweep expression)."""
    hydra = compose_node([f"+search={name}"], return_hydra_config=True).hydra
    return {str(k): str(v) for k, v in OmegaConf.to_container(hydra.sweeper.params).items()}


def search_values(name: str) -> list[str]:
    """Every ``key=value`` override the search's parameters may give a trial (a range or interval: its ends)."""
    parsed = OverridesParser.create().parse_overrides([f"{k}={v}" for k, v in search_params(name).items()])
    out = []
    for override in parsed:
        sweep, key = override.value(), override.get_key_element()
        if isinstance(sweep, ChoiceSweep):
            values = list(sweep.list)
        elif isinstance(sweep, RangeSweep):
            values = [sweep.start, sweep.stop - (sweep.step or 1)]
        elif isinstance(sweep, IntervalSweep):
            values = [sweep.start, sweep.end]
        else:
            raise AssertionError(f"{name}: {key} is not a sweep: {sweep!r}")
        out += [f"{key}={v}" for v in values]
    return out


def test_the_searches_are_found():
    assert {"builtin_history", "project_history_dev"} <= set(SEARCHES)


def target_of(group: str, option: str) -> str:
    """The ``_target_`` conf/<group>/<option>.yaml names."""
    return yaml.safe_load((CONF_DIR / group / f"{option}.yaml").read_text(encoding="utf-8"))["_target_"]


@pytest.mark.slow  # about 80 composes (4 s): with the slow suite, which CI runs
@pytest.mark.parametrize("name", SEARCHES)
def test_every_value_a_search_may_try_composes(name):
    values = search_values(name)
    assert len(values) >= 2 * len(search_params(name))
    for item in values:
        key, _, value = item.partition("=")
        config = OmegaConf.create(compose([f"+search={name}", item]))
        got = OmegaConf.select(config, key)
        if "." in key:  # a setting: the trial gets the value
            assert math.isclose(float(got), float(value)) if isinstance(got, float) else str(got) == value, item
        else:  # a group: the trial gets the option
            assert got["_target_"] == target_of(key, value), item


def test_the_development_search_reads_a_development_history_large_enough_for_its_noise():
    config = compose(["+search=project_history_dev"])
    dataset = config["dataset"]
    assert dataset["_target_"].endswith("ProjectHistoryBenchmark")
    assert dataset["seed"] in DEV_SEEDS and config["seed"] in DEV_SEEDS
    assert dataset["seed"] not in range(5)
    assert dataset["size"] >= 1000  # 303 reader questions on seed 1020 (the header's noise figure)
    assert config["experiment_name"] == "search_project_history_dev"
    # a command-line seed cannot move the search onto an evaluation history
    assert compose(["+search=project_history_dev", "seed=0"])["dataset"]["seed"] == dataset["seed"]
