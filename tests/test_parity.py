"""Fixed runs keep their metrics and predictions (``experiments/parity/baseline.json``).

A change that should not alter results (a refactor) must leave every case identical; a change that does
alter them regenerates the baseline in the same commit (``python experiments/parity/snapshot.py
experiments/parity/baseline.json``) and says why.
"""

from __future__ import annotations

import json

import pytest

from memlab.core.paths import PROJECT_ROOT
from tests.support.scripts import load_script

SNAPSHOT = PROJECT_ROOT / "experiments" / "parity" / "snapshot.py"
BASELINE = PROJECT_ROOT / "experiments" / "parity" / "baseline.json"


def _snapshot_module():
    return load_script(SNAPSHOT, "memlab_parity_snapshot")


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(json.loads(BASELINE.read_text())))
def test_case_matches_baseline(case: str) -> None:
    snap = _snapshot_module()
    expected = json.loads(BASELINE.read_text())[case]
    got = snap.run_case(snap.CASES[case])
    assert got["metrics"] == expected["metrics"]
    assert got["predictions_sha256"] == expected["predictions_sha256"]
