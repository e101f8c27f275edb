"""Clocks, through the installed command: a last consolidation dated in the future counts as due (with a log
line), and an invalid ``MEMLAB_NOW`` is a one-line error (a hook prints nothing and logs it)."""

from __future__ import annotations

import time

import pytest

from tests.adapter.conftest import seed

FUTURE = "2099-01-01T00:00:00+00:00"


@pytest.mark.slow  # consolidations: over 2 s
def test_a_consolidation_at_a_future_clock_does_not_stop_later_ones(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    assert hook.memlab("consolidate", MEMLAB_NOW=FUTURE).returncode == 0
    (hook.project / ".git" / "memlab" / "last-attempt.json").unlink()  # the throttle's interval has passed
    for i in range(6):
        proc = hook.memlab("hook", "capture", "--namespace", "decisions", "--summary", f"New decision {i}")
        assert proc.returncode == 0, proc.stderr
    proc = hook.run("Stop")
    assert proc.returncode == 0 and "consolidation started" in hook.log(), hook.log()  # a full run: six are due
    assert "in the future" in hook.log()
    deadline = time.monotonic() + 120
    while "New decision" not in (block := hook.context()) and time.monotonic() < deadline:
        time.sleep(1)
    assert "New decision" in block, block  # the new memories (the policy summarises the six) reach the block


def test_an_invalid_clock_is_a_one_line_error(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    for args in (("consolidate",), ("recall", "API"), ("hook", "capture", "--summary", "s")):
        proc = hook.memlab(*args, MEMLAB_NOW="yesterday")
        errors = [line for line in proc.stderr.splitlines() if not line.startswith(f"memlab {args[0]}: policy")]
        assert proc.returncode != 0 and len(errors) == 1, (args, proc.stderr)
        assert "MEMLAB_NOW='yesterday' is not an ISO-8601 time" in errors[0], proc.stderr
    proc = hook.run("SessionStart", MEMLAB_NOW="yesterday")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert "MEMLAB_NOW='yesterday'" in hook.log()
