"""Sweeps: the Hydra callback that brackets a ``--multirun`` with one MLflow parent run, the Ray launcher,
the resumable Optuna sweeper. Imported only by Hydra (through ``_target_``) and the entry point.
"""
