"""Memory-file histories (agents' CLAUDE.md, AGENTS.md, memory banks): reading the corpus."""
