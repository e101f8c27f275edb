"""memlab: measure which memory-consolidation policy a coding agent should run.

Importing the package is cheap: heavy dependencies (torch, mlflow, hydra, sklearn) load only inside the
modules that need them.
"""

__version__ = "0.1.0"
