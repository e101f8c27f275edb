"""memlab report presets on two real (tiny) preset runs in a throwaway MLflow store."""

from __future__ import annotations

import pytest

from memlab.core.errors import MemlabError
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
    gain = next(line for line in text.splitlines() if line.startswith("At budget 2000, `tuned` − the best preset"))
    assert "(`seed_git_notes_memory_nollm`)" in gain and "paired items" in gain  # whether there is a gain to attribute
    assert (tmp_path / "presets.png").is_file()
    with pytest.raises(MemlabError, match="exists"):
        presets.main(["--uri", uri, "--out", str(out)])


def test_presets_report_without_runs_is_one_line(tmp_path):
    with pytest.raises(MemlabError):
        presets.main(["--uri", f"sqlite:///{tmp_path / 'empty.db'}", "--out", str(tmp_path / "p.md")])


def _point(policy: str, budget: int, correct: list[int]):
    from memlab.reports import budgets as bg

    p = bg.Point(policy, budget, [], {("0", f"q{i}"): (float(c), 1.0) for i, c in enumerate(correct)})
    p.value = sum(correct) / len(correct)
    return p


def test_gain_line_compares_tuned_with_the_best_preset_at_the_largest_budget():
    grid = {
        250: {"tuned": _point("tuned", 250, [0] * 40), "astra_nollm": _point("astra_nollm", 250, [1] * 40)},
        2000: {
            "tuned": _point("tuned", 2000, [1] * 30 + [0] * 10),
            "astra_nollm": _point("astra_nollm", 2000, [1] * 10 + [0] * 30),
            "mycelic_nollm": _point("mycelic_nollm", 2000, [1] * 29 + [0] * 11),
        },
    }
    (line, blank) = presets.gain_line(grid)
    assert line.startswith("At budget 2000, `tuned` − the best preset (`mycelic_nollm`) = +0.025 [")
    assert line.endswith("on 40 paired items (not distinguishable: no gain to attribute).") and blank == ""
    grid[2000].pop("mycelic_nollm")
    assert presets.gain_line(grid)[0].endswith("on 40 paired items (distinguishable).")
    assert presets.gain_line({2000: {"tuned": grid[2000]["tuned"]}}) == []  # no preset: nothing to compare
