"""Project locations: the checkout root, the conf directory and the default data directory."""

from __future__ import annotations

import os
from pathlib import Path

#: The checkout root (the folder holding ``pyproject.toml``, ``conf/`` and ``memlab/``).
PROJECT_ROOT: Path = Path(__file__).resolve().parents[2]

#: Hydra config directory.
CONF_DIR: Path = PROJECT_ROOT / "conf"


def default_data_dir() -> Path:
    """Third-party data directory: ``$MEMLAB_DATA_DIR``, else ``../shared/datasets`` beside the checkout."""
    env = os.environ.get("MEMLAB_DATA_DIR")
    if env:
        return Path(env).expanduser().resolve()
    return (PROJECT_ROOT.parent / "shared" / "datasets").resolve()


def default_tracking_uri() -> str:
    """Absolute sqlite URI of the default MLflow store under the project root."""
    return f"sqlite:///{PROJECT_ROOT / 'mlruns.db'}"
