"""What the configs read besides ``conf/``: OmegaConf resolvers (``${memlab_root:}`` and friends) and the
pipeline settings' defaults (``pipeline: settings`` in ``conf/config.yaml``'s defaults list, stored from
:class:`memlab.wiring.components.PipelineSettings`, where each default is written once). Register before composing.
"""

from __future__ import annotations

from dataclasses import asdict

from hydra.core.config_store import ConfigStore
from omegaconf import OmegaConf

from memlab.core.paths import PROJECT_ROOT, default_tracking_uri
from memlab.wiring.components import PipelineSettings


def register() -> None:
    """Register memlab's resolvers and the ``pipeline`` node (idempotent)."""
    resolvers = {
        "memlab_root": lambda: str(PROJECT_ROOT),
        "memlab_default_data_dir": lambda: str((PROJECT_ROOT.parent / "shared" / "datasets").resolve()),
        "memlab_default_tracking_uri": default_tracking_uri,
    }
    for name, fn in resolvers.items():
        if not OmegaConf.has_resolver(name):
            OmegaConf.register_new_resolver(name, fn)
    ConfigStore.instance().store(group="pipeline", name="settings", node=pipeline_defaults())


def pipeline_defaults() -> dict[str, object]:
    """``pipeline.*`` keys with their defaults: the core knobs first, then online mode's and Astra's."""
    core = PipelineSettings.__annotations__
    return dict(sorted(asdict(PipelineSettings()).items(), key=lambda item: item[0] not in core))
