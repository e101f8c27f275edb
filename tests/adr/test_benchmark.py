"""End to end: +experiment=adr_decisions on tiny synthetic corpora, through compose_cfg and memlab.run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.benchmarks.adr.benchmark import AdrDecisionsBenchmark
from memlab.core.errors import MemlabError
from memlab.run import run
from tests.adr.factory import kafka_repo, md, record, write_repo
from tests.support.compose import compose_cfg

FAST = ["embedder=tfidf"]


def _corpus(folder: Path) -> Path:
    kafka_repo(folder, "acme/queue")
    kafka_repo(folder, "acme/bus")
    write_repo(folder, "acme/empty", [], [])
    lone = record(1, "1. Use Postgres", "2020-01-01", md(1, "Use Postgres", "We will use Postgres."))
    write_repo(folder, "acme/lone", [lone], [{"old": lone["id"], "new": "docs/adr/missing.md", "relation": "amends"}])
    return folder


def _run(overrides: list[str], tmp_path: Path):
    out = tmp_path / "run"
    run(compose_cfg(["+experiment=adr_decisions", *FAST, *overrides]), out)
    result = json.loads((out / "result.json").read_text())
    predictions = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    return result["metrics"], result["info"], predictions


def test_composes_with_the_experiment_defaults(tmp_path):
    cfg = compose_cfg(["+experiment=adr_decisions", f"dataset.path={tmp_path}"])
    assert cfg["dataset"]["_target_"].endswith("AdrDecisionsBenchmark")
    assert cfg["dataset"]["refs"] == "strip" and cfg["dataset"]["split"] == "all" and cfg["dataset"]["repos"] is None
    assert cfg["judge"]["_target_"].endswith("CascadeJudge") and cfg["pipeline"]["schedule"] == "session"
    assert compose_cfg(["dataset=adr_decisions"])["dataset"]["path"].endswith("adr-decisions")


def test_end_to_end_with_no_judge(tmp_path):
    folder = _corpus(tmp_path / "adr")
    metrics, info, predictions = _run([f"dataset.path={folder}", "judge=none"], tmp_path)
    # two repositories with 2 SUPERSEDE + 1 MERGE each; no judge: no edge, every gold pair missed
    assert metrics["n_repos"] == 3 and metrics["n_empty_repos"] == 1 and metrics["n_repos_without_links"] == 2
    assert metrics["n_gold_supersede"] == 4 and metrics["n_gold_merge"] == 2 and metrics["n_skipped_links"] == 1
    assert metrics["supersession_f1"] == 0.0 and metrics["supersession_recall"] == 0.0
    assert "supersession_precision" not in metrics  # nothing predicted: undefined, absent
    assert metrics["supersession_f1_macro"] == 0.0 and metrics["n_supersession_fn"] == 6  # closure: 1->4 too
    assert metrics["n_current_queries"] == 4 and metrics["n_as_of_queries"] == 4
    assert 0.0 <= metrics["candidate_recall"] <= 1.0 and "candidate_recall_ci_low" in metrics
    assert metrics["n_records"] == 9
    assert set(info["repos"]) == {"acme__bus", "acme__empty", "acme__lone", "acme__queue"}
    assert info["repos"]["acme__empty"]["empty"] is True
    assert info["repos"]["acme__lone"]["skipped_links"][0]["reason"].startswith("names a missing record")
    assert "repo.acme__queue.supersession_f1" in metrics and "repo.acme__lone.supersession_f1" not in metrics
    kinds = {(p["record"], p["repo"]) for p in predictions}
    assert ("gold_pair", "acme__queue") in kinds and ("query", "acme__bus") in kinds
    pairs = [p for p in predictions if p["record"] == "gold_pair"]
    assert len(pairs) == 6 and all(p["predicted"] is None for p in pairs)
    assert sum(p["candidate"] for p in pairs) == metrics["candidate_recall"] * 6


def test_slot_judge_and_keep_refs_run(tmp_path):
    folder = _corpus(tmp_path / "adr")
    metrics, info, _ = _run(
        [f"dataset.path={folder}", "judge=slot", "dataset.refs=keep", "dataset.repos=[acme/queue]"], tmp_path
    )
    assert metrics["n_repos"] == 1 and list(info["repos"]) == ["acme__queue"] and info["refs"] == "keep"
    assert 0.0 <= metrics["supersession_f1"] <= 1.0


def test_bad_folder_and_names_fail_fast(tmp_path):
    with pytest.raises(MemlabError, match="ADR folder not found"):
        AdrDecisionsBenchmark(str(tmp_path / "nope")).check()
    with pytest.raises(MemlabError, match="no owner__name"):
        AdrDecisionsBenchmark(str(tmp_path)).check()
    folder = _corpus(tmp_path / "adr")
    with pytest.raises(MemlabError, match="unknown repository 'acme__nope'"):
        AdrDecisionsBenchmark(str(folder), repos=["acme/nope"]).check()
    with pytest.raises(MemlabError, match=r"dataset\.refs"):
        AdrDecisionsBenchmark(str(folder), refs="both").check()
    (folder / "acme__broken.json").write_text(json.dumps({"repo": "acme/broken", "adrs": [{"id": "x.md"}]}))
    with pytest.raises(MemlabError, match=r"acme__broken\.json: record 0 \(id 'x\.md'\): missing field"):
        AdrDecisionsBenchmark(str(folder)).load(0)


@pytest.mark.parametrize(("judge", "recall"), [("none", 0.0), ("reference", 1.0)])
def test_links_the_newer_record_states_are_counted_with_the_judges_recall_of_them(tmp_path, judge, recall):
    path = kafka_repo(tmp_path / "adr")
    data = json.loads(path.read_text())
    for entry, direction in zip(data["links"], ("old-status", "old-status+new-says", "new-says"), strict=True):
        entry["direction"] = direction  # 1 -> 3 from the old record's status; 3 -> 4 stated by 4; 2 -> 4 amends
    path.write_text(json.dumps(data))
    metrics, info, _ = _run([f"dataset.path={path.parent}", f"judge={judge}", "dataset.refs=keep"], tmp_path)
    assert info["repos"]["acme__queue"]["n_records"] == 4
    assert metrics["n_gold_stated"] == 1 and metrics["stated_share"] == 0.5  # of the 2 SUPERSEDE links
    assert metrics["stated_recall"] == recall
