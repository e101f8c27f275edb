"""Name look-ups answered from a sqlite store's tables, before MLflow is imported (a second or more saved on every
``memlab best``, ``export`` or ``report`` with a wrong experiment, run id or metric name).

Only reads: the database is opened read-only. Stores that are not sqlite files (a tracking server) are left to
MLflow (:func:`experiment_names` returns ``None``), as is any store whose tables this module cannot read.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from memlab.core.errors import MemlabError


def database(uri: str) -> Path | None:
    """The database file of a ``sqlite:///`` URI (``None`` for other stores)."""
    if not uri.startswith("sqlite:///"):
        return None
    return Path(uri[len("sqlite:///") :].split("?", 1)[0])


def query(uri: str, sql: str, params: tuple = ()) -> list[tuple] | None:
    """Rows of a read-only query on the store; ``None`` when it is not a readable sqlite store."""
    db = database(uri)
    if db is None:
        return None
    if not db.exists():
        raise MemlabError(f"no MLflow store at {uri}; run an experiment first (python -m memlab +experiment=...)")
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as con:
            return con.execute(sql, params).fetchall()
    except sqlite3.Error:
        return None  # another schema or a locked file: MLflow decides


def experiment_names(uri: str) -> dict[str, str] | None:
    """Active experiments of the store, name -> id (``None``: not a sqlite store)."""
    rows = query(uri, "SELECT name, experiment_id FROM experiments WHERE lifecycle_stage = 'active'")
    return None if rows is None else {str(name): str(exp_id) for name, exp_id in rows}


def check_experiment(experiment: str, uri: str) -> str | None:
    """The experiment's id; a one-line :class:`MemlabError` naming the existing experiments when it does not exist."""
    names = experiment_names(uri)
    if names is None:
        return None
    if experiment not in names:
        import difflib

        close = difflib.get_close_matches(experiment, sorted(names), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        listed = ", ".join(sorted(names)) or "none"
        raise MemlabError(f"no MLflow experiment '{experiment}' in {uri}{hint}; existing: {listed}")
    return names[experiment]


def check_run(run_id: str, uri: str) -> None:
    """A one-line :class:`MemlabError` when the store has no run ``run_id``."""
    rows = query(uri, "SELECT status FROM runs WHERE run_uuid = ?", (run_id,))
    if rows is not None and not rows:
        raise MemlabError(f"no MLflow run '{run_id}' in {uri}; `memlab best --experiment NAME` prints run ids")


def finished_metrics(experiment: str, uri: str) -> set[str] | None:
    """Metrics logged by the experiment's FINISHED runs (``None``: not a sqlite store)."""
    exp_id = check_experiment(experiment, uri)
    if exp_id is None:
        return None
    rows = query(
        uri,
        "SELECT DISTINCT m.key FROM latest_metrics m JOIN runs r ON m.run_uuid = r.run_uuid "
        "WHERE r.experiment_id = ? AND r.status = 'FINISHED' AND r.lifecycle_stage = 'active'",
        (exp_id,),
    )
    return None if rows is None else {str(key) for (key,) in rows}


def check_metric(experiment: str, metric: str, uri: str) -> None:
    """A one-line :class:`MemlabError` when no FINISHED run of ``experiment`` logged ``metric`` (the message lists
    the logged metrics that share its stem, e.g. the ``_heldout`` split).
    """
    logged = finished_metrics(experiment, uri)
    if logged is None or metric in logged:
        return
    if not logged:
        raise MemlabError(f"no FINISHED run in experiment '{experiment}'; run it first")
    stem = metric.rsplit("_", 1)[0]
    near = sorted(m for m in logged if m.startswith(stem))[:12]
    hint = f"; metrics with that stem: {', '.join(near)}" if near else ""
    raise MemlabError(
        f"no FINISHED run of '{experiment}' logged metric '{metric}'{hint}; check the name with "
        f"`memlab best --experiment {experiment} --list-metrics` or run the experiment"
    )
