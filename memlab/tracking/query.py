"""Read runs back from MLflow for reports, `memlab best` and `memlab export` (mlflow stays in tracking/)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.core.paths import default_tracking_uri
from memlab.tracking.lookup import check_experiment, check_metric, check_run, database
from memlab.tracking.status import step

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")  # offline: no usage pings, no consumer thread
os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")  # reports download many small files


@dataclass(frozen=True)
class RunRecord:
    """One MLflow run, flattened.

    Attributes:
        run_id: MLflow run id.
        experiment: Experiment name.
        status: FINISHED, FAILED, RUNNING, ...
        start_time: Start time in ms since the epoch.
        params: Flattened resolved config (strings, as MLflow stores them).
        metrics: Latest value of every metric.
        tags: Tags (config hash, git sha, strategy names, dataset sha256, ...).
    """

    run_id: str
    experiment: str
    status: str
    start_time: int
    params: dict[str, str]
    metrics: dict[str, float]
    tags: dict[str, str]


def resolve_uri(uri: str | None = None) -> str:
    """``uri``, else ``$MLFLOW_TRACKING_URI``, else the default sqlite store under the project root."""
    return uri or os.environ.get("MLFLOW_TRACKING_URI") or default_tracking_uri()


def client_for(uri: str) -> Any:
    """An MLflow client of ``uri``; a one-line error when a sqlite store does not exist yet."""
    db = database(uri)
    if db is not None and not db.exists():
        raise MemlabError(f"no MLflow store at {uri}; run an experiment first (python -m memlab +experiment=...)")
    from mlflow.tracking import MlflowClient

    return MlflowClient(tracking_uri=uri)


def find_runs(experiment: str, uri: str | None = None, *, status: str | None = "FINISHED") -> list[RunRecord]:
    """Runs of ``experiment`` (newest first), optionally only those with ``status``.

    Sweep parent runs (tag ``memlab.sweep_parent``) hold no results and are left out.
    """
    uri = resolve_uri(uri)
    check_experiment(experiment, uri)  # a wrong name is answered before MLflow is imported
    with step(f"reading the runs of '{experiment}' from {uri}"):
        client = client_for(uri)
        exp = client.get_experiment_by_name(experiment)
        if exp is None:
            names = sorted(e.name for e in client.search_experiments())
            raise MemlabError(f"no MLflow experiment '{experiment}' in {uri}; existing: {', '.join(names) or 'none'}")
        query = f"attributes.status = '{status}'" if status else ""
        runs = client.search_runs(
            [exp.experiment_id], filter_string=query, max_results=50000, order_by=["attributes.start_time DESC"]
        )
    return [record_of(r, experiment) for r in runs if "memlab.sweep_parent" not in r.data.tags]


def record_of(run: Any, experiment: str) -> RunRecord:
    """An MLflow run as a :class:`RunRecord` filed under ``experiment``."""
    return RunRecord(
        run.info.run_id,
        experiment,
        run.info.status,
        int(run.info.start_time or 0),
        dict(run.data.params),
        dict(run.data.metrics),
        dict(run.data.tags),
    )


def get_run(run_id: str, uri: str | None = None) -> RunRecord:
    """One run by id."""
    uri = resolve_uri(uri)
    check_run(run_id, uri)
    client = client_for(uri)
    try:
        r = client.get_run(run_id)
    except Exception as exc:  # mlflow raises its own exception types
        raise MemlabError(f"no MLflow run '{run_id}' in {uri}: {exc}") from None
    return record_of(r, client.get_experiment(r.info.experiment_id).name)


@dataclass(frozen=True)
class Ranking:
    """The best run by a metric and the runs it tied with.

    Attributes:
        best: The chosen run.
        metric: The metric ranked on.
        ties: Other runs with exactly the best value (the tie-break chose ``best`` among them).
        rule: How ties are broken.
        considered: Runs that logged the metric.
    """

    best: RunRecord
    metric: str
    ties: tuple[RunRecord, ...]
    rule: str
    considered: int


#: How every ranking of runs breaks ties (order-independent: nothing depends on when a run started or finished).
TIE_RULE = (
    "the simpler configuration: fewer strategy groups that are not 'none', then lower cost (fewer injected "
    "tokens), then config hash, then run id"
)
#: The cost a tie is broken on: the tokens the policy injects into the agent's context (lower is cheaper).
COST_METRIC = "injected_tokens"


def main_metric(runs: list[RunRecord]) -> str:
    """The main metric the runs declare (``memlab.main_metric`` tag); one-line error when they disagree."""
    names = sorted({r.tags["memlab.main_metric"] for r in runs if r.tags.get("memlab.main_metric")})
    if len(names) != 1:
        found = ", ".join(names) or "none"
        raise MemlabError(f"the runs declare main metrics {found}; choose one with --metric")
    return names[0]


def active_groups(tags: Mapping[str, str]) -> int:
    """Strategy groups of a run (its ``tags``) that do something (a ``memlab.strategy.<group>`` not naming ``none``)."""
    return sum(1 for k, v in tags.items() if k.startswith("memlab.strategy.") and v.split("@", 1)[0] != "none")


def rank_key(
    value: float | None, run_id: str, tags: Mapping[str, str], metrics: Mapping[str, float], minimize: bool = False
) -> tuple[bool, float, int, float, str, str]:
    """The one ranking rule of runs, used by the sweep's tables and verdict, ``memlab best``, ``memlab export``,
    reports and the MLflow UI's saved view: best ``value`` first (undefined: ``None`` or NaN, last), then
    :data:`TIE_RULE` (a run without a cost ranks after those with one).

    One key everywhere is why "#1" is the run that gets exported in every place and on every re-run: a tie
    broken by run id or start time alone would pick an arbitrary configuration, different on each re-run.
    """
    undefined = value is None or value != value
    score = 0.0 if undefined else (value if minimize else -value)  # type: ignore[operator]
    cost = metrics.get(COST_METRIC, float("inf"))
    return undefined, score, active_groups(tags), cost, tags.get("memlab.config_hash", ""), run_id


def rank_runs(experiment: str, metric: str, uri: str | None = None, *, minimize: bool = False) -> Ranking:
    """The FINISHED run of ``experiment`` with the highest (lowest) ``metric``; ties by :data:`TIE_RULE`.

    Raises:
        MemlabError: No FINISHED run logged ``metric`` (the message lists the metrics runs did log that
            share its stem, e.g. the ``_heldout`` split).
    """
    check_metric(experiment, metric, resolve_uri(uri))
    return rank(find_runs(experiment, uri), metric, f"--experiment {experiment}", minimize=minimize)


def rank(finished: list[RunRecord], metric: str, selector: str, *, minimize: bool = False) -> Ranking:
    """The run of ``finished`` with the highest (lowest) ``metric``; ties by :data:`TIE_RULE`.

    Args:
        finished: FINISHED runs.
        metric: Metric to rank on.
        selector: The ``memlab best`` option that chose the runs (``--experiment NAME``, ``--sweep ID``), for messages.
        minimize: Lower is better.

    Raises:
        MemlabError: No run logged ``metric``.
    """
    runs = [r for r in finished if metric in r.metrics and r.metrics[metric] == r.metrics[metric]]  # NaN: undefined
    if not runs:
        stem = metric.rsplit("_", 1)[0]
        near = sorted({m for r in finished for m in r.metrics if m.startswith(stem)})[:12]
        hint = f"; metrics with that stem: {', '.join(near)}" if near else ""
        raise MemlabError(
            f"no FINISHED run of {selector} logged metric '{metric}'{hint}; check the name with "
            f"`memlab best {selector} --list-metrics` or run the experiment"
        )
    runs.sort(key=lambda r: rank_key(r.metrics[metric], r.run_id, r.tags, r.metrics, minimize))
    tied = tuple(r for r in runs[1:] if r.metrics[metric] == runs[0].metrics[metric])
    return Ranking(runs[0], metric, tied, TIE_RULE, len(runs))


def download_artifact(run_id: str, path: str, dest: str | Path, uri: str | None = None) -> Path:
    """Download one artifact of a run into ``dest`` and return its local path."""
    from mlflow.artifacts import download_artifacts

    uri = resolve_uri(uri)
    client_for(uri)
    return Path(download_artifacts(run_id=run_id, artifact_path=path, dst_path=str(dest), tracking_uri=uri))


def list_artifacts(run_id: str, path: str | None = None, uri: str | None = None) -> list[str]:
    """Paths of the files (not folders) directly under ``path`` in a run's artifacts; ``[]`` when none."""
    uri = resolve_uri(uri)
    return [a.path for a in client_for(uri).list_artifacts(run_id, path) if not a.is_dir]


def read_artifact(run_id: str, name: str, uri: str | None, folder: Path) -> Path | None:
    """Download one artifact of a run into ``folder/<run id>`` (``None`` when the run has none by that name)."""
    if name not in list_artifacts(run_id, None, uri):
        return None
    return download_artifact(run_id, name, folder / run_id, uri)


def run_records(run_id: str, uri: str | None, folder: Path) -> list[dict[str, Any]] | None:
    """The records of a run's ``predictions.jsonl`` (one per evaluated item); ``None`` when it has none.

    Raises:
        MemlabError: The file is not JSON lines.
    """
    import json

    path = read_artifact(run_id, "predictions.jsonl", uri, folder)
    if path is None:
        return None
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise MemlabError(
            f"predictions.jsonl of run {run_id} is not JSON lines ({exc}); re-run it or drop the run"
        ) from None
