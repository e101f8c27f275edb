"""Production adapter: git-notes memories in, a SessionStart block out.

Modules: :mod:`gitcli` (the ``git`` CLI and repository discovery), :mod:`notes_format` (git-notes-memory's
note format), :mod:`notes_store` (reading and appending memories), :mod:`jsonl_refs` (memlab's derived JSON
Lines notes), :mod:`spec` (the frozen hook spec and its loader), :mod:`export` (spec from an MLflow run),
:mod:`install` (Claude Code settings and plugin), :mod:`state` (files under ``.git/memlab/``),
:mod:`consolidation` (load → consolidate → persist → candidate cache), :mod:`session` (the SessionStart
path), :mod:`bench` (``memlab bench hook``).
"""
