"""Hydra callback that brackets a ``--multirun`` sweep (wired in ``conf/hydra/memlab.yaml``).

Before any job starts (in the launching process) it creates and migrates the MLflow store, chooses the sweep's
one experiment (:mod:`memlab.sweeps.jobs`) and opens one parent run there; each job (in whatever process or Ray
worker runs it) learns the sweep id, the experiment and its own name from the callback's state, which Hydra ships
to the job with its context; at the end it prints one comparison table (one row per job, best first), attaches
it and a figure to the parent run, saves a view of the children in the MLflow UI and prints the command that
opens the UI and the view's address. With ``tracking=none`` it does nothing.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig

from memlab.sweeps.jobs import tracking_of
from memlab.sweeps.table import comparison_table, print_comparison
from memlab.tracking.base import SWEEP_ENV, SWEEP_EXPERIMENT_ENV, SWEEP_NAME_ENV
from memlab.tracking.status import step

#: The status line of the job running in this process (kept here, not on the callback, which Hydra pickles).
_RUNNING: list[Any] = []


class SweepCallback(Callback):
    """One experiment and parent run per sweep, a store prepared before parallel jobs, a comparison at the end."""

    def __init__(self) -> None:
        self.sweep_id: str | None = None
        self.parent_id: str | None = None
        self.uri: str | None = None
        self.experiment: str | None = None
        self.fixed: set[str] = set()
        self.ui_port = 5000

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        """Prepare the store, choose the study's experiment and open the parent run (launching process)."""
        tracking = tracking_of(config)
        if tracking is None:
            return
        from memlab.sweeps.jobs import fixed_overrides, study_experiment
        from memlab.tracking.store import open_parent, prepare_store

        self.uri = str(tracking["uri"])
        self.ui_port = int(tracking.get("ui_port") or 5000)
        with step(f"preparing the MLflow store {self.uri}"):
            self.experiment, named = study_experiment(config)
            self.fixed = fixed_overrides(config)
            prepare_store(self.uri, self.experiment)
        self.sweep_id = f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
        sweep_dir = str(config.hydra.sweep.dir)
        self.parent_id = open_parent(self.uri, self.experiment, self.sweep_id, {"memlab.sweep_dir": sweep_dir})
        os.environ[SWEEP_ENV] = self.sweep_id
        os.environ[SWEEP_EXPERIMENT_ENV] = self.experiment
        if len(named) > 1:
            print(
                f"memlab: the jobs name the experiments {', '.join(named)}; this sweep files every run under "
                f"'{self.experiment}' (choose another with experiment_name=NAME)",
                flush=True,
            )
        print(f"memlab: sweep {self.sweep_id}: MLflow parent run {self.parent_id} ({self.experiment})", flush=True)

    def on_job_start(self, config: DictConfig, **kwargs: Any) -> None:
        """Tell the job its sweep, experiment and name (runs in the job's own process); a run that runs for
        seconds says so on stderr (:func:`memlab.tracking.status.step`), a job of a sweep at once: a joblib or
        Ray worker reuses its loaded models, so later jobs often end within the delay and said nothing.
        """
        from omegaconf import OmegaConf

        from memlab.sweeps.jobs import job_name, task_overrides

        name = job_name(task_overrides(config), self.fixed)
        self.on_job_end(config)  # a job before this one that did not end (it failed before Hydra's end hook)
        multirun = str(OmegaConf.select(config, "hydra.mode", default="")).endswith("MULTIRUN")
        number = f"#{OmegaConf.select(config, 'hydra.job.num')} " if multirun else ""
        running = step(
            f"job {number}{name or 'run'}: running (model loading, episodes, scoring)", 0 if multirun else None
        )
        running.__enter__()
        _RUNNING.append(running)
        if not self.sweep_id:
            return
        os.environ[SWEEP_ENV] = self.sweep_id
        if self.experiment:
            os.environ[SWEEP_EXPERIMENT_ENV] = self.experiment
        if name:
            os.environ[SWEEP_NAME_ENV] = name
        else:
            os.environ.pop(SWEEP_NAME_ENV, None)

    def on_job_end(self, config: DictConfig, job_return: Any = None, **kwargs: Any) -> None:
        """End the job's status line (it says how long the job took when it was shown; a failed job's says
        "stopped", not "done").
        """
        from hydra.core.utils import JobStatus

        failed = job_return is not None and job_return.status == JobStatus.FAILED
        error = RuntimeError("the job failed")
        while _RUNNING:
            _RUNNING.pop().__exit__(*((RuntimeError, error, None) if failed else (None, None, None)))

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        """Print and attach the comparison (table and figure), save the UI view, close the parent run."""
        for key in (SWEEP_ENV, SWEEP_EXPERIMENT_ENV, SWEEP_NAME_ENV):
            os.environ.pop(key, None)
        if not (self.uri and self.parent_id):
            return
        from memlab.tracking.landing import ui_command
        from memlab.tracking.store import children, close_parent

        with step("attaching the comparison to the parent run"):
            from memlab.sweeps.paired import paired_vs_best

            rows = children(self.uri, self.parent_id)
            paired = paired_vs_best(rows, self.uri)
            table = comparison_table(rows, paired)
            with tempfile.TemporaryDirectory(prefix="memlab-sweep-") as folder:
                write_figure(rows, Path(folder))
                close_parent(self.uri, self.parent_id, table, Path(folder))
            url = save_landing(self.uri, self.parent_id, self.sweep_id or "", rows, self.ui_port)
        print_comparison(rows, paired)
        print(f"memlab: sweep {self.sweep_id}: {len(rows)} runs under parent run {self.parent_id}", flush=True)
        command = ui_command(self.uri, self.ui_port)
        if command:
            print(f"memlab: MLflow UI: {command}", flush=True)
        print(f"memlab: comparison in the UI: {url}", flush=True)
        if any(c.status == "FINISHED" for c in rows):  # the comparison's winner, by the sweep id (not the experiment)
            print(f"memlab: its winner: memlab best --sweep {self.sweep_id}", flush=True)
            print(f"memlab: as a hook: memlab export --sweep {self.sweep_id} --out ~/memlab-spec", flush=True)


def write_figure(rows: list[Any], folder: Path) -> Path | None:
    """``comparison.png`` of the children's main metric into ``folder`` (nothing when no child ran)."""
    if not rows:
        return None
    from memlab.observability.plots import comparison_png

    metric = next((c.main_metric for c in rows if c.main_metric), "main metric")
    names = [c.name or c.run_id[:8] for c in rows]
    return comparison_png(names, [c.value for c in rows], [c.interval for c in rows], metric, folder / "comparison.png")


def save_landing(uri: str, parent_id: str, sweep_id: str, rows: list[Any], port: int) -> str:
    """Save the UI view of the sweep's children on the experiment and return its address."""
    from memlab.sweeps.jobs import override_key
    from memlab.tracking.landing import save_sweep_view, view_state

    main = next((c.main_metric for c in rows if c.main_metric), "")
    metrics = [m for m in [main, *(n for c in rows for n, _ in c.headline)] if m]
    present = {k for c in rows for k, _ in c.params}
    swept = {override_key(o) for c in rows for o in c.name.split() if "=" in o}
    params = sorted(p for p in present if p in swept or p.rsplit(".", 1)[-1] in swept)
    state = view_state(parent_id, metrics, params, [c.name for c in rows])
    return save_sweep_view(uri, parent_id, sweep_id, state, port)
