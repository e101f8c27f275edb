"""The real git-notes-memory notes as a consolidation workload."""
