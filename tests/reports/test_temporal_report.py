"""The temporal report reads real MLflow runs (a temporary sqlite store) and writes its tables."""

from __future__ import annotations

from memlab.reports.temporal import main
from memlab.run import run
from tests.support.compose import compose_cfg


def test_report_lists_every_resolver_and_the_speed_ratio(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    base = ["tracking=mlflow", f"tracking.uri={uri}", "embedder=tfidf"]
    for temporal in ("pattern_table", "none"):
        overrides = [*base, "dataset=temporal_norm", f"temporal={temporal}", "experiment_name=temporal_norm"]
        run(compose_cfg(overrides), tmp_path / f"norm-{temporal}")
    for seed in (0, 1):
        overrides = [
            *base,
            "dataset=locomo_synth",
            "dataset.n_conversations=1",
            "dataset.n_sessions=3",
            f"dataset.out_dir={tmp_path / 'gen'}",
            "temporal=pattern_table",
            f"seed={seed}",
            "experiment_name=locomo_synth",
        ]
        run(compose_cfg(overrides), tmp_path / f"synth-{seed}")
    out = tmp_path / "temporal.md"
    assert main(["--uri", uri, "--out", str(out)]) == 0
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| pattern_table |")]
    assert len(rows) == 3  # Duckling table, grain table, synth table
    assert "| none |" in text
    assert "| pattern_table | 0,1 |" in text  # both seeds averaged
    assert "No `temporal_norm` runs" not in text


def test_missing_experiments_are_named_not_fatal(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    out = tmp_path / "temporal.md"
    assert main(["--uri", uri, "--out", str(out)]) == 0
    text = out.read_text()
    assert "No `temporal_norm` runs found" in text and "No `locomo_synth` runs found" in text
