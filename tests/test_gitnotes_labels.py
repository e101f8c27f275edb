"""Hand labels of the real notes (memlab.gitnotes_labels/1) and the quality scorers of dataset=gitnotes_real."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from memlab.benchmarks.gitnotes_real import quality
from memlab.benchmarks.gitnotes_real.benchmark import GitNotesRealBenchmark
from memlab.core.errors import MemlabError
from memlab.core.paths import PROJECT_ROOT as ROOT
from memlab.data.gitnotes_real.labels import FORMAT, load_labels, record_key

T0 = datetime(2025, 12, 1, tzinfo=UTC)


def write_labels(path, records, pairs, complete=True):
    data = {"format": FORMAT, "split": "dev", "namespaces": ["progress"], "pairs_complete": complete}
    data["records"] = [
        {"key": k, "namespace": "progress", "kind": kind, "confidence": conf} for k, kind, conf in records
    ]
    data["pairs"] = [{"older": o, "newer": n, "relation": r, "confidence": c} for o, n, r, c in pairs]
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_record_key_is_per_distinct_record():
    assert record_key("progress", "s", "c") == record_key("progress", "s", "c")
    assert (
        len({record_key("progress", "s", "c"), record_key("learnings", "s", "c"), record_key("progress", "s", "d")})
        == 3
    )
    assert len(record_key("a", "b", "c")) == 16


def test_load_labels_keeps_high_confidence_and_both_orders_of_unsure(tmp_path):
    records = [("a", "memory", "high"), ("b", "fragment", "high"), ("c", "memory", "low")]
    pairs = [("a", "b", "DUPLICATE", "high"), ("b", "c", "MERGE", "low"), ("a", "c", "NONE", "high")]
    labels = load_labels(write_labels(tmp_path / "l.json", records, pairs))
    assert labels.kinds == {"a": "memory", "b": "fragment"}
    assert set(labels.namespace_of) == {"a", "b", "c"}
    assert labels.pairs == {("a", "b"): "DUPLICATE", ("a", "c"): "NONE"}
    assert labels.unsure == {("b", "c"), ("c", "b")}
    assert labels.complete


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(format="other/1"), "is not a memlab.gitnotes_labels/1 file"),
        (lambda d: d["records"][0].update(kind="gem"), "kind 'gem'"),
        (lambda d: d["pairs"][0].update(relation="SAME"), "relation 'SAME'"),
        (lambda d: d["pairs"][0].update(newer="zz"), "names a record the file does not label"),
    ],
)
def test_load_labels_refuses_bad_files(tmp_path, edit, message):
    path = write_labels(
        tmp_path / "l.json", [("a", "memory", "high"), ("b", "noise", "high")], [("a", "b", "NONE", "high")]
    )
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    with pytest.raises(MemlabError, match=message):
        load_labels(path)


def test_load_labels_missing_and_unreadable(tmp_path):
    with pytest.raises(MemlabError, match="labels file not found"):
        load_labels(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(MemlabError, match="not readable JSON"):
        load_labels(tmp_path / "bad.json")


def test_block_quality_counts_labelled_items_and_coverage(tmp_path):
    records = [("m1", "memory", "high"), ("m2", "memory", "high"), ("f", "fragment", "high"), ("n", "noise", "high")]
    labels = load_labels(write_labels(tmp_path / "l.json", records, []))
    out = quality.block_quality(["m1", "f", "n", "unlabelled"], labels, present={"m1", "m2", "f", "n"})
    assert out["n_block_items"] == 4 and out["n_block_labelled"] == 3
    assert out["block_nonmemory_share"] == pytest.approx(2 / 3)
    assert out["block_share_fragment"] == pytest.approx(1 / 3) and out["block_share_example"] == 0.0
    assert out["block_memory_coverage"] == 0.5
    assert out["block_nonmemory_share_ci_low"] < 2 / 3 < out["block_nonmemory_share_ci_high"] <= 1.0
    empty = quality.block_quality([], labels, present=set())
    assert empty["block_nonmemory_share"] is None and empty["block_memory_coverage"] is None
    assert "block_nonmemory_share_ci_low" not in empty  # undefined: absent


def test_pair_quality_chains_duplicates_and_counts_unlisted_predictions_when_complete(tmp_path):
    records = [(k, "fragment", "high") for k in "abcde"]
    pairs = [
        ("a", "b", "DUPLICATE", "high"),
        ("b", "c", "DUPLICATE", "high"),  # a-c is a duplicate by the chain
        ("c", "d", "SUPERSEDE", "high"),
        ("d", "e", "MERGE", "low"),  # scored in neither direction
    ]
    labels = load_labels(write_labels(tmp_path / "l.json", records, pairs))
    present = set("abcde")
    predicted = {
        "DUPLICATE": quality.related_keys([{"a", "c"}, {"d", "e"}]),
        "SUPERSEDE": {frozenset("cd"), frozenset("ae")},
    }
    out = quality.pair_quality(predicted, labels, present, identical=[frozenset("ab")])
    assert out["dup_precision"] == 1.0 and out["dup_recall"] == pytest.approx(1 / 3)
    assert out["n_dup_predicted"] == 1.0  # d-e is unsure
    assert out["supersede_precision"] == 0.5 and out["supersede_recall"] == 1.0  # a-e is listed nowhere: wrong
    assert out["amend_precision"] is None and out["n_amend_gold"] == 0.0
    assert out["dup_found_identical"] == 0.0 and out["n_dup_gold_identical"] == 1.0
    incomplete = load_labels(write_labels(tmp_path / "i.json", records, pairs, complete=False))
    assert quality.pair_quality(predicted, incomplete, present)["supersede_precision"] == 1.0


def test_block_relations_counts_stale_and_duplicate_items(tmp_path):
    records = [(k, "memory", "high") for k in "abc"]
    labels = load_labels(
        write_labels(tmp_path / "l.json", records, [("a", "b", "DUPLICATE", "high"), ("b", "c", "SUPERSEDE", "high")])
    )
    out = quality.block_relations(["a", "b", "c"], labels, present={"a", "b", "c"})
    assert out["dup_pairs_in_block"] == 1.0 and out["superseded_in_block"] == 1.0 and out["n_blockers_fixed"] == 0.0


def test_gitnotes_real_scores_the_block_on_a_tiny_labelled_file(tmp_path):
    notes = [
        ("progress", "Fixed the flaky upload test by pinning the clock", "The upload test now uses a fixed clock."),
        ("progress", "...| row | value |", "...| row | value |\n| next | 2 |"),
        ("progress", "...| row | value |", "...| row | value |\n| next | 2 |\n| more | 3 |"),
        ("decisions", "Use SQLite", "sealed namespaces are simply not read by this run"),
    ]
    with (tmp_path / "notes.jsonl").open("w") as fh:
        for i, (ns, summary, content) in enumerate(notes):
            rec = {"namespace": ns, "commit": f"c{i:011d}", "index": 0, "summary": summary, "content": content}
            fh.write(json.dumps({**rec, "timestamp": (T0 + timedelta(hours=i)).isoformat(), "tags": []}) + "\n")
    keys = [record_key(*n) for n in notes[:3]]
    records = [(keys[0], "memory", "high"), (keys[1], "fragment", "high"), (keys[2], "fragment", "high")]
    labels = write_labels(tmp_path / "l.json", records, [(keys[1], keys[2], "DUPLICATE", "high")])
    bench = GitNotesRealBenchmark(str(tmp_path / "notes.jsonl"), labels=str(labels), namespaces=["progress"])
    data = bench.load(0)
    assert [m.namespace for m in data.memories] == ["progress"] * 3
    assert data.labels is not None and data.labels.kinds[keys[0]] == "memory"
    assert (ROOT / "datasets" / "gitnotes_labels" / "dev.json").is_file()  # the developers' labels ship
