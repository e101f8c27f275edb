"""MLflow tracker: one run per Hydra job in a sqlite (or server) store."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memlab.tracking.base import SWEEP_ENV, SWEEP_EXPERIMENT_ENV, SWEEP_NAME_ENV, Tracker

# MLflow's UI/server otherwise tries to fetch LiteLLM's model cost map at start-up (hangs offline).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")  # offline: no usage pings, no consumer thread


class MlflowTracker(Tracker):
    """Log to MLflow.

    Args:
        uri: Tracking URI (``sqlite:////abs/path.db`` or ``http://127.0.0.1:5000``).
        experiment: Experiment name.
        skip_finished: When a FINISHED run of the experiment has the same config hash, do not run again
            (:meth:`finished_run` returns it).
        ui_port: Port of the local UI the printed command starts (file stores).
    """

    def __init__(self, uri: str, experiment: str = "default", skip_finished: bool = False, ui_port: int = 5000) -> None:
        self.uri = uri
        self.experiment = experiment
        self.skip_finished = skip_finished
        self.ui_port = ui_port
        self.client_: Any = None
        self.run_id_: str | None = None
        self.experiment_id_: str | None = None

    def start(
        self, run_name: str, params: Mapping[str, Any], tags: Mapping[str, str], sweep_id: str | None = None
    ) -> str | None:
        """Create the experiment if needed and open a run with params and tags.

        With ``sweep_id`` (a ``--multirun`` sweep) the run becomes a child of one parent run per sweep,
        found by its ``memlab.sweep`` tag or created on first use, in the sweep's experiment
        (``$MEMLAB_SWEEP_EXPERIMENT``), named by the overrides that tell it apart (``$MEMLAB_SWEEP_RUN_NAME``).
        """
        from memlab.tracking.store import ensure_experiment, open_client

        self.client_ = open_client(self.uri)
        exp_id = self.experiment_id_ = ensure_experiment(self.client_, self.uri, self.study(sweep_id))
        tags = dict(tags)
        if sweep_id:
            tags["memlab.sweep"] = sweep_id
            tags["mlflow.parentRunId"] = self._parent(exp_id, sweep_id)
            run_name = os.environ.get(SWEEP_NAME_ENV) or run_name
        run = self.client_.create_run(exp_id, run_name=run_name, tags=tags)
        self.run_id_ = run.info.run_id
        from mlflow.entities import Param

        items = [Param(k, str(v)[:6000]) for k, v in sorted(params.items())]
        for lo in range(0, len(items), 100):
            self.client_.log_batch(self.run_id_, params=items[lo : lo + 100])
        return self.run_id_

    def study(self, sweep_id: str | None = None) -> str:
        """The experiment the run is filed under: the sweep's (parent and children together), else ``experiment``."""
        return (os.environ.get(SWEEP_EXPERIMENT_ENV) if sweep_id else None) or self.experiment

    def _parent(self, exp_id: str, sweep_id: str) -> str:
        """The sweep's parent run: the one the sweep callback opened, else (a job started without the callback) a
        new one here.
        """
        found = self.client_.search_runs(
            [exp_id], filter_string=f"tags.`memlab.sweep_parent` = '{sweep_id}'", max_results=1
        )
        if found:
            return found[0].info.run_id
        parent = self.client_.create_run(
            exp_id, run_name=f"sweep-{sweep_id}", tags={"memlab.sweep_parent": sweep_id, "memlab.sweep": sweep_id}
        )
        self.client_.set_terminated(parent.info.run_id, status="FINISHED")
        return parent.info.run_id

    def log_metrics(self, metrics: Mapping[str, float]) -> None:
        """Log finite metrics (non-finite values are skipped), exactly as computed: the UI shows up to 12 digits,
        but a value rounded for display would make ``memlab best`` see ties that are not there (or hide ones that
        are) and move the parity harness's pinned figures; the terminal tables show three significant digits.
        """
        import time

        from mlflow.entities import Metric

        now = int(time.time() * 1000)
        items = [Metric(k, float(v), now, 0) for k, v in sorted(metrics.items()) if math.isfinite(float(v))]
        for lo in range(0, len(items), 500):
            self.client_.log_batch(self.run_id_, metrics=items[lo : lo + 500])

    def set_tags(self, tags: Mapping[str, str]) -> None:
        """Set tags on the open run."""
        for key, value in sorted(tags.items()):
            self.client_.set_tag(self.run_id_, key, str(value))

    def log_trace(self, tree: Mapping[str, Any]) -> str | None:
        """Record a span tree (:mod:`memlab.observability.trace`) as an MLflow trace linked to the open run; its id."""
        if self.run_id_ is None or self.experiment_id_ is None:
            return None
        os.environ.setdefault("MLFLOW_ENABLE_ASYNC_TRACE_LOGGING", "false")  # written before the run closes
        import mlflow

        from memlab.observability.trace import attributes, layout

        mlflow.set_tracking_uri(self.uri)
        spans: dict[int, Any] = {}
        placed = layout(tree)
        for index, parent, node, start_ns, _ in placed:
            where = {"experiment_id": self.experiment_id_} if parent is None else {"parent_span": spans[parent]}
            spans[index] = mlflow.start_span_no_context(
                str(node["name"]), attributes=attributes(node), start_time_ns=start_ns, **where
            )
        for index, _, _, _, end_ns in reversed(placed):
            spans[index].end(end_time_ns=end_ns)
        trace_id = spans[0].trace_id
        self.client_.link_traces_to_run([trace_id], self.run_id_)
        self.client_.set_tag(self.run_id_, "memlab.trace_id", trace_id)
        return trace_id

    def log_artifacts(self, folder: Path) -> None:
        """Upload every file of ``folder``."""
        self.client_.log_artifacts(self.run_id_, str(folder))

    def finish(self, status: str = "FINISHED") -> None:
        """Close the run."""
        if self.client_ is not None and self.run_id_ is not None:
            self.client_.set_terminated(self.run_id_, status=status)

    def finished_run(self, config_hash: str) -> tuple[str, dict[str, float]] | None:
        """With ``skip_finished``: the newest FINISHED run with ``config_hash`` (id, metrics); else ``None``."""
        if not self.skip_finished:
            return None
        from memlab.tracking.store import finished_run

        found = finished_run(self.uri, self.study(os.environ.get(SWEEP_ENV)), config_hash)
        if found is None:
            return None
        self.experiment_id_ = found.experiment_id
        return found.run_id, found.metrics

    def ui_command(self) -> str | None:
        """A command that opens the MLflow UI on this store, working as printed (no activated venv needed)."""
        from memlab.tracking.landing import ui_command

        return ui_command(self.uri, self.ui_port)

    def run_url(self, run_id: str | None = None) -> str | None:
        """The UI address of the run (on the server, or on the local UI :meth:`ui_command` starts)."""
        run_id = run_id or self.run_id_
        if run_id is None or self.experiment_id_ is None:
            return None
        from memlab.tracking.landing import ui_base

        return f"{ui_base(self.uri, self.ui_port)}/#/experiments/{self.experiment_id_}/runs/{run_id}"
