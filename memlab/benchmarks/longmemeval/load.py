"""Read LongMemEval records from a local JSON file or, on machines that are online, from the hub."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError

GET_DATA = (
    "download longmemeval_s_cleaned.json (hub dataset xiaowu0162/longmemeval-cleaned) and set dataset.path=<file>"
)


def read_file(path: str | Path) -> tuple[list[Any], str]:
    """Records and sha256 of a local LongMemEval JSON file (a list of question objects).

    Raises:
        MemlabError: Missing file, invalid JSON, or not a list.
    """
    path = Path(path).expanduser()
    if not path.is_file():
        raise MemlabError(f"LongMemEval file not found: {path}; {GET_DATA}")
    blob = path.read_bytes()
    try:
        data = json.loads(blob)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MemlabError(f"LongMemEval file {path} is not valid JSON ({exc}); {GET_DATA}") from None
    if not isinstance(data, list):
        raise MemlabError(f"LongMemEval file {path} must hold a list of question objects, got {type(data).__name__}")
    return data, hashlib.sha256(blob).hexdigest()


def read_hub(hub_id: str, data_file: str | None = None, split: str = "train") -> tuple[list[Any], str]:
    """Records of a hub dataset through the ``datasets`` library, and its fingerprint.

    Raises:
        MemlabError: The dataset cannot be loaded (offline, unknown id, no cached copy); one line.
    """
    offline = any(os.environ.get(v) == "1" for v in ("HF_DATASETS_OFFLINE", "HF_HUB_OFFLINE"))
    try:
        import datasets

        datasets.logging.set_verbosity_error()
        ds = datasets.load_dataset(hub_id, data_files=data_file, split=split)
    except Exception as exc:  # any loader failure becomes one actionable line
        why = (
            "this machine is offline (HF_DATASETS_OFFLINE=1) and no cached copy exists"
            if offline
            else type(exc).__name__
        )
        raise MemlabError(f"cannot load LongMemEval hub dataset '{hub_id}': {why}; {GET_DATA}") from None
    return [dict(row) for row in ds], str(getattr(ds, "_fingerprint", "")) or hub_id
