"""SHA-256 for the start-up paths, without loading OpenSSL where CPython's own implementation is built in, and the
one SHA-256 of a file (:func:`file_sha256`: data files, model files, their pins in cards and hook specs).

Importing :mod:`hashlib` loads the OpenSSL binding (``_hashlib``), a few milliseconds of every SessionStart
hook; the hook hashes a few kilobytes (the spec's strategies, the rendered block), so it takes CPython's
built-in SHA-256 when present and :func:`hashlib.sha256` otherwise. Both give the same digests.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing
if TYPE_CHECKING:
    from pathlib import Path

try:
    from _sha2 import sha256  # type: ignore[import-not-found]  # CPython 3.12+
except ImportError:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef]  # CPython 3.11
    except ImportError:
        from hashlib import sha256  # type: ignore[assignment]

__all__ = ["file_sha256", "sha256"]


def file_sha256(path: str | Path) -> str:
    """SHA-256 hex digest of a file's bytes, read in 1 MiB blocks (a data file may be large).

    Through OpenSSL (:mod:`hashlib`, imported here), unlike :func:`sha256`: a file is megabytes (a learned judge's
    model is 1.5 MB, checked against its pin when the hook loads it), where OpenSSL's SHA-256 takes about 1 ms and
    CPython's built-in one about 17 ms, far more than the import costs.
    """
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
