"""Where a sweep lands in the MLflow UI: a saved view of its children with the main metric in front.

MLflow 3's experiment page restores a view from an experiment tag ``mlflow.sharedViewState.<key>`` when the
page's address carries ``?viewStateShareKey=<key>`` (``useSharedExperimentViewState`` in MLflow's UI; the
tag's value is the saved-view envelope ``{"name", "createdAt", "state"}`` whose ``state`` is the JSON of the
page's search facets and UI state). The view memlab saves filters the runs to the sweep's children, orders
them by the main metric, shows the main metric, the headline metrics and the swept parameters as the first
columns (``selectedColumns`` and ``columnOrder`` hold column ids such as ``metrics.`current_truth_at_1```), and
shows every run in the charts (``runsHiddenMode``).
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Sequence
from typing import Any

#: Prefix of the experiment tags MLflow's UI reads saved views from.
VIEW_TAG_PREFIX = "mlflow.sharedViewState."
#: The URL parameter that opens a saved view.
VIEW_URL_PARAM = "viewStateShareKey"


def column_id(kind: str, key: str) -> str:
    """The UI's id of a runs-table column (``metrics``, ``params``, ``tags`` or ``attributes``)."""
    return f"{kind}.`{key}`"


def view_state(
    parent_id: str, metrics: Sequence[str], params: Sequence[str] = (), names: Sequence[str] = ()
) -> dict[str, Any]:
    """The saved view of a sweep: its children only, best main metric first, ``metrics`` then ``params`` in front.

    Args:
        parent_id: The sweep's parent run.
        metrics: The main metric first, then the headline metrics.
        params: Parameters the sweep varies (flattened config keys).
        names: The children's run names (the run-name column is made wide enough for the longest).
    """
    columns = [column_id("metrics", m) for m in dict.fromkeys(metrics)]
    columns += [column_id("params", p) for p in dict.fromkeys(params)]
    attributes = [column_id("attributes", name) for name in ("Created", "Duration")]
    run_name = column_id("attributes", "Run Name")
    widths = {c: width_for(c.split("`")[1]) for c in columns}
    widths[run_name] = min(480, width_for(max(names, key=len, default="")))
    return {
        "searchFilter": f"tags.`mlflow.parentRunId` = '{parent_id}'",
        "orderByKey": columns[0] if columns else column_id("attributes", "start_time"),
        "orderByAsc": False,
        "selectedColumns": [*columns, *attributes],
        "columnOrder": [run_name, *columns, *attributes],
        "columnWidths": widths,
        "runsHiddenMode": "SHOW_ALL",
        **charts(list(dict.fromkeys(metrics)), max(10, len(names))),
    }


def charts(metrics: Sequence[str], runs: int) -> dict[str, Any]:
    """The chart view's cards: one bar chart per metric, the main metric first, in a section of their own,
    each comparing all ``runs`` (the UI's default is 10); the UI adds its own charts of the other metrics after.
    """
    section = "memlab-comparison"
    cards = [
        {
            "uuid": f"memlab-{i}",
            "type": "BAR",
            "runsCountToCompare": runs,
            "metricSectionId": section,
            "deleted": False,
            "isGenerated": False,
            "metricKey": metric,
            "displayName": metric,
        }
        for i, metric in enumerate(metrics)
    ]
    name = "Main metric and headline metrics"
    sections = [
        {"uuid": section, "name": name, "display": True, "isReordered": False, "deleted": False, "isGenerated": False}
    ]
    return {"compareRunCharts": cards, "compareRunSections": sections} if cards else {}


def width_for(text: str) -> int:
    """Pixels a runs-table column needs to show ``text`` uncut (the UI's 13 px font, plus padding)."""
    return max(120, 8 * len(text) + 48)


def view_key(sweep_id: str) -> str:
    """The saved view's key (letters, digits and ``-`` only: it travels in a URL)."""
    return "memlab-" + "".join(ch if ch.isalnum() else "-" for ch in sweep_id)


def save_view(client: Any, experiment_id: str, key: str, name: str, state: dict[str, Any]) -> None:
    """Store ``state`` as the saved view ``key`` of the experiment (listed in the UI's saved views as ``name``)."""
    envelope = {"name": name, "createdAt": int(time.time() * 1000), "state": json.dumps(state)}
    client.set_experiment_tag(experiment_id, VIEW_TAG_PREFIX + key, json.dumps(envelope))


def save_sweep_view(uri: str, parent_id: str, sweep_id: str, state: dict[str, Any], port: int = 5000) -> str:
    """Save ``state`` as the view of sweep ``sweep_id`` on its parent run's experiment; the view's address."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=uri)
    exp_id = client.get_run(parent_id).info.experiment_id
    key = view_key(sweep_id)
    save_view(client, exp_id, key, f"sweep {sweep_id}", state)
    return view_url(uri, exp_id, key, port)


def ui_base(uri: str, port: int = 5000) -> str:
    """The UI's address: the tracking server itself, or the local UI :func:`ui_command` starts."""
    return uri.rstrip("/") if uri.startswith(("http://", "https://")) else f"http://127.0.0.1:{port}"


def view_url(uri: str, experiment_id: str, key: str, port: int = 5000) -> str:
    """The address that opens the saved view ``key`` on the experiment's runs page."""
    return f"{ui_base(uri, port)}/#/experiments/{experiment_id}/runs?{VIEW_URL_PARAM}={key}"


def ui_command(uri: str, port: int = 5000) -> str | None:
    """A command that opens the MLflow UI on a file store, working as printed (no activated venv needed);
    ``None`` for a tracking server (its UI is already up).

    Offline and lean: LiteLLM's bundled price map (no download), no telemetry, and no GenAI job runner
    (``MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false``; memlab runs no server-side jobs), which halves the start-up
    (measured 42 s -> 20 s at load 13 on 2 cores).
    """
    if uri.startswith(("http://", "https://")):
        return None
    python = shlex.quote(sys.executable)
    return (
        "LITELLM_LOCAL_MODEL_COST_MAP=True MLFLOW_DISABLE_TELEMETRY=true MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false "
        f"{python} -m mlflow ui "
        f"--backend-store-uri {shlex.quote(uri)} --host 127.0.0.1 --port {port} --workers 1"
    )
