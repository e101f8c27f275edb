"""Sweeps: the Hydra callback that brackets a ``--multirun`` with one MLflow parent run, the Ray launcher,
the resumable Optuna sweeper. Imported only by Hydra (through ``_target_``) and the entry point.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Environment variable naming the sweep a job belongs to (set by the sweep callback in each job).
SWEEP_ENV = "MEMLAB_SWEEP_ID"
#: Environment variable naming the MLflow experiment of the sweep (its parent and every child are filed there).
SWEEP_EXPERIMENT_ENV = "MEMLAB_SWEEP_EXPERIMENT"
#: Environment variable holding a job's name in its sweep (the overrides that vary across the sweep).
SWEEP_NAME_ENV = "MEMLAB_SWEEP_RUN_NAME"


def sweep_id_for(sweep_dir: str | Path) -> str:
    """The sweep id of a job: the one the sweep callback set, else the sweep folder's name."""
    return os.environ.get(SWEEP_ENV) or Path(sweep_dir).name
