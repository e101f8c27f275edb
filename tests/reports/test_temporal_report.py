"""The temporal report reads real MLflow runs (a temporary sqlite store) and writes its tables."""

from __future__ import annotations

import json

import pytest

from memlab.reports.temporal import main
from memlab.run import run
from tests.support.compose import compose_cfg

NEWS = [
    {
        "block": "A",
        "reference_time": "1998-08-07T12:00:00+00:00",
        "phrase": "Friday",
        "sentence": "Witnesses said Friday that two bombs exploded.",
        "expected": {"kind": "datetime", "value": "1998-08-07T00:00:00", "grain": "Day"},
    }
]


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_report_lists_every_set_resolver_and_the_speed_ratio(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    news = tmp_path / "news.json"
    news.write_text(json.dumps(NEWS))
    phrases = tmp_path / "phrases.json"  # a Duckling-format file without sentences
    phrases.write_text(json.dumps([{k: v for k, v in NEWS[0].items() if k != "sentence"}]))
    base = ["tracking=mlflow", f"tracking.uri={uri}", "embedder=tfidf", "dataset=temporal_norm",
            "experiment_name=temporal_norm", "dataset.timing_passes=1"]  # fmt: skip
    for temporal in ("pattern_table", "none"):
        run(compose_cfg([*base, f"temporal={temporal}", f"dataset.path={phrases}"]), tmp_path / f"norm-{temporal}")
        run(compose_cfg([*base, f"temporal={temporal}", "dataset.corpus=tbaq", f"dataset.path={news}"]),
            tmp_path / f"news-{temporal}")  # fmt: skip
    for seed in (0, 1):
        overrides = [
            "tracking=mlflow",
            f"tracking.uri={uri}",
            "embedder=tfidf",
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
    summary = next(line for line in text.splitlines() if line.startswith("| resolver | duckling acc"))
    assert "tbaq acc" in summary  # both sets side by side
    rows = [line for line in text.splitlines() if line.startswith("| pattern_table |")]
    # summary, two halves rows (one per set), speed, two grain rows, synth
    assert len(rows) == 7
    assert "| pattern_table | tbaq | 0.000 [0.000, 0.000] |" in text  # the halves table, with intervals
    assert "| none |" in text
    assert "| pattern_table | 0,1 |" in text  # both seeds averaged
    assert "No `temporal_norm` runs" not in text


def test_no_runs_at_all_is_a_one_line_error_and_writes_nothing(tmp_path):
    import pytest

    from memlab.core.errors import MemlabError

    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    out = tmp_path / "temporal.md"
    with pytest.raises(MemlabError, match="no FINISHED runs of experiment temporal_norm, locomo_synth"):
        main(["--uri", uri, "--out", str(out)])
    assert not out.exists()
