"""Make memlab's Hydra plugins visible to Hydra: ``hydra_plugins.memlab_sweeps.<Class>``.

Hydra instantiates a launcher or sweeper only from classes it found by scanning the ``hydra_plugins``
namespace package. The package ``hydra_plugins.memlab_sweeps`` ships inside memlab
(``memlab/sweeps/hydra_path/``); :func:`register` adds that folder to ``sys.path`` (the entry point calls it
before Hydra starts, and Ray jobs get it on ``PYTHONPATH``).
"""

from __future__ import annotations

import sys
from pathlib import Path

#: Folder holding the ``hydra_plugins/memlab_sweeps`` package.
HYDRA_PATH: Path = Path(__file__).resolve().parent / "hydra_path"


def register() -> None:
    """Put :data:`HYDRA_PATH` on ``sys.path`` (idempotent)."""
    if str(HYDRA_PATH) not in sys.path:
        sys.path.append(str(HYDRA_PATH))
