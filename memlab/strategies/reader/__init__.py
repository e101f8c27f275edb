"""Readers: answer a benchmark's question from the context a policy produced (``conf/reader/``)."""
