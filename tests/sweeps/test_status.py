"""A step that can take seconds says what it is doing once it outlasts the delay, and how long it took; quiet with
--quiet (MEMLAB_QUIET) and in CI; quick steps print nothing."""

from __future__ import annotations

import io
import sys
import time

import pytest

from memlab.observability import progress
from memlab.tracking.status import step


def until(condition, timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds (the heartbeat looks every 0.25 s, later on a loaded machine)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def announced() -> bool:
    """Whether the innermost running step has said what it does."""
    return bool(progress._ACTIVE) and progress._ACTIVE[-1].shown


@pytest.fixture(autouse=True)
def _loud(monkeypatch):
    monkeypatch.delenv("MEMLAB_QUIET", raising=False)
    monkeypatch.delenv("CI", raising=False)


def test_a_long_step_says_what_it_does_and_how_long_it_took(capsys):
    with step("reading the runs", delay=0.05):
        until(announced)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "memlab: reading the runs ..." and err[1].startswith("memlab: reading the runs: done in ")


def test_a_quick_step_prints_nothing(capsys):
    with step("reading the runs", delay=5):
        pass
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("env", ["MEMLAB_QUIET", "CI"])
def test_quiet_and_ci_print_nothing(capsys, monkeypatch, env):
    monkeypatch.setenv(env, "true")
    with step("reading the runs", delay=0.01):
        assert progress._ACTIVE == []  # not handed to the heartbeat: nothing can say it runs
    assert capsys.readouterr().err == ""


def test_a_job_that_runs_for_seconds_says_so(capsys, monkeypatch):
    from omegaconf import OmegaConf

    from memlab.sweeps.callback import SweepCallback
    from memlab.tracking import status

    monkeypatch.setattr(status, "DELAY", 0.05)
    callback = SweepCallback()
    callback.on_job_start(OmegaConf.create({"hydra": {"overrides": {"task": ["judge=slot"]}}}))
    until(announced)
    callback.on_job_end(OmegaConf.create({}))
    err = capsys.readouterr().err
    assert "memlab: job judge=slot: running" in err and "done in" in err


def test_a_step_ended_by_an_error_or_an_exit_says_stopped_not_done(capsys):
    for error in (SystemExit(2), RuntimeError("endpoint refused")):
        with pytest.raises(type(error)), step("judging", delay=0.01):
            until(announced)
            raise error
        err = capsys.readouterr().err
        assert "memlab: judging ..." in err and "judging: stopped after 0 s" in err and "done in" not in err


def test_a_failed_job_says_stopped_not_done(capsys, monkeypatch):
    from hydra.core.utils import JobReturn, JobStatus
    from omegaconf import OmegaConf

    from memlab.sweeps.callback import SweepCallback
    from memlab.tracking import status

    monkeypatch.setattr(status, "DELAY", 0.05)
    callback = SweepCallback()
    callback.on_job_start(OmegaConf.create({"hydra": {"overrides": {"task": ["llm=local"]}}}))
    until(announced)
    callback.on_job_end(OmegaConf.create({}), JobReturn(status=JobStatus.FAILED))
    err = capsys.readouterr().err
    assert "memlab: job llm=local: running" in err and "stopped after" in err and "done in" not in err


def test_a_long_step_written_to_a_pipe_says_how_long_it_has_run_so_far(monkeypatch):
    monkeypatch.setattr(progress, "EVERY", 1.2)  # a line 0.2 s after the last output, heartbeat every 0.15 s
    monkeypatch.setattr(progress, "MARGIN", 1.0)
    pipe = io.StringIO()  # not a terminal; read without truncating (capsys could drop a line the heartbeat
    monkeypatch.setattr(sys, "stderr", pipe)  # thread wrote while it was being read)

    def so_far() -> int:
        return len([line for line in pipe.getvalue().splitlines() if line.endswith(" s so far")])

    with step("embedding 58 records", delay=0.01):
        heartbeat = progress._STATE["beat"]
        until(lambda: so_far() >= 3)
    err = pipe.getvalue().splitlines()
    assert err[0] == "memlab: embedding 58 records ..." and err[-1].startswith("memlab: embedding 58 records: done in")
    heartbeat.join(timeout=5)
    assert not heartbeat.is_alive() and pipe.getvalue().splitlines() == err  # it stopped with the step: nothing after


def test_every_job_of_a_sweep_says_when_it_starts_and_ends(capsys):
    from omegaconf import OmegaConf

    from memlab.sweeps.callback import SweepCallback

    callback = SweepCallback()
    for num in range(3):  # a reused worker's jobs end within the delay: each is still announced
        job = {"mode": "RunMode.MULTIRUN", "job": {"num": num}, "overrides": {"task": [f"seed={num}"]}}
        callback.on_job_start(OmegaConf.create({"hydra": job}))
        time.sleep(0.05)
        callback.on_job_end(OmegaConf.create({}))
    err = capsys.readouterr().err.splitlines()
    assert [line.split(" (")[0] for line in err] == [
        f"memlab: job #{n} seed={n}: running" for n in range(3) for _ in range(2)
    ] and all(line.endswith((" ...", "done in 0 s")) for line in err)
