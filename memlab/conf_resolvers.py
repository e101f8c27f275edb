"""OmegaConf resolvers the configs use (``${memlab_root:}`` and friends). Register before composing."""

from __future__ import annotations

from omegaconf import OmegaConf

from memlab.paths import PROJECT_ROOT, default_tracking_uri


def register() -> None:
    """Register memlab's resolvers (idempotent)."""
    resolvers = {
        "memlab_root": lambda: str(PROJECT_ROOT),
        "memlab_default_data_dir": lambda: str((PROJECT_ROOT.parent / "shared" / "datasets").resolve()),
        "memlab_default_tracking_uri": default_tracking_uri,
    }
    for name, fn in resolvers.items():
        if not OmegaConf.has_resolver(name):
            OmegaConf.register_new_resolver(name, fn)
