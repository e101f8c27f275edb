"""The real git-notes-memory notes and their hand labels, read where they lie (shared by benchmark and training)."""
