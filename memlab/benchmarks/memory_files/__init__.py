"""Agents' memory files as a benchmark (``dataset=memory_files``): one episode per (repository, file)."""
