"""Values of the wrong type fail before any work starts: one line naming the key, the value and the expected type
(the type of the key's value in conf/config.yaml or in the chosen option of a group), in well under 5 s."""

from __future__ import annotations

import time

import pytest

from memlab.core.errors import MemlabError
from memlab.wiring.overrides import check_overrides
from tests.test_cli_errors import memlab_main


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["pipeline.budget_tokens=abc"], "pipeline.budget_tokens must be an integer (its default is 2000), got 'abc'"),
        (["--multirun", "pipeline.budget_tokens=500,abc"], "pipeline.budget_tokens must be an integer"),
        (["pipeline.budget_tokens=0.5"], "got 0.5"),
        (["pipeline.budget_tokens=true"], "got True"),
        (["seed=x"], "seed must be an integer (its default is 0), got 'x'"),
        (["pipeline.min_pair_similarity=high"], "pipeline.min_pair_similarity must be a number"),
        (["pipeline.incremental=3"], "pipeline.incremental must be true or false (its default is false), got 3"),
        (["judge=slot", "judge.dup_jaccard=abc"], "judge.dup_jaccard must be a number (its default is 0.6)"),
        (["judge.threshold=abc"], "judge.threshold must be a number (its default is 0.8)"),
        (
            ["judge=cascade", "judge.slot.dup_jaccard=abc"],
            "judge.slot.dup_jaccard must be a number (its default is 0.6)",
        ),
        (["pipeline.exact_dedup=2"], "pipeline.exact_dedup must be true or false (its default is true)"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(args, expected):
    with pytest.raises(MemlabError) as info:
        check_overrides(args)
    message = str(info.value)
    assert expected in message and "\n" not in message
    assert "write " in message  # how to fix it


@pytest.mark.parametrize(
    "args",
    [
        ["pipeline.budget_tokens=500"],
        ["pipeline.min_pair_similarity=1"],  # an integer is a number
        ["pipeline.incremental=true"],
        ["--multirun", "pipeline.budget_tokens=250,1000", "seed=range(3)"],
        ["pipeline.schedule=end"],
        ["pipeline.budget_tokens=${oc.env:BUDGET,500}"],  # an interpolation is resolved later
        ["+experiment=quickstart", "judge.threshold=abc"],  # an overlay may choose another judge: left to Hydra
        ["pipeline.exact_dedup=false", "pipeline.propagate_supersession=true"],
        ["judge=cascade", "judge.learned.model_path=/m.json", "judge.fallback=null", "judge.record.threshold=0.5"],
        ["judge=cascade_llm", "judge.screen_min_probability=0.03", "judge.fallback.prompt=seed"],
    ],
)
def test_values_of_the_right_type_pass(args):
    check_overrides(args)


def test_the_command_line_refuses_a_wrong_type_in_one_line_before_any_run(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    started = time.monotonic()
    proc = memlab_main("pipeline.budget_tokens=abc", f"tracking.uri={uri}", f"hydra.run.dir={tmp_path / 'run'}")
    elapsed = time.monotonic() - started
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "pipeline.budget_tokens" in proc.stderr and "'abc'" in proc.stderr and "an integer" in proc.stderr
    assert not (tmp_path / "run").exists() and not (tmp_path / "mlruns.db").exists()  # no episode, no run
    assert elapsed < 5, elapsed


def test_every_pipeline_setting_is_composed_from_its_one_default():
    """conf/config.yaml restates no pipeline default: the composed ``pipeline`` node is PipelineSettings' defaults,
    every key (``exact_dedup``, ``propagate_supersession`` too) settable without ``+``."""
    from dataclasses import asdict

    import yaml

    from memlab.core.paths import CONF_DIR
    from memlab.wiring.components import PipelineSettings
    from tests.support.compose import compose_cfg

    assert "pipeline" not in yaml.safe_load((CONF_DIR / "config.yaml").read_text(encoding="utf-8"))
    assert compose_cfg([])["pipeline"] == asdict(PipelineSettings())
    cfg = compose_cfg(["pipeline.exact_dedup=false", "pipeline.propagate_supersession=true"])
    settings = PipelineSettings.from_mapping(cfg["pipeline"])
    assert not settings.exact_dedup and settings.propagate_supersession
