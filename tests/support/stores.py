"""Fresh MLflow stores without MLflow's schema migration in every test (seconds each: dozens of alembic steps).

:func:`template` creates one sqlite store per test process the way memlab does
(:func:`memlab.tracking.store.open_client`, the real migration); :func:`fresh_store` copies it and moves its default
experiment's artifact folder beside the copy, as a store created there has it (``tests/sweeps/test_landing.py``
still checks a store created from nothing).
"""

from __future__ import annotations

import atexit
import functools
import shutil
import sqlite3
import tempfile
from pathlib import Path

from memlab.tracking.store import artifact_location, open_client


@functools.cache
def template() -> Path:
    """A migrated, empty store (one per test process, in a temporary folder removed at its exit)."""
    folder = tempfile.mkdtemp(prefix="memlab-store-")
    atexit.register(shutil.rmtree, folder, True)
    db = Path(folder) / "mlruns.db"
    open_client(f"sqlite:///{db}")
    return db


def fresh_store(folder: Path, name: str = "mlruns.db") -> str:
    """The URI of a new store ``folder/name``, as :func:`~memlab.tracking.store.open_client` would create it."""
    folder.mkdir(parents=True, exist_ok=True)
    db, source = folder / name, template()
    shutil.copyfile(source, db)
    uri = f"sqlite:///{db}"
    old, new = (artifact_location(f"sqlite:///{p}", "").rstrip("/") for p in (source, db))
    with sqlite3.connect(db) as con:
        con.execute("UPDATE experiments SET artifact_location = replace(artifact_location, ?, ?)", (old, new))
    con.close()
    return uri
