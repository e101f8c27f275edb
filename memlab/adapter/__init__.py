"""Production adapter: git-notes memories in, a SessionStart block out.

Modules: :mod:`gitcli` and :mod:`repo` (the ``git`` CLI, repository discovery), :mod:`notes_format`
(git-notes-memory's note format, bounded parsing), :mod:`notes_store` (reading and appending memories),
:mod:`notes_write` (compare-and-swap ref updates), :mod:`locking` (memlab's and git-notes-memory's locks),
:mod:`jsonl_refs` (memlab's derived JSON Lines notes), :mod:`sync` (refspecs; fetch, merge and push),
:mod:`spec` (the frozen hook spec, its loader and model checks), :mod:`export` (spec from an MLflow run),
:mod:`install` and :mod:`plugin` (Claude Code settings and plugin), :mod:`safe_io` (atomic writes that never
follow links), :mod:`state` (files under ``.git/memlab/``), :mod:`consolidation` (load → consolidate →
persist → candidate cache), :mod:`session` and :mod:`triggers` (the SessionStart and Stop paths),
:mod:`bench` (``memlab bench hook``).
"""
