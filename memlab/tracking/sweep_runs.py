"""The runs one comparison wrote: the children of a ``--multirun`` sweep, found by their ``memlab.sweep`` tag.

A sweep's jobs may name different experiments (``+experiment=seed_git_notes_memory_nollm,tuned``: both name
``presets``, which other comparisons share), so ``memlab best --sweep`` and ``memlab export --sweep`` select by
the sweep id every child carries, in whichever experiment it is filed, and never by experiment alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from memlab.core.errors import MemlabError
from memlab.tracking.query import RunRecord, client_for, record_of, resolve_uri
from memlab.tracking.status import step

#: The ``--sweep`` value that names the newest sweep in the store.
LAST = "last"


@dataclass(frozen=True)
class Sweep:
    """One sweep's FINISHED children.

    Attributes:
        sweep_id: The sweep id (``20261127-103410-2332e5``).
        status: Its parent run's status (RUNNING while jobs still run).
        runs: The FINISHED child runs, newest first.
        jobs: Child runs of any status.
    """

    sweep_id: str
    status: str
    runs: list[RunRecord]
    jobs: int


def _escape(value: str) -> str:
    return value.replace("'", "\\'")


def find_sweep(sweep: str, uri: str | None = None) -> Sweep:
    """The FINISHED runs of sweep ``sweep`` (``last``: the sweep whose parent run started last), across experiments.

    Raises:
        MemlabError: No sweep in the store, no sweep with that id, or a sweep without a FINISHED run.
    """
    uri = resolve_uri(uri)
    with step(f"reading sweep {sweep} from {uri}"):
        client = client_for(uri)
        experiments = {e.experiment_id: e.name for e in client.search_experiments(max_results=50000)}
        ids = list(experiments)
        where = "tags.`memlab.sweep_parent` LIKE '%'" if sweep == LAST else f"tags.`memlab.sweep` = '{_escape(sweep)}'"
        newest = ["attributes.start_time DESC"]
        parents = client.search_runs(ids, filter_string=where, max_results=50000, order_by=newest)
        parents = [p for p in parents if "memlab.sweep_parent" in p.data.tags]
        if not parents:
            known = "" if sweep == LAST else "; `memlab best --sweep last` takes the newest"
            what = "no sweep" if sweep == LAST else f"no sweep '{sweep}'"
            raise MemlabError(
                f"{what} in {uri}{known}; a comparison is a --multirun (e.g. make quickstart) or give --experiment NAME"
            )
        parent = parents[0]
        sweep_id = parent.data.tags["memlab.sweep_parent"]
        children = client.search_runs(
            ids,
            filter_string=f"tags.`memlab.sweep` = '{_escape(sweep_id)}'",
            max_results=50000,
            order_by=newest,
        )
    jobs = [r for r in children if "memlab.sweep_parent" not in r.data.tags]
    runs = [record_of(r, experiments.get(r.info.experiment_id, "")) for r in jobs if r.info.status == "FINISHED"]
    if not runs:
        states = ", ".join(sorted({r.info.status for r in jobs})) or "no job started"
        raise MemlabError(
            f"sweep {sweep_id} has no FINISHED run ({states}); wait for it or choose another with --sweep ID"
        )
    return Sweep(sweep_id, parent.info.status, runs, len(jobs))
