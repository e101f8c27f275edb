"""``dataset=memory_files``: reading, episodes, exact checkpoint and pair counts, selection, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.benchmarks.memory_files.benchmark import MemoryFilesBenchmark, file_episode
from memlab.benchmarks.memory_files.scoring import file_score
from memlab.core.errors import MemlabError
from memlab.core.types import Edge, EdgeType
from memlab.data import splits
from memlab.data.memory_files.corpus import SEAL_SALT, read_repo, repo_files
from memlab.data.memory_files.memories import namespace
from memlab.pipeline.episode import run_episode
from memlab.run import run
from tests.memory_files.factory import claude_file, commit, fact, write_repo
from tests.support.compose import compose_cfg

FAST = ["embedder=tfidf", "tracking=none"]


def _run(overrides: list[str], tmp_path: Path):
    out = tmp_path / "run"
    run(compose_cfg(["+experiment=memory_files", "dataset.split=all", *FAST, *overrides]), out)
    result = json.loads((out / "result.json").read_text())
    return result["metrics"], result["info"]


def test_no_judge_counts_every_checkpoint_exactly(tmp_path):
    folder = tmp_path / "mf"
    write_repo(folder, "acme/app", [claude_file()])
    metrics, info = _run([f"dataset.path={folder}", "judge=none"], tmp_path)
    # blocks after each commit: {f1,f2,f4}, {f1,f2,f3,f4} (f1 replaced), {f1..f5} (f1 replaced, f4 retired)
    assert metrics["n_checkpoints"] == 3 and metrics["n_block_facts"] == 12
    assert metrics["n_block_current"] == 9 and metrics["block_current_precision"] == pytest.approx(0.75)
    assert metrics["n_block_stale_inferable"] == 2 and metrics["stale_inferable_in_block"] == pytest.approx(2 / 12)
    assert metrics["n_block_gone_other"] == 1
    assert metrics["n_current"] == 9 and metrics["current_coverage"] == 1.0  # every current fact shown
    assert metrics["n_kept_pairs"] == 1 and metrics["rep_fn"] == 1 and metrics["replacement_f1"] == 0.0
    assert "replacement_precision" not in metrics  # no edge: undefined, absent
    assert metrics["n_retired"] == 1 and metrics["n_files"] == 1 and metrics["n_repos"] == 1
    assert "kind.CLAUDE.md.block_current_precision" in metrics and "repo.acme__app.block_current_precision" in metrics
    assert info["files"]["acme__app/CLAUDE.md"]["checkpoints"][1]["n_block_stale_inferable"] == 1


def test_edges_score_against_the_kept_pairs(tmp_path):
    folder = tmp_path / "mf"
    path = write_repo(folder, "acme/app", [claude_file()])
    mfile = read_repo(path).files[0]
    episode, ids = file_episode(mfile)
    components = _components(tmp_path, folder)
    outcome = run_episode(episode, components)
    store = outcome.store
    store.add_edge(Edge(ids["f3"], ids["f1"], EdgeType.SUPERSEDES))  # the kept pair: right
    store.add_edge(Edge(ids["f5"], ids["f2"], EdgeType.DUPLICATES))  # f2 stays in the file: wrong
    store.add_edge(Edge(ids["f5"], ids["f4"], EdgeType.SUPERSEDES))  # f4 retired then: not scored
    counts, records, _ = file_score(mfile, ids, outcome, components)
    assert (counts["rep_tp"], counts["rep_fp"], counts["rep_fn"], counts["n_edges_unscored"]) == (1, 1, 0, 1)
    assert counts["n_rep_supersede"] == 1
    assert all("text" not in r for r in records) and {r["older"] for r in records} == {"f1", "f2", "f4"}


def _components(tmp_path: Path, folder: Path):
    from memlab.wiring.build import build_components

    return build_components(compose_cfg(["+experiment=memory_files", f"dataset.path={folder}", *FAST, "judge=none"]))


def test_episode_is_in_commit_order_with_increasing_times(tmp_path):
    data = claude_file()
    data["commits"][2]["date"] = "2025-01-02T00:00:00+00:00"  # earlier than commit 1: placed after it
    mfile = read_repo(write_repo(tmp_path, "acme/app", [data])).files[0]
    episode, ids = file_episode(mfile)
    assert list(episode.checkpoints) == sorted(episode.checkpoints) and len(set(episode.checkpoints)) == 3
    by_id = {m.id: m for m in episode.memories}
    assert by_id[ids["f5"]].timestamp > by_id[ids["f3"]].timestamp and by_id[ids["f1"]].namespace == "patterns"
    assert all(m.summary and not m.id.startswith("f") for m in episode.memories)
    assert namespace("memory-bank/decisionLog.md") == "decisions" and namespace("AGENTS.md") == "patterns"


def test_selection_by_repo_kind_and_split(tmp_path):
    folder = tmp_path / "mf"
    write_repo(folder, "acme/app", [claude_file(), claude_file("memory-bank/progress.md", "memory-bank/progress.md")])
    write_repo(folder, "acme/lib", [claude_file()])
    (folder / "handcheck_labels.json").write_text("{}")  # not a repository file
    bench = MemoryFilesBenchmark(str(folder), repos=["acme/app"], kinds=["progress.md"])
    assert [f.kind for f in bench.load(0).files] == ["memory-bank/progress.md"]
    assert len(MemoryFilesBenchmark(str(folder)).load(0).files) == 3
    names = {"acme__app", "acme__lib"}
    assert {p.stem for p in repo_files(folder, split="sealed")} == splits.sealed_names(names, SEAL_SALT)
    with pytest.raises(MemlabError, match="no memory file of kinds"):
        MemoryFilesBenchmark(str(folder), kinds=["GEMINI.md"]).load(0)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["files"][0]["facts"][0].pop("text"), "fact 0 .id 'f1'.: missing field 'text'"),
        (lambda d: d["files"][0]["facts"][1].update(recorded_in="f" * 40), "is not one of the file's commits"),
        (lambda d: d["files"][0]["commits"][1].update(date="yesterday"), "is not an ISO date"),
        (lambda d: d["files"][0]["facts"][0].update(removal="gone"), "removal 'gone' is not null or one of"),
        (lambda d: d["files"][0]["facts"][0].update(replaced_by=["f9"]), "unknown fact 'f9'"),
        (lambda d: d["files"][0]["facts"].append(fact("f2", "again", 0)), "fact id appears twice"),
        (lambda d: d.pop("files"), "missing field 'files'"),
    ],
)
def test_malformed_files_are_one_line_errors_naming_the_file(tmp_path, mutate, message):
    data = {"repo": "acme/app", "license": "MIT", "commit": "0" * 40, "files": [claude_file()]}
    mutate(data)
    path = tmp_path / "acme__app.json"
    path.write_text(json.dumps(data))
    with pytest.raises(MemlabError, match=message) as err:
        read_repo(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_gone_file_checkpoints_are_counted_not_scored(tmp_path):
    data = claude_file()
    data["commits"].append(commit(3, 7, "D"))
    for f in data["facts"]:
        if f["removal"] is None:
            f.update(removed_in=f"{3:040x}", removal="file_deleted")
    folder = tmp_path / "mf"
    write_repo(folder, "acme/app", [data])
    metrics, _ = _run([f"dataset.path={folder}", "judge=none"], tmp_path)
    assert metrics["n_checkpoints"] == 4 and metrics["n_checkpoints_gone"] == 1 and metrics["n_block_facts"] == 12
    assert metrics["n_file_deletions"] == 1


def test_composes_with_the_experiment_defaults():
    cfg = compose_cfg(["+experiment=memory_files"])
    assert cfg["dataset"]["_target_"].endswith("MemoryFilesBenchmark") and cfg["dataset"]["split"] == "dev"
    assert cfg["dataset"]["path"].endswith("memory-files") and cfg["judge"]["_target_"].endswith("EditJudge")


def test_coverage_counts_current_facts_a_judge_hid(tmp_path):
    folder = tmp_path / "mf"
    write_repo(folder, "acme/app", [claude_file()])
    loose = ["judge=similarity", "judge.threshold=-1.0", "pipeline.min_pair_similarity=-1.0"]
    metrics, _ = _run([f"dataset.path={folder}", *loose], tmp_path)
    # every newer fact supersedes the older ones (weak verdicts held for review keep them out of the block too):
    # the block shows 5 of the 9 current facts it could hold
    assert metrics["n_coverage_slots"] == metrics["n_current"] == 9 and metrics["n_current_in_block"] == 5
    assert metrics["current_coverage"] == pytest.approx(5 / 9) and metrics["rep_tp"] == 1


def test_the_gold_judge_leaves_only_what_no_judge_sees_go(tmp_path):
    """experiments/memory_files/oracle.py: with the kept pairs as verdicts, f1 leaves the block once f3 arrives and
    stale goes to 0; f4, removed without a successor, stays (the ceiling a judge cannot lift)."""
    from tests.support.scripts import load_script

    oracle = load_script(Path(__file__).parents[2] / "experiments/memory_files/oracle.py", "memory_files_oracle")
    folder = tmp_path / "mf"
    write_repo(folder, "acme/app", [claude_file()])
    metrics = oracle.gold_metrics([f"dataset.path={folder}", "dataset.split=all", "embedder=tfidf"])
    # blocks after each commit: {f1,f2,f4}, {f2,f3,f4}, {f2,f3,f4,f5} (f4 retired)
    assert metrics["n_block_facts"] == 10 and metrics["n_block_current"] == 9
    assert metrics["stale_inferable_in_block"] == 0.0 and metrics["n_block_gone_other"] == 1
    assert metrics["replacement_f1"] == 1.0 and metrics["current_coverage"] == 1.0
