"""The generic experiment report says whether each configuration's difference from the baseline is distinguishable."""

from __future__ import annotations

import pytest

from tests.sweeps.helpers import log_run, report


@pytest.mark.slow  # about 3 s or more: with the slow suite (CI runs it)
def test_each_paired_difference_says_whether_its_interval_excludes_zero(tmp_path) -> None:
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    for judge, correct in {
        "none": [0] * 18 + [1] * 2,
        "slot": [1] * 19 + [0],
        "similarity": [0] * 17 + [1] * 3,
    }.items():
        log_run(uri, "e", tmp_path / judge, strategies={"judge": judge}, params={}, correct=correct)
    out = tmp_path / "e.md"
    assert report("--experiment", "e", "--uri", uri, "--baseline", "judge=none", "--out", str(out)) == 0
    text = out.read_text()
    assert "| p (paired) | distinguishable |" in text
    rows = {j: next(li for li in text.splitlines() if li.startswith(f"| judge={j} |")) for j in ("slot", "similarity")}
    assert rows["slot"].endswith("| yes |") and "+0.850" in rows["slot"]
    assert rows["similarity"].endswith("| no |") and "+0.050" in rows["similarity"]
