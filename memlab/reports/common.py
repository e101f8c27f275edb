"""What every report shares: refusing to overwrite, refusing to write from nothing, saving figures.

A report is written only from runs that exist (no runs: one-line error, nothing written) and never over
an existing file unless ``--force`` is given, so a fresh clone's empty store cannot replace a committed
report with empty tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memlab.errors import MemlabError


def check_output(paths: Sequence[Path], force: bool) -> None:
    """Raise when one of ``paths`` exists and ``force`` is off.

    Raises:
        MemlabError: Naming the file and the two ways out (``--force`` or another ``--out``).
    """
    existing = [p for p in paths if p.exists()]
    if existing and not force:
        raise MemlabError(
            f"{existing[0]} exists; pass --force to overwrite it (the report is regenerated from the runs) "
            "or --out NEW.md to write elsewhere"
        )


def require_runs(runs: Sequence[Any], experiments: Sequence[str], uri: str | None) -> None:
    """One-line error when there are no finished runs to report on."""
    if not runs:
        from memlab.tracking.query import resolve_uri

        names = ", ".join(experiments)
        raise MemlabError(
            f"no FINISHED runs of experiment {names} in {resolve_uri(uri)}; run it first "
            "(python -m memlab +experiment=...) or pass --uri for another store; nothing was written"
        )


def finished_runs(experiment: str, uri: str | None) -> list[Any]:
    """Finished runs of ``experiment``; none when the experiment or the store does not exist yet."""
    from memlab.tracking.query import find_runs

    try:
        return find_runs(experiment, uri)
    except MemlabError as exc:
        if "no MLflow experiment" in str(exc) or "no MLflow store" in str(exc):
            return []
        raise


def save(fig: Any, path: Path) -> Path:
    """Save a matplotlib figure as PNG (no timestamps in the file) and close it."""
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, metadata={"Software": None})
    plt.close(fig)
    return path


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
