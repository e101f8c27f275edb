"""Compose a memlab config in code: the one public way, the same composition ``python -m memlab`` makes.

Hydra's compose API over memlab's ``conf/`` folder, with memlab's resolvers registered. Tests, the perf worker,
training and the experiments compose through :func:`compose`; nothing else calls Hydra's ``compose`` or
``initialize_config_dir``. ``import memlab`` does not import this module (Hydra and OmegaConf load here).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from hydra import compose as hydra_compose
from hydra import initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from omegaconf import DictConfig, OmegaConf

from memlab.core.paths import CONF_DIR
from memlab.wiring.conf_resolvers import register

#: The tracking option composed when the overrides choose none (see :func:`compose`).
DEFAULT_TRACKING = "none"


@contextmanager
def initialized() -> Iterator[None]:
    """Hydra initialised on memlab's ``conf/`` (resolvers registered) for the block, as inside ``python -m memlab``:
    for code that composes through Hydra's global state (a sweep's job list). Inside a block that already has
    Hydra initialised (this one, or a ``python -m memlab`` run), that state is used as it is.
    """
    register()
    if GlobalHydra.instance().is_initialized():
        yield
        return
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        yield


def compose_node(
    overrides: Sequence[str] | None = None,
    *,
    tracking: str | None = DEFAULT_TRACKING,
    return_hydra_config: bool = False,
) -> DictConfig:
    """The composed config as an OmegaConf node, interpolations unresolved (for callers that need the node).

    Args:
        overrides: Hydra overrides, as on the command line (``+experiment=quickstart``, ``judge=slot``,
            ``pipeline.knn_k=20``).
        tracking: As for :func:`compose`.
        return_hydra_config: Also compose the ``hydra`` node (its ``overrides``, ``sweep``, ...), as a launcher
            sees it.

    Returns:
        The root config node.
    """
    items = list(overrides or [])
    if tracking is not None and not any(o.startswith(("tracking=", "+tracking=")) for o in items):
        items.append(f"tracking={tracking}")
    with initialized():
        return hydra_compose(config_name="config", overrides=items, return_hydra_config=return_hydra_config)


def compose(
    overrides: Sequence[str] | None = None, *, resolve: bool = True, tracking: str | None = DEFAULT_TRACKING
) -> dict[str, Any]:
    """The config ``python -m memlab <overrides>`` runs (but for tracking, below), as plain dicts and lists.

    Tracking defaults to ``none``: a config composed in code is mostly run in the same process (a test, a
    timing, an experiment's variant) and should log nothing unless its caller says where. Pass
    ``tracking=None`` to keep the config's own choice (MLflow at ``conf/tracking/mlflow.yaml``'s URI), or choose
    it in ``overrides`` (``tracking=mlflow``, ``tracking.uri=...``), which always wins.

    Args:
        overrides: Hydra overrides, as on the command line (``+experiment=quickstart``, ``judge=slot``,
            ``pipeline.knn_k=20``).
        resolve: Resolve interpolations (``${paths.data_dir}``, ``${oc.select:...}``); ``False`` keeps them as
            written.
        tracking: The tracking option (``tracking=<option>``) composed when ``overrides`` choose none; ``None``:
            the config's default.

    Returns:
        The root config as plain containers.

    Raises:
        hydra.errors.HydraException: An override names an unknown option or key (Hydra's message says which).
    """
    node = compose_node(overrides, tracking=tracking)
    return OmegaConf.to_container(node, resolve=resolve)  # type: ignore[return-value]
