"""``hydra/launcher=ray``: one Ray task per job, on a local Ray instance or an existing cluster.

hydra-ray-launcher (1.2.2, the newest on PyPI) cannot be installed beside memlab: it requires
``cloudpickle<3`` while dspy requires ``cloudpickle>=3.1.2`` (pip: ``ResolutionImpossible``). This launcher is
the same idea on Ray itself, in a few lines: every job's config is composed in the launching process (as
Hydra's own launchers do), shipped with Hydra's state to a Ray task, and run there with
:func:`hydra.core.utils.run_job`; results come back in job order, with a progress bar while they arrive.

``hydra.launcher.address``: ``null`` starts a local Ray instance for the sweep and stops it afterwards;
``HOST:6379`` (or ``ray://HOST:10001``) submits to a running cluster, whose nodes need memlab installed
and, for one store shared by all jobs, ``hydra.launcher.env.MLFLOW_TRACKING_URI=http://SERVER:5000``.
A cluster started with ``ray start`` uses token authentication; the launcher turns it on for the driver
when a token is at hand (:func:`token_auth`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from hydra.core.singleton import Singleton
from hydra.core.utils import JobReturn, configure_log, filter_overrides, run_job, setup_globals
from hydra.plugins.launcher import Launcher
from hydra.types import HydraContext, TaskFunction
from omegaconf import DictConfig, OmegaConf, open_dict

log = logging.getLogger(__name__)


def _execute(hydra_context: HydraContext, sweep_config: DictConfig, task_function: TaskFunction, state: Any) -> Any:
    """Run one job inside a Ray worker (Hydra's state restored first)."""
    from hydra.core.hydra_config import HydraConfig

    setup_globals()
    Singleton.set_state(state)
    HydraConfig.instance().set_config(sweep_config)
    return run_job(
        hydra_context=hydra_context,
        task_function=task_function,
        config=sweep_config,
        job_dir_key="hydra.sweep.dir",
        job_subdir_key="hydra.sweep.subdir",
    )


def token_auth(address: str | None) -> None:
    """Connecting to a running cluster: use Ray's token authentication when a token is at hand.

    ``ray start`` clusters authenticate with a token (``~/.ray/auth_token``, ``$RAY_AUTH_TOKEN`` or
    ``$RAY_AUTH_TOKEN_PATH``) while a driver defaults to no authentication; an explicit ``RAY_AUTH_MODE`` wins.
    """
    if address is None or "RAY_AUTH_MODE" in os.environ:
        return
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or str(Path.home() / ".ray" / "auth_token")
    if os.environ.get("RAY_AUTH_TOKEN") or Path(path).is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


def job_env(extra: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Environment of the jobs: this checkout on ``PYTHONPATH``, memlab's switches, then ``extra``."""
    from memlab.core.paths import PROJECT_ROOT
    from memlab.sweeps.plugins import HYDRA_PATH

    paths = (str(PROJECT_ROOT), str(HYDRA_PATH), os.environ.get("PYTHONPATH"))
    env = {"PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    for key in ("MEMLAB_SWEEP_ID", "MEMLAB_QUIET", "MEMLAB_DATA_DIR", "MLFLOW_TRACKING_URI", "CI"):
        if os.environ.get(key):
            env[key] = os.environ[key]
    env.update({str(k): str(v) for k, v in (extra or {}).items()})
    return env


class RayLauncher(Launcher):
    """Launch each job as a Ray task.

    Args:
        address: Ray address (``None``: start a local instance for the sweep).
        num_cpus: CPUs each job reserves.
        init: Extra ``ray.init`` arguments (for a local instance: ``num_cpus``, ``object_store_memory``, ...).
        env: Extra environment variables for the jobs.
    """

    def __init__(
        self,
        address: str | None = None,
        num_cpus: float = 1,
        init: Mapping[str, Any] | None = None,
        env: Mapping[str, Any] | None = None,
    ) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self.init = dict(init or {})
        self.env = dict(env or {})
        self.config: DictConfig | None = None
        self.task_function: TaskFunction | None = None
        self.hydra_context: HydraContext | None = None

    def setup(self, *, hydra_context: HydraContext, task_function: TaskFunction, config: DictConfig) -> None:
        """Keep what :meth:`launch` needs."""
        self.config = config
        self.hydra_context = hydra_context
        self.task_function = task_function

    def launch(self, job_overrides: Sequence[Sequence[str]], initial_job_idx: int) -> Sequence[JobReturn]:
        """Submit one Ray task per job; return their results in job order."""
        token_auth(self.address)  # before Ray is imported: it reads RAY_AUTH_MODE once
        import ray

        assert self.config is not None and self.hydra_context is not None and self.task_function is not None
        setup_globals()
        configure_log(self.config.hydra.hydra_logging, self.config.hydra.verbose)
        Path(str(self.config.hydra.sweep.dir)).mkdir(parents=True, exist_ok=True)
        started = not ray.is_initialized()
        if started:
            init = OmegaConf.to_container(OmegaConf.create(self.init), resolve=True) if self.init else {}
            ray.init(address=self.address, runtime_env={"env_vars": job_env(self.env)}, **init)  # type: ignore[arg-type]
        log.info(f"Ray launcher: {len(job_overrides)} jobs on {self.address or 'a local Ray instance'}")
        remote = ray.remote(num_cpus=self.num_cpus, max_retries=0)(_execute)
        state = Singleton.get_state()
        futures = []
        try:
            for offset, overrides in enumerate(job_overrides):
                idx = initial_job_idx + offset
                log.info(f"\t#{idx} : {' '.join(filter_overrides(overrides))}")
                sweep_config = self.hydra_context.config_loader.load_sweep_config(self.config, list(overrides))
                with open_dict(sweep_config):
                    sweep_config.hydra.job.id = f"{sweep_config.hydra.job.name}_{idx}"
                    sweep_config.hydra.job.num = idx
                futures.append(remote.remote(self.hydra_context, sweep_config, self.task_function, state))
            results = dict(self._collect(futures))
        finally:
            if started and self.address is None:
                ray.shutdown()
        return [results[i] for i in range(len(futures))]

    @staticmethod
    def _collect(futures: list[Any]) -> Iterator[tuple[int, JobReturn]]:
        """``(index, result)`` as tasks finish, with a progress bar."""
        import ray

        from memlab.observability.progress import progress

        index = {f: i for i, f in enumerate(futures)}

        def arrivals() -> Iterator[tuple[int, JobReturn]]:
            pending = list(futures)
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield index[ref], ray.get(ref)

        yield from progress(arrivals(), total=len(futures), desc="sweep jobs", unit="job")
