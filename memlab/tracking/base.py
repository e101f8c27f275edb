"""The tracker base (a no-op tracker), and the environment through which a sweep names its jobs' runs.

The sweep callback (:mod:`memlab.sweeps.callback`) writes the environment variables below in each job and the
tracker reads them; they are defined here, in the lower layer, so that ``tracking`` imports nothing of ``sweeps``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: Environment variable naming the sweep a job belongs to (set by the sweep callback in each job).
SWEEP_ENV = "MEMLAB_SWEEP_ID"
#: Environment variable naming the MLflow experiment of the sweep (its parent and every child are filed there).
SWEEP_EXPERIMENT_ENV = "MEMLAB_SWEEP_EXPERIMENT"
#: Environment variable holding a job's name in its sweep (the overrides that vary across the sweep).
SWEEP_NAME_ENV = "MEMLAB_SWEEP_RUN_NAME"


def sweep_id_for(sweep_dir: str | Path) -> str:
    """The sweep id of a job: the one the sweep callback set, else the sweep folder's name."""
    return os.environ.get(SWEEP_ENV) or Path(sweep_dir).name


class Tracker:
    """Records one run: params, tags, metrics, artifacts. This base records nothing (:class:`NullTracker`).

    Contract: ``start`` opens exactly one run and returns its id (``None`` when nothing is recorded);
    ``finish`` closes it with status FINISHED or FAILED; logging after ``finish`` is an error. A base with no-op
    methods rather than a protocol: a tracker without a view (no UI, no traces) inherits the no-op, so no
    caller checks what a tracker can do.
    """

    def start(
        self, run_name: str, params: Mapping[str, Any], tags: Mapping[str, str], sweep_id: str | None = None
    ) -> str | None:
        """Open a run (a child of the sweep's parent run when ``sweep_id`` is given); the base opens none."""
        return None

    def log_metrics(self, metrics: Mapping[str, float]) -> None:
        """Record metrics."""

    def set_tags(self, tags: Mapping[str, str]) -> None:
        """Add tags to the open run."""

    def log_artifacts(self, folder: Path) -> None:
        """Attach every file under ``folder``."""

    def finish(self, status: str = "FINISHED") -> None:
        """Close the run."""

    def ui_command(self) -> str | None:
        """Shell command that opens a UI on the store, if any."""
        return None

    def finished_run(self, config_hash: str) -> tuple[str, dict[str, float]] | None:
        """``(run id, metrics)`` of a FINISHED run of this config when finished runs are skipped, else ``None``."""
        return None

    def run_url(self, run_id: str | None = None) -> str | None:
        """Address of a run's page in the UI, if any."""
        return None

    def log_trace(self, tree: Mapping[str, Any]) -> str | None:
        """Record a run's span tree in the tracker's own trace view; returns its id, if any."""
        return None


class NullTracker(Tracker):
    """Records nothing (``tracking=none``)."""
