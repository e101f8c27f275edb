"""Data the benchmarks and training share: generated histories and conversations, and readers of corpora.

Below ``benchmarks`` and ``training``: both import from here; nothing here imports either.
"""
