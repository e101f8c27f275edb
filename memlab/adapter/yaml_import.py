"""PyYAML for the event hooks, which run ``python -P -S``.

``-S`` skips site-packages processing (tens of milliseconds in a large environment), so a hook that must
parse notes — the first session, before any consolidation wrote a cache — cannot ``import yaml`` when memlab
runs from a checkout on ``PYTHONPATH``. :func:`load_yaml` then adds the interpreter's own site-packages
folders to the *end* of ``sys.path`` and imports PyYAML from there.

Why this is safe (the hook's threat model: nothing inside the repository served is trusted):

- The folders are those of the installation the command line names by absolute path: ``site-packages``
  under the virtualenv of ``sys.executable`` (found by its ``pyvenv.cfg``, as :mod:`site` does) and, when
  that virtualenv includes system packages or there is none, under ``sys.base_prefix``. They are the very
  folders a plain run of the same interpreter reads, which the user already trusts to run memlab itself.
  Nothing is derived from the current folder, the repository, the hook's stdin or its notes.
- Only folders are added: no ``.pth`` file is processed and no ``sitecustomize``/``usercustomize`` runs,
  so adding them executes nothing; the user's own site folder is not added.
- They go after the standard library and memlab on ``sys.path``, so nothing there can shadow a module
  the hook already relies on; ``-P`` still keeps the current folder (the repository) off ``sys.path``.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType


def site_folders() -> list[str]:
    """The interpreter's site-packages folders (virtualenv first), existing ones only, no ``.pth`` applied."""
    import site

    exe_dir = os.path.dirname(os.path.abspath(sys.executable))
    venv = os.path.dirname(exe_dir)
    prefixes: list[str] = []
    conf = next(
        (c for c in (os.path.join(exe_dir, "pyvenv.cfg"), os.path.join(venv, "pyvenv.cfg")) if os.path.isfile(c)), None
    )
    system = True
    if conf is not None:
        prefixes.append(venv)
        try:
            with open(conf, encoding="utf-8") as fh:
                for line in fh:
                    key, _, value = line.partition("=")
                    if key.strip().lower() == "include-system-site-packages":
                        system = value.strip().lower() == "true"
        except OSError:
            system = False
    if system:
        prefixes += [p for p in (sys.prefix, sys.base_prefix) if p not in prefixes]
    return [p for p in site.getsitepackages(prefixes) if os.path.isdir(p)]


def load_yaml() -> ModuleType:
    """The ``yaml`` module, from ``sys.path`` or else from the interpreter's site-packages (appended).

    Raises:
        ImportError: PyYAML is installed in neither place.
    """
    try:
        import yaml
    except ImportError:
        if not sys.flags.no_site:
            raise
        sys.path.extend(p for p in site_folders() if p not in sys.path)
        import yaml
    return yaml
