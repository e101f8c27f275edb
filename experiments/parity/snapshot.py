"""Metrics and predictions of fixed runs, for comparing the code before and after a change that should not alter them.

Run ``python experiments/parity/snapshot.py OUT.json [CASE ...]``: each case is composed through the public
config, run with ``tracking=none`` into a temporary folder, and recorded as its metrics (every key, repr of
the float) and the SHA-256 of its ``predictions.jsonl``. ``tests/test_parity.py`` runs the same cases and
compares them with ``experiments/parity/baseline.json``.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

#: name -> overrides. The cases the pipeline redesign keeps identical.
CASES: dict[str, list[str]] = {
    "quickstart": ["+experiment=quickstart"],
    "project_history_seed0": ["+experiment=project_history", "seed=0"],
    "scale_1k": ["+experiment=project_history_large", "dataset.size=1000"],
    "scale_10k": ["+experiment=project_history_large", "dataset.size=10000"],
    "locomo_conv26": ["+experiment=locomo_temporal", "dataset.conversations=[conv-26]", "dataset.cv_grid=null"],
    "gitnotes_real": ["+experiment=gitnotes_real"],
}


def timed(name: str) -> bool:
    """Wall-clock metrics differ between any two runs; they are not compared."""
    return name.startswith("latency_") or name.endswith(("_s", "_ms", "_seconds"))


def compose_case(overrides: list[str]) -> dict[str, Any]:
    """The resolved config of ``overrides`` (tracking off)."""
    from memlab.wiring.config import compose

    return compose(overrides, tracking="none")


def run_case(overrides: list[str]) -> dict[str, Any]:
    """Metrics (as repr strings, so that NaN compares) and the predictions' digest of one case."""
    from memlab.run import run

    cfg = compose_case(overrides)
    with tempfile.TemporaryDirectory() as tmp:
        outcome = run(cfg, tmp, overrides=overrides)
        digest = hashlib.sha256((Path(tmp) / "predictions.jsonl").read_bytes()).hexdigest()
    return {
        "metrics": {k: repr(float(v)) for k, v in sorted(outcome.metrics.items()) if not timed(k)},
        "predictions_sha256": digest,
    }


def main(argv: list[str]) -> int:
    """Write the snapshot of the named cases (all by default) to ``argv[0]``."""
    out = Path(argv[0])
    names = argv[1:] or list(CASES)
    snap = {name: run_case(CASES[name]) for name in names}
    out.write_text(json.dumps(snap, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
