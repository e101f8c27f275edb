"""Hostile derived records (what anyone who can push ``refs/notes/mem-*`` can write) are skipped and
reported, never fatal and never pinning: the commands in process, SessionStart through the installed command."""

from __future__ import annotations

import json

import pytest

from memlab.adapter import jsonl_refs
from memlab.adapter.gitcli import find_repo
from memlab.adapter.locking import writer_lock
from memlab.adapter.notes_format import memory_id
from tests.adapter.conftest import main_in_process, policy_of, seed


def push_line(project, kind: str, line: str) -> None:
    """Append one raw line to a derived note, as a collaborator's pushed note would hold it."""
    repo = find_repo(project)
    with writer_lock(repo.memlab_dir):
        jsonl_refs.rewrite(repo, kind, lambda current: current.rstrip("\n") + "\n" + line + "\n", "pushed")


def _ok(hook, *args: str) -> str:
    """``memlab ARGS --project P`` in this process (the commands; the hook itself runs installed)."""
    code, out, err = main_in_process(*args, "--project", str(hook.project))
    assert code == 0 and "Traceback" not in err, err
    return out


SEED_FASTAPI_BODY = "## Why\n\n---\n\nAsync support.\n\n---\ndocument_type: retrospective\n---\n\nDone."
FLASK = memory_id("Use Flask for the API", "We chose Flask because it is small.")
STAMP = "2020-01-01T00:00:00+00:00"
HOSTILE = {
    "overflow": ("meta", f'{{"id":"{FLASK}","tier":"hot","activation_count":1e400,"written_at":"{STAMP}"}}'),
    "naive": (
        "meta",
        json.dumps({"id": FLASK, "tier": "hot", "last_accessed": "2025-12-20T10:00:00", "written_at": STAMP}),
    ),
    "nan": ("meta", f'{{"id":"{FLASK}","tier":"hot","retention":NaN,"written_at":"{STAMP}"}}'),
    "tier": ("meta", json.dumps({"id": FLASK, "tier": "pinned", "written_at": STAMP})),
    "summary": (
        "summaries",
        json.dumps(
            {
                "id": "sum_x",
                "namespace": "decisions",
                "summary": "s",
                "temporal_start": "2025-12-20T10:00:00",
                "temporal_end": "2025-12-21T10:00:00",
                "source_ids": [FLASK],
                "confidence": 1e400,
                "written_at": STAMP,
            }
        ),
    ),
    "edge": (
        "edges",
        json.dumps({"id": "a>b>merges", "source": FLASK, "target": FLASK, "type": "eats", "written_at": STAMP}),
    ),
    "deep": ("meta", '{"id":"x","v":' + "[" * 100_000 + "]" * 100_000 + "}"),
}


def test_hostile_records_are_skipped_and_reported_never_fatal(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    _ok(hook, "consolidate")
    for kind, line in HOSTILE.values():
        push_line(hook.project, kind, line)
    status = json.loads(_ok(hook, "status", "--json"))
    assert status["memories"] == 3 and len(status["errors"]) == len(HOSTILE), status["errors"]
    _ok(hook, "recall", "API framework")
    _ok(hook, "consolidate", "--full")
    assert "Use FastAPI for the API" in hook.context()


def test_a_forged_written_at_never_pins_a_record(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    _ok(hook, "consolidate")
    forged = {"tier": "archived", "superseded_by": FLASK, "valid_until": "2025-12-01T00:00:00+00:00"}
    policy = policy_of(hook.project)  # records of the installed policy: the ones its consolidation reads
    victims = {
        memory_id("pytest -x stops at the first failure", "Use it when bisecting."): "~ pinned forever",
        memory_id("Use FastAPI for the API", SEED_FASTAPI_BODY): "2999-01-01T00:00:00+00:00",
    }
    for mid, stamp in victims.items():
        push_line(hook.project, "meta", json.dumps({"id": mid, **forged, "written_at": stamp, "policy": policy}))
    _ok(hook, "consolidate", "--full")
    block = hook.context()
    assert "pytest -x stops at the first failure" in block and "Use FastAPI for the API" in block, block
    meta, _ = jsonl_refs.read_records(find_repo(hook.project), "meta", policy_of(hook.project))
    assert all(meta[mid].get("superseded_by") is None for mid in victims)


def test_records_for_ids_no_note_holds_are_dropped_after_the_grace_period(installed_checkout):
    from datetime import UTC, datetime, timedelta

    hook = installed_checkout
    seed(hook.project)
    old = (datetime.now(UTC) - timedelta(days=40)).isoformat()
    recent = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    _ok(hook, "consolidate")
    policy = policy_of(hook.project)
    for mid, stamp in (("m_gone0000000000", old), ("m_gone1111111111", recent), (FLASK, old)):
        push_line(hook.project, "meta", json.dumps({"id": mid, "tier": "hot", "written_at": stamp, "policy": policy}))
    _ok(hook, "consolidate")
    meta, _ = jsonl_refs.read_records(find_repo(hook.project), "meta", policy_of(hook.project))
    assert "m_gone0000000000" not in meta and "m_gone1111111111" in meta and FLASK in meta


def _stamp(minutes: float) -> str:
    from datetime import UTC, datetime, timedelta

    return (datetime.now(UTC) + timedelta(minutes=minutes)).isoformat()


@pytest.mark.slow  # consolidations: over 2 s
def test_a_plausible_forged_supersession_hides_nothing_and_is_logged(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    _ok(hook, "consolidate")
    victim = memory_id("pytest -x stops at the first failure", "Use it when bisecting.")
    for minutes in (0, 14):  # now, and just inside the accepted skew; under the policy's own id and under none
        forged = {"id": victim, "tier": "archived", "superseded_by": FLASK, "written_at": _stamp(minutes)}
        push_line(hook.project, "meta", json.dumps({**forged, "policy": policy_of(hook.project)}))
        push_line(hook.project, "meta", json.dumps(forged))
    for args in (("consolidate",), ("consolidate", "--full"), ("consolidate", "--full")):
        proc = hook.memlab(*args)
        assert proc.returncode == 0, proc.stderr
        assert "pytest -x stops at the first failure" in hook.context()
        assert victim in hook.memlab("recall", "pytest first failure", "--json").stdout
    assert "supersessions recorded in mem-meta were not concluded by this policy" in hook.log()
    status = json.loads(_ok(hook, "status", "--json"))
    assert status["superseded"] == 0 and status["tiers"]["archived"] == 0, status


@pytest.mark.slow  # consolidations: over 2 s
def test_records_dated_ahead_by_a_clock_are_kept_and_their_activations_counted(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    _ok(hook, "consolidate")
    policy = policy_of(hook.project)
    ahead = {"id": FLASK, "tier": "hot", "activation_count": 7, "written_at": _stamp(60), "policy": policy}
    ahead["access_times"] = [_stamp(60 - i) for i in range(7)]
    ahead["last_accessed"] = ahead["access_times"][0]
    line = json.dumps(ahead, sort_keys=True, separators=(",", ":"))
    push_line(hook.project, "meta", line)
    for _ in range(2):  # each consolidation compacts the note
        assert hook.memlab("consolidate").returncode == 0
    repo = find_repo(hook.project)
    assert line in jsonl_refs.read_text(repo, "meta").splitlines()  # kept unchanged
    meta, _ = jsonl_refs.read_records(repo, "meta", policy)
    assert meta[FLASK]["activation_count"] == 7, meta[FLASK]


@pytest.mark.slow  # consolidations: over 2 s
def test_an_exact_copy_dated_earlier_does_not_re_date_a_memory(installed_checkout):
    from tests.adapter.conftest import add_note, git, upstream_memory

    hook = installed_checkout
    seed(hook.project)
    assert hook.memlab("consolidate").returncode == 0
    git(hook.project, "commit", "-q", "--allow-empty", "-m", "another")
    copy = upstream_memory("progress", "2020-01-01T00:00:00+00:00", "Use FastAPI for the API", SEED_FASTAPI_BODY)
    add_note(hook.project, "refs/notes/mem/progress", copy)
    assert hook.memlab("consolidate", "--full").returncode == 0
    assert "[decisions, 2025-12-24] Use FastAPI for the API" in hook.context()
    hits = json.loads(hook.memlab("recall", "FastAPI", "--json").stdout)
    assert [h["timestamp"][:10] for h in hits if h["summary"] == "Use FastAPI for the API"] == ["2025-12-24"]
    assert "exact copies dated before this clone first saw them" in hook.log()
