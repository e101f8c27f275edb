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
from tests.sweeps.helpers import log_run

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
ENV = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "MLFLOW_DISABLE_TELEMETRY": "true"}


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
