"""The MLflow store of a sweep: created and migrated once, the sweep's parent run, finished runs by hash.

Parallel jobs (joblib, Ray) that open a fresh sqlite store at the same moment race on MLflow's schema
migration ("Online migration expected to match one row ..."); :func:`prepare_store` creates and migrates the
store once, in the process that launches the jobs, and switches sqlite to write-ahead logging so that
readers never wait for a writer. Two memlab processes that open the same fresh store at once (two sweeps started
together) race the same way ("table experiments already exists", and that job's run is lost), so creating and
migrating a sqlite store happens under an exclusive lock on a file beside it (:func:`store_lock`).
:func:`open_parent` and :func:`close_parent` bracket a sweep with one
parent run; :func:`finished_run` finds a FINISHED run with a given config hash (``tracking.skip_finished``).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.tracking.landing import RANK_TAG
from memlab.tracking.lookup import database

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")


def sqlite_path(uri: str) -> Path | None:
    """The database file of a ``sqlite:///`` URI (``None`` for other stores)."""
    path = database(uri)
    if path is not None and not path.is_absolute():
        raise MemlabError(f"tracking.uri must be an absolute sqlite path (sqlite:////abs/file.db), got {uri}")
    return path


@contextmanager
def store_lock(uri: str) -> Iterator[None]:
    """Hold an exclusive lock on ``<database>-lock`` beside a sqlite store (nothing for other stores, or where
    the platform has no ``fcntl``): one process at a time creates or migrates the schema.
    """
    db = sqlite_path(uri)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        fcntl = None  # type: ignore[assignment]
    if db is None or fcntl is None:
        yield
        return
    db.parent.mkdir(parents=True, exist_ok=True)
    with open(db.with_name(db.name + "-lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


#: The experiment a run without a study is filed under; MLflow's own default experiment (id 0) takes this name in
#: a store memlab creates, so the UI lists one default experiment, not both ``Default`` and ``default``.
DEFAULT_EXPERIMENT = "default"


def open_client(uri: str) -> Any:
    """An ``MlflowClient`` for ``uri`` whose store exists and is migrated (created under :func:`store_lock`).

    A sqlite store created here keeps every artifact beside the database, MLflow's default experiment's too,
    and that experiment is named :data:`DEFAULT_EXPERIMENT`. MLflow's and alembic's INFO lines about creating
    and migrating tables are kept out of the run's output (a run's output is its own; a failure still shows).
    """
    import logging

    from mlflow.tracking import MlflowClient

    quiet = [logging.getLogger(name) for name in ("alembic", "mlflow.store.db.utils")]
    for log in quiet:
        log.setLevel(logging.WARNING)
    with store_lock(uri):
        db = sqlite_path(uri)
        if db is not None and not db.exists():
            from mlflow.store.tracking.sqlalchemy_store import SqlAlchemyStore

            root = artifact_location(uri, "")
            SqlAlchemyStore(uri, root.rstrip("/") if root else None).engine.dispose()
            client = MlflowClient(tracking_uri=uri)
            if client.get_experiment_by_name(DEFAULT_EXPERIMENT) is None:
                client.rename_experiment("0", DEFAULT_EXPERIMENT)
            return client
        client = MlflowClient(tracking_uri=uri)
        client.search_experiments(max_results=1)  # creates and migrates the schema
    return client


def artifact_location(uri: str, experiment: str) -> str | None:
    """Artifacts beside a sqlite database (never relative to the working directory); server: its default."""
    db = sqlite_path(uri)
    return (db.parent / f"{db.stem}-artifacts" / experiment).as_uri() if db else None


def prepare_store(uri: str, experiment: str | None = None) -> str | None:
    """Create and migrate the store at ``uri`` (once, before parallel jobs) and the experiment.

    A sqlite database is switched to write-ahead logging (a persistent setting of the file). Safe to call
    on an existing store. Returns the experiment id when ``experiment`` is given.
    """
    db = sqlite_path(uri)
    if db is not None:
        db.parent.mkdir(parents=True, exist_ok=True)
    client = open_client(uri)
    if db is not None:
        with store_lock(uri), sqlite3.connect(db, timeout=30) as con:
            con.execute("PRAGMA journal_mode=WAL")
    if experiment is None:
        return None
    return ensure_experiment(client, uri, experiment)


def ensure_experiment(client: Any, uri: str, experiment: str) -> str:
    """Id of ``experiment``, created if missing (a concurrent creator wins; its id is returned)."""
    exp = client.get_experiment_by_name(experiment)
    if exp is not None:
        return exp.experiment_id
    try:
        return client.create_experiment(experiment, artifact_location=artifact_location(uri, experiment))
    except Exception:  # another job created it between the lookup and the insert
        exp = client.get_experiment_by_name(experiment)
        if exp is None:
            raise
        return exp.experiment_id


def open_parent(uri: str, experiment: str, sweep_id: str, tags: Mapping[str, str] | None = None) -> str:
    """Create the parent run of sweep ``sweep_id`` (status RUNNING until :func:`close_parent`)."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=uri)
    exp_id = ensure_experiment(client, uri, experiment)
    all_tags = {"memlab.sweep_parent": sweep_id, "memlab.sweep": sweep_id, **dict(tags or {})}
    return client.create_run(exp_id, run_name=f"sweep {sweep_id}", tags=all_tags).info.run_id


@dataclass(frozen=True)
class ChildRun:
    """One job of a sweep as the comparison table shows it.

    Attributes:
        run_id: MLflow run id.
        name: Run name (the overrides that tell the job apart).
        status: FINISHED, FAILED, ...
        main_metric: The benchmark's main metric.
        value: Its value (``None`` when the run did not log it).
        headline: The benchmark's headline metrics and their values.
        interval: The main metric's 95% interval when the run logged one (``_ci_low`` / ``_ci_high``).
        params: The run's parameters.
        metrics: Every metric the run logged with a value (NaN, which older runs logged, is undefined: left out);
            a table finds a rate's count ``n`` among them (:func:`memlab.benchmarks.metrics.count_of`).
        tags: The run's tags (strategy names, config hash: the tie rule of :func:`ranked` reads them).
    """

    run_id: str
    name: str
    status: str
    main_metric: str
    value: float | None
    headline: tuple[tuple[str, float | None], ...] = ()
    interval: tuple[float, float] | None = None
    params: tuple[tuple[str, str], ...] = ()
    metrics: tuple[tuple[str, float], ...] = ()
    tags: tuple[tuple[str, str], ...] = ()


def ranked(rows: list[ChildRun]) -> list[ChildRun]:
    """The jobs in the one ranking order (:func:`memlab.tracking.query.rank_key`); a job that did not finish
    ranks with the unscored, last (``memlab best`` ranks FINISHED runs only).
    """
    from memlab.tracking.query import rank_key

    def key(c: ChildRun) -> tuple[bool, float, int, float, str, str]:
        return rank_key(c.value if c.status == "FINISHED" else None, c.run_id, dict(c.tags), dict(c.metrics))

    return sorted(rows, key=key)


def children(uri: str, parent_id: str) -> list[ChildRun]:
    """The runs whose parent is ``parent_id`` (in the parent's experiment), in start order."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=uri)
    runs = client.search_runs(
        [client.get_run(parent_id).info.experiment_id],
        filter_string=f"tags.`mlflow.parentRunId` = '{parent_id}'",
        max_results=50000,
        order_by=["attributes.start_time ASC"],
    )
    out = []
    for r in runs:
        metric = r.data.tags.get("memlab.main_metric", "")
        names = [n for n in r.data.tags.get("memlab.headline", "").split(",") if n]
        logged = {k: v for k, v in r.data.metrics.items() if v == v}  # NaN (older runs): undefined
        headline = tuple((n, logged.get(n)) for n in names)
        low, high = logged.get(f"{metric}_ci_low"), logged.get(f"{metric}_ci_high")
        interval = (low, high) if low is not None and high is not None else None
        params = tuple(sorted(r.data.params.items()))
        row = (r.info.run_id, r.info.run_name or "", r.info.status, metric, logged.get(metric), headline, interval)
        tags = tuple(sorted(r.data.tags.items()))
        out.append(ChildRun(*row, params, tuple(sorted(logged.items())), tags))
    return out


def close_parent(uri: str, parent_id: str, table: str, folder: Path | None = None) -> None:
    """Attach the comparison (``table`` as ``comparison.md``, and every file of ``folder``), record the best
    child's main metric and finish the parent run.
    """
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=uri)
    runs = children(uri, parent_id)
    client.set_tag(parent_id, "memlab.sweep_jobs", str(len(runs)))
    for rank, c in enumerate(ranked(runs), 1):  # the UI's saved view orders the jobs by this tag
        client.set_tag(c.run_id, RANK_TAG, f"{rank:04d}")
        if rank == 1 and c.value is not None and c.status == "FINISHED":
            client.log_metric(parent_id, f"best_{c.main_metric}", float(c.value))
            client.set_tag(parent_id, "memlab.sweep_best_run", c.run_id)
    client.log_text(parent_id, table, "comparison.md")
    if folder is not None:
        client.log_artifacts(parent_id, str(folder))
    failed = any(c.status == "FAILED" for c in runs)
    client.set_terminated(parent_id, status="FAILED" if failed or not runs else "FINISHED")


@dataclass(frozen=True)
class FinishedRun:
    """A FINISHED run found by config hash."""

    run_id: str
    experiment_id: str
    metrics: dict[str, float]


def finished_run(uri: str, experiment: str, config_hash: str) -> FinishedRun | None:
    """The newest FINISHED run of ``experiment`` tagged with ``config_hash``, if any."""
    from mlflow.tracking import MlflowClient

    db = sqlite_path(uri)
    if db is not None and not db.exists():
        return None
    client = MlflowClient(tracking_uri=uri)
    exp = client.get_experiment_by_name(experiment)
    if exp is None:
        return None
    found = client.search_runs(
        [exp.experiment_id],
        filter_string=f"tags.`memlab.config_hash` = '{config_hash}' and attributes.status = 'FINISHED'",
        max_results=1,
        order_by=["attributes.start_time DESC"],
    )
    if not found:
        return None
    return FinishedRun(found[0].info.run_id, exp.experiment_id, dict(found[0].data.metrics))


def run_url(uri: str, run_id: str, port: int = 5000) -> str:
    """The UI address of one run (the server at ``uri`` itself, or a local UI on ``port`` for a file store)."""
    from mlflow.tracking import MlflowClient

    from memlab.tracking.landing import ui_base

    exp_id = MlflowClient(tracking_uri=uri).get_run(run_id).info.experiment_id
    return f"{ui_base(uri, port)}/#/experiments/{exp_id}/runs/{run_id}"
