"""JSON Lines records: newest per id wins whatever the line order; bad lines skipped; merge-safe."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.adapter import jsonl_refs
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import ref_tips
from tests.adapter.conftest import git, make_repo

records = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 50), st.integers(0, 9)), min_size=1, max_size=20
)


@settings(max_examples=100, deadline=None)
@given(records, st.randoms())
def test_newest_wins_in_any_order(items, rnd):
    lines = [jsonl_refs.encode([{"id": i, "v": v}], written_at=f"2025-01-01T00:00:{t:02d}") for i, t, v in items]
    first, _, _ = jsonl_refs.decode("\n".join(lines))
    rnd.shuffle(lines)
    shuffled, _, _ = jsonl_refs.decode("\n".join(lines))
    merged, _, _ = jsonl_refs.decode("\n".join(sorted(set(lines))))  # what cat_sort_uniq produces
    assert first == shuffled == merged
    for rid in first:
        newest = max(
            (t, jsonl_refs.encode([{"id": rid, "v": v}], written_at=f"2025-01-01T00:00:{t:02d}"))
            for i, t, v in items
            if i == rid
        )
        assert first[rid]["written_at"] == f"2025-01-01T00:00:{newest[0]:02d}"


def test_bad_lines_skipped():
    good = jsonl_refs.encode([{"id": "x", "v": 1}])
    recs, errors, n = jsonl_refs.decode(f"{{not json\n{good}\n[1,2]\n\n")
    assert list(recs) == ["x"] and n == 1 and len(errors) == 2


def test_append_read_compact_and_merge_between_clones(tmp_path):
    a = make_repo(tmp_path / "a")
    ra = find_repo(a)
    jsonl_refs.append_records(ra, "meta", [{"id": "m1", "tier": "hot"}])
    b_path = tmp_path / "b"
    git(tmp_path, "clone", "-q", str(a), str(b_path))
    git(b_path, "config", "user.email", "t@example.com")
    git(b_path, "config", "user.name", "T")
    git(b_path, "fetch", "-q", "origin", "refs/notes/mem-meta:refs/notes/mem-meta")
    rb = find_repo(b_path)
    jsonl_refs.append_records(ra, "meta", [{"id": "m2", "tier": "warm"}])
    jsonl_refs.append_records(rb, "meta", [{"id": "m1", "tier": "cold"}, {"id": "m3", "tier": "hot"}])
    assert jsonl_refs.anchor(ra, "meta") == jsonl_refs.anchor(rb, "meta")
    git(b_path, "fetch", "-q", "origin", "refs/notes/mem-meta:refs/notes/remotes/origin/mem-meta")
    git(
        b_path,
        "notes",
        "--ref=refs/notes/mem-meta",
        "merge",
        "-s",
        "cat_sort_uniq",
        "refs/notes/remotes/origin/mem-meta",
    )
    recs, errors = jsonl_refs.read_records(rb, "meta")
    assert errors == []
    assert {k: v["tier"] for k, v in recs.items()} == {"m1": "cold", "m2": "warm", "m3": "hot"}
    before, after = jsonl_refs.compact(rb, "meta")
    assert (before, after) == (4, 3)
    assert {k: v["tier"] for k, v in jsonl_refs.read_records(rb, "meta")[0].items()} == {
        "m1": "cold",
        "m2": "warm",
        "m3": "hot",
    }
    assert "refs/notes/mem-meta" not in ref_tips(rb)  # derived refs live outside refs/notes/mem/


def test_each_policy_reads_its_own_records_and_compaction_keeps_every_policys(tmp_path):
    repo = find_repo(make_repo(tmp_path / "r"))
    jsonl_refs.append_records(repo, "meta", [{"id": "m1", "tier": "hot"}], "seed")
    jsonl_refs.append_records(repo, "meta", [{"id": "m1", "tier": "cold"}, {"id": "m2", "tier": "warm"}], "tuned")
    jsonl_refs.append_records(repo, "meta", [{"id": "m1", "tier": "archived"}])  # an earlier memlab: no policy
    jsonl_refs.update_records(repo, "meta", lambda current: [{**current["m1"], "tier": "warm"}], "seed")
    tiers = {
        p: {k: v["tier"] for k, v in jsonl_refs.read_records(repo, "meta", p)[0].items()} for p in ("seed", "tuned")
    }
    assert tiers == {"seed": {"m1": "warm"}, "tuned": {"m1": "cold", "m2": "warm"}}
    assert {k: v["tier"] for k, v in jsonl_refs.read_records(repo, "meta")[0].items()} == {"m1": "archived"}
    assert jsonl_refs.compact(repo, "meta") == (5, 4)  # the newest per (policy, id): nobody's record is lost
    assert {k: v["tier"] for k, v in jsonl_refs.read_records(repo, "meta", "tuned")[0].items()} == tiers["tuned"]
    _, errors, _ = jsonl_refs.decode('{"id": "m1", "policy": ["x"], "written_at": "2025-01-01T00:00:00+00:00"}')
    assert errors and "policy" in errors[0]  # a forged policy is a bad line, never a crash
