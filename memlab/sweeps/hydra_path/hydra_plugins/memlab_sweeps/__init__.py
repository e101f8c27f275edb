"""memlab's Hydra plugins where Hydra looks for them (the ``hydra_plugins`` namespace).

Hydra instantiates launchers and sweepers only from classes it found by scanning ``hydra_plugins``;
:func:`memlab.sweeps.plugins.register` puts the folder holding this package on ``sys.path`` before Hydra
starts. The classes themselves live in :mod:`memlab.sweeps`.
"""

from memlab.sweeps.optuna_search import ResumableOptunaSweeper as _Optuna
from memlab.sweeps.ray_launcher import RayLauncher as _Ray


class RayLauncher(_Ray):
    """``hydra/launcher=ray`` (memlab.sweeps.ray_launcher)."""


class ResumableOptunaSweeper(_Optuna):
    """The sweeper of ``conf/search/*.yaml`` (memlab.sweeps.optuna_search)."""
