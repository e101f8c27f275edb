"""Subcommands of the `memlab` console script, one module each (``add_arguments`` + ``run``)."""
