"""memlab report presets on two real (tiny) preset runs in a throwaway MLflow store."""

from __future__ import annotations

import pytest

from memlab.errors import MemlabError
from memlab.reports import presets
from memlab.run import run
from tests.support.compose import compose_cfg


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_presets_report_lists_each_preset_with_intervals_and_tuned_difference(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    for name in ("seed_git_notes_memory_nollm", "tuned"):
        cfg = compose_cfg([f"+experiment={name}", "embedder=tfidf", "tracking=mlflow", f"tracking.uri={uri}"])
        run(cfg, tmp_path / name)
    out = tmp_path / "presets.md"
    assert presets.main(["--uri", uri, "--out", str(out)]) == 0
    text = out.read_text()
    assert "## builtin_history" in text and "| `tuned` |" in text
    seed_row = next(line for line in text.splitlines() if line.startswith("| `seed_git_notes_memory_nollm` | 0."))
    assert "[" in seed_row  # an interval from the per-question results
    assert (tmp_path / "presets.png").is_file()
    with pytest.raises(MemlabError, match="exists"):
        presets.main(["--uri", uri, "--out", str(out)])


def test_presets_report_without_runs_is_one_line(tmp_path):
    with pytest.raises(MemlabError):
        presets.main(["--uri", f"sqlite:///{tmp_path / 'empty.db'}", "--out", str(tmp_path / "p.md")])
