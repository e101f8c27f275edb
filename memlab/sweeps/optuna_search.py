"""A resumable Optuna search: hydra-optuna-sweeper with a persistent study that runs to a total.

``conf/search/*.yaml`` select this sweeper (``+search=NAME``). It is hydra-optuna-sweeper's
``OptunaSweeper`` with two changes:

* ``n_trials`` is the size the study should reach, so running the same command again resumes an
  interrupted search (trials left RUNNING by a killed process are marked FAIL and redone) and a finished
  one runs no further trials;
* a resumed study reseeds its sampler with the seed plus the trials already complete (the same seed
  would replay the first trials' parameters);
* the sqlite storage is created before the sweeper opens it. hydra-optuna-sweeper pins optuna < 3, and
  optuna 2.10 stamps its schema version on a connection it never commits under SQLAlchemy 2 (the study
  then fails with ``AssertionError`` in ``get_current_version``); creating the tables once on an
  autocommit engine avoids that, and the study then works unchanged.

The objective is what ``python -m memlab`` returns: the benchmark card's main metric.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from hydra_plugins.hydra_optuna_sweeper.optuna_sweeper import OptunaSweeper
from omegaconf import OmegaConf

log = logging.getLogger(__name__)


def prepare_storage(url: str) -> None:
    """Create the optuna tables and stamp their schema version (autocommit), once; safe to repeat."""
    if url.startswith("sqlite:///"):
        Path(url[len("sqlite:///") :]).parent.mkdir(parents=True, exist_ok=True)
    from optuna.storages import RDBStorage

    storage = RDBStorage(url, engine_kwargs={"isolation_level": "AUTOCOMMIT"})
    storage.engine.dispose()


def study_progress(url: str, study_name: str) -> tuple[int, int]:
    """``(complete, stale)`` trials of a study: stale RUNNING trials are marked FAIL (none run now)."""
    import optuna

    try:
        study = optuna.load_study(study_name=study_name, storage=url)
    except KeyError:  # no such study yet
        return 0, 0
    stale = 0
    for trial in study.get_trials(deepcopy=False):
        if trial.state == optuna.trial.TrialState.RUNNING:
            study._storage.set_trial_state(trial._trial_id, optuna.trial.TrialState.FAIL)
            stale += 1
    complete = len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)))
    return complete, stale


def reseed(sampler: Any, seed: int) -> None:
    """Give a sampler (and its random fallback) a new seed, so a resumed study does not replay its start."""
    import numpy as np

    for obj in (sampler, getattr(sampler, "_random_sampler", None)):
        if obj is not None and hasattr(obj, "_rng"):
            obj._rng = np.random.RandomState(seed % (2**32))


class ResumableOptunaSweeper(OptunaSweeper):
    """hydra-optuna-sweeper whose ``n_trials`` is the study's total (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.target_trials = int(self.sweeper.n_trials)

    def sweep(self, arguments: list[str]) -> None:
        """Prepare the storage, run the trials the study still lacks, then the usual summary."""
        impl = self.sweeper
        if isinstance(impl.storage, str) and impl.storage:
            prepare_storage(impl.storage)
            done, stale = study_progress(impl.storage, str(impl.study_name))
            impl.n_trials = max(0, self.target_trials - done)
            if done:
                base = OmegaConf.select(impl.config, "hydra.sweeper.sampler.seed", default=0) or 0
                reseed(impl.sampler, int(base) + done)
            print(
                f"memlab: study '{impl.study_name}' has {done} complete trials of {self.target_trials}"
                + (f" ({stale} interrupted trials marked FAIL)" if stale else "")
                + f"; running {impl.n_trials}",
                flush=True,
            )
        Path(str(impl.config.hydra.sweep.dir)).mkdir(parents=True, exist_ok=True)  # results file, even with 0 trials
        return super().sweep(arguments)
