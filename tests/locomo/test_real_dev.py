"""One slow run on the real dev file (read in place from the shared data folder; skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.run import run
from tests.support.compose import compose_cfg

pytestmark = pytest.mark.slow


def test_locomo_temporal_on_the_dev_file(tmp_path) -> None:
    cfg = compose_cfg(["+experiment=locomo_temporal"])
    path = Path(cfg["dataset"]["path"])
    if not path.is_file():
        pytest.skip(
            f"LoCoMo dev file absent at {path} (CC BY-NC data, not shipped; see docs in experiments/locomo_temporal)"
        )
    m = run(cfg, tmp_path).metrics
    assert m["n_questions"] == 999 and m["n_temporal"] == 156 and m["n_temporal_datelike"] == 133
    assert m["quirk_integer_answers"] == 6 and m["quirk_orphan_session_dates"] == 16
    for k in (1, 5, 10, 25):
        for unit in ("turn", "session"):
            assert 0.0 <= m[f"recall_at_{k}_{unit}"] <= 1.0
            for cat in (1, 2, 3, 4):
                assert f"recall_at_{k}_{unit}_cat{cat}" in m
    # regression guards well below the measured figures (0.748 and 0.707 on this file)
    assert m["recall_at_10_turn"] >= 0.70
    assert m["temporal_date_acc_datelike"] >= 0.60
