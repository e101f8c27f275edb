"""Starting and stopping helper processes in tests: each in its own session, stopped by its process group."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Sequence


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args: Sequence[str] | str, log_path: str, env: dict | None = None, shell: bool = False) -> subprocess.Popen:
    """Start a process in a new session (its own process group), output to ``log_path``."""
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        args,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ, **(env or {})},
        shell=shell,
    )


def stop(proc: subprocess.Popen, timeout: float = 60) -> None:
    """SIGTERM the process group of ``proc`` (by its id), SIGKILL it after ``timeout`` seconds."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float) -> None:
    """Until something listens on ``port`` (``proc`` must stay alive); TimeoutError otherwise."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening on {port}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise TimeoutError(f"nothing listened on {port} within {timeout} s")


def wait_for_http(url: str, proc: subprocess.Popen, timeout: float) -> None:
    """Until ``url`` answers 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def pids_with(marker: str) -> list[int]:
    """Ids of processes whose command line contains ``marker`` (a path only our processes use)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    out.append(int(entry))
        except OSError:
            continue
    return out
