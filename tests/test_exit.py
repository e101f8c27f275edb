"""``python -m memlab`` ends with ``gc.freeze()``: the interpreter's exit then skips its garbage collections over
the objects MiniLM's imports left (2-34 s of silence after the last line), and is otherwise the normal exit."""

from __future__ import annotations

import subprocess
import sys

import pytest

# Runs after the entry point: whether it froze the heap, and that atexit handlers still run.
PROBE = """
import atexit, gc, runpy, sys
atexit.register(lambda: print("frozen" if gc.get_freeze_count() else "not frozen", flush=True))
sys.argv = ["memlab", *ARGS]
runpy.run_module("memlab", run_name="__main__")
"""


def python_m_memlab(*args: str) -> subprocess.CompletedProcess:
    code = PROBE.replace("ARGS", repr(list(args)))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("args", "status"), [(("list", "retention"), 0), (("list", "retentoin"), 2)])
def test_python_m_memlab_freezes_the_heap_and_keeps_the_normal_exit(args, status) -> None:
    proc = python_m_memlab(*args)
    assert proc.returncode == status
    assert proc.stdout.splitlines()[-1] == "frozen"
    assert ("exponential" in proc.stdout) == (status == 0)
    assert ("retentoin" in proc.stderr) == (status == 2)
