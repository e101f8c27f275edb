"""Leaf text analysis shared by strategies and the pipeline: imports nothing above it."""
