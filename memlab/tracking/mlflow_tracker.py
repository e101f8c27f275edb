"""MLflow tracker: one run per Hydra job in a sqlite (or server) store."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memlab.errors import MemlabError

# MLflow's UI/server otherwise tries to fetch LiteLLM's model cost map at start-up (hangs offline).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")  # offline: no usage pings, no consumer thread


class MlflowTracker:
    """Log to MLflow.

    Args:
        uri: Tracking URI (``sqlite:////abs/path.db`` or ``http://127.0.0.1:5000``).
        experiment: Experiment name.
    """

    def __init__(self, uri: str, experiment: str = "default") -> None:
        self.uri = uri
        self.experiment = experiment
        self.client_: Any = None
        self.run_id_: str | None = None

    def start(
        self, run_name: str, params: Mapping[str, Any], tags: Mapping[str, str], sweep_id: str | None = None
    ) -> str | None:
        """Create the experiment if needed and open a run with params and tags.

        With ``sweep_id`` (a ``--multirun`` sweep) the run becomes a child of one parent run per sweep,
        found by its ``memlab.sweep`` tag or created on first use.
        """
        from mlflow.tracking import MlflowClient

        artifact_location = None
        if self.uri.startswith("sqlite:///"):
            db = Path(self.uri[len("sqlite:///") :])
            if not db.is_absolute():
                raise MemlabError(
                    f"tracking.uri must be an absolute sqlite path (sqlite:////abs/file.db), got {self.uri}"
                )
            db.parent.mkdir(parents=True, exist_ok=True)
            # Artifacts beside the database, never relative to the working directory.
            artifact_location = (db.parent / f"{db.stem}-artifacts" / self.experiment).as_uri()
        self.client_ = MlflowClient(tracking_uri=self.uri)
        exp = self.client_.get_experiment_by_name(self.experiment)
        exp_id = (
            exp.experiment_id
            if exp
            else self.client_.create_experiment(self.experiment, artifact_location=artifact_location)
        )
        tags = dict(tags)
        if sweep_id:
            tags["memlab.sweep"] = sweep_id
            tags["mlflow.parentRunId"] = self._parent(exp_id, sweep_id)
        run = self.client_.create_run(exp_id, run_name=run_name, tags=tags)
        self.run_id_ = run.info.run_id
        from mlflow.entities import Param

        items = [Param(k, str(v)[:6000]) for k, v in sorted(params.items())]
        for lo in range(0, len(items), 100):
            self.client_.log_batch(self.run_id_, params=items[lo : lo + 100])
        return self.run_id_

    def _parent(self, exp_id: str, sweep_id: str) -> str:
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
        """Log finite metrics (non-finite values are skipped)."""
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

    def log_artifacts(self, folder: Path) -> None:
        """Upload every file of ``folder``."""
        self.client_.log_artifacts(self.run_id_, str(folder))

    def finish(self, status: str = "FINISHED") -> None:
        """Close the run."""
        if self.client_ is not None and self.run_id_ is not None:
            self.client_.set_terminated(self.run_id_, status=status)

    def ui_command(self) -> str | None:
        """The exact command that opens the MLflow UI on this store."""
        if self.uri.startswith(("http://", "https://")):
            return f"open {self.uri}"
        return f"LITELLM_LOCAL_MODEL_COST_MAP=True mlflow ui --backend-store-uri {self.uri} --workers 1"
