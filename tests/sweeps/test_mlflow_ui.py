"""The MLflow UI (slow): `mlflow server` on 127.0.0.1 with a sqlite store serves the runs over REST and
renders the compare view (headless Debian chromium); the README's UI command works as written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.sweeps import procs
from tests.sweeps.helpers import landed_sweep, log_run

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
#: As `memlab`'s own UI command: no server-side job runner (its huey consumers would outlive the server).
ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
}


def make_store(folder: Path) -> tuple[str, list[str]]:
    uri = f"sqlite:///{folder / 'mlruns.db'}"
    ids = [
        log_run(uri, "ui", folder / judge, strategies={"judge": judge}, params={"seed": 0}, correct=correct)
        for judge, correct in (("slot", [1, 1, 0]), ("none", [0, 0, 1]))
    ]
    return uri, ids


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def not_blank(png: Path) -> bool:
    import numpy as np
    from matplotlib.image import imread

    pixels = imread(png)[..., :3]
    colours = np.unique((pixels * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    dark = float(np.mean(pixels.mean(axis=2) < 0.5))
    return len(colours) > 50 and float(pixels.std()) > 0.05 and dark > 0.005


def test_server_rest_api_and_compare_view_screenshot(tmp_path):
    uri, ids = make_store(tmp_path)
    port = procs.free_port()
    server = procs.start(
        [sys.executable, "-m", "mlflow", "server", "--backend-store-uri", uri, "--host", "127.0.0.1",
         "--port", str(port), "--workers", "1"],
        str(tmp_path / "server.log"), env=ENV,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        procs.wait_for_http(f"{base}/health", server, timeout=240)
        with urllib.request.urlopen(f"{base}/api/2.0/mlflow/experiments/get-by-name?experiment_name=ui") as r:
            exp_id = json.loads(r.read())["experiment"]["experiment_id"]
        runs = post(f"{base}/api/2.0/mlflow/runs/search", {"experiment_ids": [exp_id]})["runs"]
        assert sorted(r["info"]["run_id"] for r in runs) == sorted(ids)
        assert sorted(r["info"]["run_name"] for r in runs) == ["run judge=none", "run judge=slot"]
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            pytest.skip("Debian's chromium is not installed (apt-get install chromium): no screenshot of the UI")
        runs_arg = urllib.request.quote(json.dumps(ids))
        url = f"{base}/#/compare-runs?runs={runs_arg}&experiments={urllib.request.quote(json.dumps([exp_id]))}"
        png = tmp_path / "compare.png"
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
             "--window-size=1400,1000", "--virtual-time-budget=20000", f"--screenshot={png}", url],
            capture_output=True, timeout=240, check=True,
        )  # fmt: skip
        assert png.is_file() and not_blank(png)
    finally:
        procs.stop(server, timeout=60)


def test_readme_ui_command_works_as_written(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if " -m mlflow ui " in line)
    assert "$PWD/mlruns.db" in command and "--port 5000" in command
    make_store(tmp_path)
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    port = procs.free_port()
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root")}  # no activated venv
    as_written = re.sub(r"--port 5000", f"--port {port}", command)
    script = f"cd {tmp_path} && exec env -i PATH=/usr/bin:/bin HOME=$HOME {as_written}"
    ui = procs.start(["bash", "-c", script], str(tmp_path / "ui.log"), env=env)
    try:
        procs.wait_for_http(f"http://127.0.0.1:{port}/health", ui, timeout=240)
    finally:
        procs.stop(ui, timeout=60)


def test_a_sweep_lands_on_its_comparison_in_a_real_browser(tmp_path):
    """The address a sweep prints opens the runs table filtered to the sweep's children, each named by its
    overrides, with the main metric as the first metric column and the headline metric next to it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium): no screenshot of the UI")
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    results = {("slot", "500"): 0.5, ("slot", "2000"): 0.75, ("none", "500"): 0.25, ("none", "2000"): 0.125}
    out = landed_sweep(uri, tmp_path / "sweep", results)
    url = next(line for line in out.splitlines() if "comparison in the UI: " in line).split("comparison in the UI: ")[1]
    command = next(line for line in out.splitlines() if "MLflow UI: " in line).split("MLflow UI: ")[1]
    port = procs.free_port()
    ui = procs.start(command.replace("--port 5000", f"--port {port}"), str(tmp_path / "ui.log"), shell=True)
    url = url.replace("127.0.0.1:5000", f"127.0.0.1:{port}")
    try:
        procs.wait_for_http(f"http://127.0.0.1:{port}/health", ui, timeout=240)
        browse = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--hide-scrollbars", "--window-size=1600,900", "--virtual-time-budget=25000"]  # fmt: skip
        dom = subprocess.run([*browse, "--dump-dom", url], capture_output=True, text=True, timeout=240).stdout
        png = tmp_path / "landing.png"
        subprocess.run([*browse, f"--screenshot={png}", url], capture_output=True, timeout=240, check=True)
    finally:
        procs.stop(ui, timeout=60)
    names = [f"judge={j} budget_tokens={b}" for j, b in results]
    assert all(f">{name}<" in dom for name in names), dom[-2000:]  # every child, its name uncut
    headers = re.findall(r'aria-colindex="(\d+)" col-id="metrics\.`([^`]+)`"', dom)
    order = [name for _, name in sorted((int(i), n) for i, n in headers)]
    assert order[:2] == ["current_truth_at_1", "supersession_f1"], order
    rows = re.findall(r">(judge=\w+ budget_tokens=\d+)<", dom)
    assert len(rows) == 4 and rows[0] == "judge=slot budget_tokens=2000"  # the children only, best first
    assert png.is_file() and not_blank(png)
