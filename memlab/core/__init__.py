"""The leaves every layer imports: value types, the one error type, SHA-256, the project's paths and the table of
strategy groups. They import nothing of memlab outside this package and nothing heavy (the SessionStart hook loads
them), and this file imports nothing.
"""
