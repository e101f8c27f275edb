"""Write generated data: the LoCoMo-format file, its gold side file, and the cache of generated files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.data.locomo_synth.config import SynthConfig
from memlab.data.locomo_synth.generator import generate


def dumps(obj: Any) -> bytes:
    """Canonical bytes: two-space indent, UTF-8, keys in insertion order, trailing newline."""
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def gold_path_for(path: Path) -> Path:
    """``x.json`` -> ``x.gold.json`` (beside the data file)."""
    path = Path(path)
    return path.with_name(path.stem + ".gold.json")


def _atomic_write(path: Path, blob: bytes) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_bytes(blob)
    os.replace(tmp, path)


def write(cfg: SynthConfig, path: str | Path) -> tuple[Path, Path]:
    """Generate for ``cfg`` and write ``path`` (LoCoMo format) and its ``.gold.json`` side file.

    Raises:
        MemlabError: The file cannot be written (the message names the path).
    """
    path = Path(path)
    data, gold = generate(cfg)
    gold_path = gold_path_for(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, dumps(data))
        _atomic_write(gold_path, dumps(gold))
    except OSError as exc:
        raise MemlabError(
            f"cannot write {path}: {exc.strerror or exc}; pick a writable --out / paths.generated_dir"
        ) from exc
    return path, gold_path


def cached(cfg: SynthConfig, directory: str | Path) -> tuple[Path, Path]:
    """The generated file for ``cfg`` in ``directory`` (``locomo_synth_seed<seed>_<key>.json``), written if absent.

    The name carries a hash of every knob and the generator version, so a cached file is reused only for
    identical knobs; a file whose gold side file is missing is regenerated.
    """
    path = Path(directory) / f"locomo_synth_seed{cfg.seed}_{cfg.key()}.json"
    if path.is_file() and gold_path_for(path).is_file():
        return path, gold_path_for(path)
    return write(cfg, path)
