"""SHA-256 for the start-up paths, without loading OpenSSL where CPython's own implementation is built in.

Importing :mod:`hashlib` loads the OpenSSL binding (``_hashlib``), a few milliseconds of every SessionStart
hook; the hook hashes a few kilobytes (the spec's strategies, the rendered block), so it takes CPython's
built-in SHA-256 when present and :func:`hashlib.sha256` otherwise. Both give the same digests.
"""

from __future__ import annotations

try:
    from _sha2 import sha256  # type: ignore[import-not-found]  # CPython 3.12+
except ImportError:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef]  # CPython 3.11
    except ImportError:
        from hashlib import sha256  # type: ignore[assignment]

__all__ = ["sha256"]
