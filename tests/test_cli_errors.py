"""Bad input at the command line gives one line naming the problem and the fix, non-zero exit, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from memlab.core.paths import PROJECT_ROOT


def memlab_main(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    full_env.pop("HYDRA_FULL_ERROR", None)
    return subprocess.run(
        [sys.executable, "-m", "memlab", *args],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        env=full_env,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["retention=exponental"],
            "unknown retention 'exponental'; valid: actr, exponential, fifo_cap, none, overtaken, power_law, "
            "salience_prune, sliding_window (did you mean 'exponential'?)",
        ),
        (["+experiment=quickstrt"], "did you mean 'quickstart'?"),
        (["judge=similarity,nonee", "--multirun"], "unknown judge 'nonee'"),
        (["retention=[unclosed"], "malformed override 'retention=[unclosed'"),
        (["retension.half_life_days=3"], "unknown config key 'retension'"),
        (
            ["reprot", "locomo"],
            "'reprot' is not an override; write key=value (e.g. judge=slot), "
            "or did you mean the command `memlab report`?",
        ),
        (["+experiment=quickstart", "seed"], "'seed' is not an override"),
    ],
)
def test_bad_overrides_fail_in_one_line(args, expected):
    proc = memlab_main(*args)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert expected in lines[0]
    assert "Traceback" not in proc.stderr + proc.stdout


def test_bad_strategy_parameter_fails_in_one_line():
    proc = memlab_main("tracking=none", "embedder=tfidf", "+selector.bogus=1")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "cannot build selector" in proc.stderr


def test_python_m_memlab_runs_console_commands():
    proc = memlab_main("list", "retention")
    assert proc.returncode == 0 and "exponential" in proc.stdout, proc.stderr
    bad = memlab_main("list", "retentoin")
    assert bad.returncode == 2 and "did you mean 'retention'" in bad.stderr and "Traceback" not in bad.stderr


def test_memlab_list_and_unknown_group():
    ok = subprocess.run([sys.executable, "-m", "memlab.cli", "list", "retention"], capture_output=True, text=True)
    assert ok.returncode == 0 and "exponential" in ok.stdout and "none" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "memlab.cli", "list", "retentoin"], capture_output=True, text=True)
    assert bad.returncode == 2 and "did you mean 'retention'" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_memlab_validate_composes_every_experiment():
    proc = subprocess.run([sys.executable, "-m", "memlab.cli", "validate"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 failed" in proc.stdout
