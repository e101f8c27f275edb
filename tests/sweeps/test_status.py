"""A step that can take seconds says what it is doing once it outlasts the delay, and how long it took; quiet with
--quiet (MEMLAB_QUIET) and in CI; quick steps print nothing."""

from __future__ import annotations

import time

import pytest

from memlab.tracking.status import step


@pytest.fixture(autouse=True)
def _loud(monkeypatch):
    monkeypatch.delenv("MEMLAB_QUIET", raising=False)
    monkeypatch.delenv("CI", raising=False)


def test_a_long_step_says_what_it_does_and_how_long_it_took(capsys):
    with step("reading the runs", delay=0.05):
        time.sleep(0.3)
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
        time.sleep(0.4)
    assert capsys.readouterr().err == ""


def test_a_job_that_runs_for_seconds_says_so(capsys, monkeypatch):
    from omegaconf import OmegaConf

    from memlab.sweeps.callback import SweepCallback
    from memlab.tracking import status

    monkeypatch.setattr(status, "DELAY", 0.05)
    callback = SweepCallback()
    callback.on_job_start(OmegaConf.create({"hydra": {"overrides": {"task": ["judge=slot"]}}}))
    time.sleep(0.3)
    callback.on_job_end(OmegaConf.create({}))
    err = capsys.readouterr().err
    assert "memlab: job judge=slot: running" in err and "done in" in err


def test_a_step_ended_by_an_error_or_an_exit_says_stopped_not_done(capsys):
    for error in (SystemExit(2), RuntimeError("endpoint refused")):
        with pytest.raises(type(error)), step("judging", delay=0.01):
            time.sleep(0.4)  # the heartbeat looks every 0.25 s
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
    time.sleep(0.3)
    callback.on_job_end(OmegaConf.create({}), JobReturn(status=JobStatus.FAILED))
    err = capsys.readouterr().err
    assert "memlab: job llm=local: running" in err and "stopped after" in err and "done in" not in err


def test_a_long_step_written_to_a_pipe_says_how_long_it_has_run_so_far(capsys, monkeypatch):
    from memlab.observability import progress

    monkeypatch.setattr(progress, "EVERY", 1.2)  # a line 0.2 s after the last output, heartbeat every 0.15 s
    with step("embedding 58 records", delay=0.01):
        time.sleep(1.5)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "memlab: embedding 58 records ..." and err[-1].startswith("memlab: embedding 58 records: done in")
    assert len([line for line in err if line.endswith(" s so far")]) >= 3  # capsys is not a terminal
    time.sleep(0.5)
    assert capsys.readouterr().err == ""  # nothing after the step ended


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
