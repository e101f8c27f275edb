"""The repository's vector file: what a consolidation embedded, read back by recall and the next run."""

from __future__ import annotations

import numpy as np

from memlab.adapter.vectors import RepoEmbedder, read_vectors, text_key, vectors_path, write_vectors
from memlab.embed.tfidf import TfidfEmbedder


class Counting(TfidfEmbedder):
    """The TF-IDF embedder, counting what each path embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, int]] = []

    def encode(self, texts):
        self.calls.append(("encode", len(texts)))
        return super().encode(texts)

    def encode_few(self, texts):
        self.calls.append(("few", len(texts)))
        return super().encode_few(texts)


def test_vectors_are_kept_and_only_new_texts_are_embedded(tmp_path):
    inner = Counting()
    first = RepoEmbedder(inner, tmp_path)
    many = [f"memory number {i} about the database" for i in range(40)]
    expected = inner.encode(many)
    inner.calls.clear()
    assert np.allclose(first.encode(many), expected) and inner.calls == [("encode", 40)]
    first.save()
    again = RepoEmbedder(inner, tmp_path)
    inner.calls.clear()
    got = again.encode([*many[:5], "a query nobody embedded"])
    assert np.allclose(got[:5], expected[:5]) and inner.calls == [("few", 1)]  # one text, the cheap path
    again.save()  # keeps exactly what this run used
    assert len(read_vectors(vectors_path(tmp_path, inner.model_id), inner.model_id)) == 6


def test_a_broken_foreign_or_linked_vector_file_is_ignored(tmp_path):
    model = "m"
    path = vectors_path(tmp_path, model)
    write_vectors(path, model, {text_key(model, "x"): np.ones(3, dtype=np.float32)})
    assert list(read_vectors(path, model)) == [text_key(model, "x")]
    assert read_vectors(path, "another model") == {}
    path.write_bytes(path.read_bytes()[:-4])  # cut short
    assert read_vectors(path, model) == {}
    path.unlink()
    target = tmp_path / "elsewhere.bin"
    write_vectors(target, model, {text_key(model, "x"): np.ones(3, dtype=np.float32)})
    path.symlink_to(target)
    assert read_vectors(path, model) == {}  # never read through a link


def test_the_memory_refs_tips_read_from_files_are_gits(tmp_path):
    from datetime import UTC, datetime

    from memlab.adapter.freshness import file_tips
    from memlab.adapter.gitcli import find_repo
    from memlab.adapter.notes_store import append_memory, ref_tips
    from tests.adapter.conftest import git, make_repo

    when = datetime(2025, 12, 1, tzinfo=UTC)
    project = make_repo(tmp_path / "r")
    repo = find_repo(project)
    for namespace in ("decisions", "learnings"):
        append_memory(repo, namespace, f"a {namespace} note", "body", timestamp=when)
    assert file_tips(repo) == ref_tips(repo) and len(ref_tips(repo)) == 2
    git(project, "pack-refs", "--all")  # packed, then one of them loose again
    append_memory(repo, "decisions", "another note", "body", timestamp=when)
    assert file_tips(repo) == ref_tips(repo) and len(ref_tips(repo)) == 2
