"""The hook benchmark's data paths (no timing assertions): everything written is read back, no duplicates."""

from __future__ import annotations

import pytest

from memlab.adapter.bench import notes_dataset, percentile, read_notes_jsonl, synthetic_dataset
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import load_memories
from memlab.core.paths import default_data_dir

NOTES = default_data_dir() / "git-notes-memory-notes" / "notes.jsonl"
needs_notes = pytest.mark.skipif(not NOTES.is_file(), reason=f"git-notes-memory notes not found at {NOTES}")


def test_percentile_nearest_rank():
    assert percentile([5.0], 95) == 5.0
    assert percentile(list(map(float, range(1, 21))), 95) == 19.0
    assert percentile(list(map(float, range(1, 21))), 50) == 10.0


@needs_notes
def test_notes_subset_and_synthetic_read_back(tmp_path):
    records = read_notes_jsonl(NOTES)[:400]
    assert notes_dataset(tmp_path / "n", records) == 400
    result = load_memories(find_repo(tmp_path / "n"))
    assert result.records == 400 and result.errors == []
    assert len(result.memories) == len({(r["summary"].strip(), r["content"].strip()) for r in records})
    assert synthetic_dataset(tmp_path / "s", records, 250, commits=5) == 250
    assert len(load_memories(find_repo(tmp_path / "s")).memories) == 250


@pytest.mark.slow
@needs_notes
def test_all_6299_real_memories_read_back(tmp_path):
    records = read_notes_jsonl(NOTES)
    assert len(records) == 6299
    notes_dataset(tmp_path / "n", records)
    result = load_memories(find_repo(tmp_path / "n"))
    assert result.records == 6299 and result.errors == []
    bodies_with_rules = [r for r in records if "\n---\n" in f"\n{r['content']}\n"]
    assert len(bodies_with_rules) >= 79
    assert len(result.memories) == len({(r["summary"].strip(), r["content"].strip()) for r in records}) == 1491
