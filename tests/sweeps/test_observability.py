"""Structured logs, progress bars that stay quiet in CI, run names and config hashes."""

from __future__ import annotations

import io
import json
import logging

import pytest

from memlab.core.errors import MemlabError
from memlab.observability import logs, progress
from memlab.wiring.naming import RUNTIME_KEYS, run_name_for


def test_json_formatter_writes_one_object_per_record_with_extra_fields():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    log = logging.getLogger("memlab.test_json")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        log.info("run finished", extra={"run_id": "abc", "value": 0.5})
    finally:
        log.removeHandler(handler)
    data = json.loads(stream.getvalue())
    assert data["msg"] == "run finished" and data["run_id"] == "abc" and data["value"] == 0.5
    assert data["level"] == "INFO" and data["logger"] == "memlab.test_json" and data["ts"].endswith("+00:00")


def test_configure_rejects_unknown_formats_and_levels():
    with pytest.raises(MemlabError, match=r"unknown logging\.format 'xml'; valid: text, json"):
        logs.configure({"format": "xml"})
    with pytest.raises(MemlabError, match=r"unknown logging\.level"):
        logs.configure({"format": "text", "level": "LOUD"})


def test_progress_is_quiet_in_ci_under_quiet_and_off_a_terminal(monkeypatch):
    monkeypatch.delenv("MEMLAB_QUIET", raising=False)
    monkeypatch.setenv("CI", "true")
    assert progress.quiet()
    monkeypatch.setenv("CI", "")
    monkeypatch.setattr("sys.stderr", io.StringIO())  # not a terminal
    assert progress.quiet()
    assert progress.set_quiet(["--quiet", "judge=slot"]) == ["judge=slot"]
    import os

    assert os.environ["MEMLAB_QUIET"] == "1" and progress.quiet()


def test_progress_draws_a_bar_on_a_terminal_and_yields_everything(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    err = Tty()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.delenv("MEMLAB_QUIET", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    assert list(progress.progress(range(5), desc="judging pairs")) == [0, 1, 2, 3, 4]
    assert "judging pairs" in err.getvalue()


def test_run_names_state_the_choices_not_a_hash():
    name = run_name_for(
        "builtin_history",
        [
            "+experiment=quickstart",
            "judge=slot",
            "retention=none",
            "seed=1",
            "tracking.uri=sqlite:///x",
            "dataset=builtin_history",
        ],
    )
    assert name == "builtin_history (quickstart) judge=slot retention=none seed=1"
    assert run_name_for("temporal_norm", [], {"experiment_name": "default"}) == "temporal_norm"
    assert len(run_name_for("x", [f"k{i}=v" for i in range(200)])) <= 240


def test_runtime_settings_do_not_change_the_config_hash():
    from memlab.wiring.build import config_hash

    cfg = {"seed": 0, "judge": {"_target_": "x"}, "tracking": {"skip_finished": False}, "logging": {"format": "text"}}
    other = {**cfg, "tracking": {"skip_finished": True}, "logging": {"format": "json"}, "trace": {"enabled": False}}
    strip = lambda c: {k: v for k, v in c.items() if k not in RUNTIME_KEYS}  # noqa: E731
    assert config_hash(strip(cfg)) == config_hash(strip(other))
    assert config_hash(strip(cfg)) != config_hash(strip({**cfg, "seed": 1}))
