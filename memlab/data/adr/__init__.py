"""Public architecture decision records: reading the corpus and turning a repository into a history."""
