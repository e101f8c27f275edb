"""LoCoMo-style synthetic conversations with exact temporal gold: configuration, generator, files."""
