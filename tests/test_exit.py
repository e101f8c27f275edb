"""``python -m memlab`` ends after a normal shutdown but without the interpreter's module teardown, which took
13-20 s of silence after the last line of a run that loaded MiniLM (``exit_after`` in memlab/__main__.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

# A module-level object whose finaliser runs only in the interpreter's module teardown.
TEARDOWN = """
class Teardown:
    def __del__(self):
        print("module teardown ran", flush=True)

keep = Teardown()
"""

ENTRY = """
import atexit, threading, time
from memlab.__main__ import exit_after

def entry():
    atexit.register(lambda: print("atexit ran", flush=True))
    threading.Thread(target=lambda: (time.sleep(0.3), print("thread joined", flush=True))).start()
    print("buffered", end="")  # neither a newline nor a flush: it must still reach stdout
    raise SystemExit(CODE)

exit_after(entry)
"""


def python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("code", "status", "stderr"), [(None, 0, ""), (3, 3, ""), ("'bad input'", 1, "bad input")])
def test_exit_after_shuts_down_then_skips_module_teardown(code, status, stderr) -> None:
    proc = python(TEARDOWN + ENTRY.replace("CODE", str(code)))
    assert proc.returncode == status
    assert proc.stdout == "bufferedthread joined\natexit ran\n"
    assert proc.stderr.strip() == stderr


def test_the_teardown_probe_runs_on_a_normal_exit() -> None:
    assert python(TEARDOWN).stdout == "module teardown ran\n"


def test_python_m_memlab_exits_through_exit_after() -> None:
    run = "import runpy, sys\nsys.argv = ['memlab', 'list', 'retention']\nrunpy.run_module('memlab', run_name='__main__')"
    proc = python(TEARDOWN + run)
    assert proc.returncode == 0
    assert "exponential" in proc.stdout
    assert "module teardown ran" not in proc.stdout
