"""`report --force` never shrinks a report silently: a report records its runs; regenerating it from a store that
lacks some names them and writes nothing (figures included) unless `--partial`, which marks the report partial."""

from __future__ import annotations

import pytest

from memlab.core.errors import MemlabError
from memlab.reports.common import PARTIAL_MARK, RUNS_MARK, recorded_runs, write_report
from tests.sweeps.helpers import log_run, report


def store(folder, judges) -> tuple[str, list[str]]:
    uri = f"sqlite:///{folder / 'mlruns.db'}"
    ids = [
        log_run(uri, "policy", folder / judge, strategies={"judge": judge}, params={"seed": 0}, correct=[1, 0, 1])
        for judge in judges
    ]
    return uri, ids


def subset(folder, keep) -> tuple[str, list[str]]:
    """A copy of the full store in which only the runs ``keep`` are left (the others deleted)."""
    import shutil

    from mlflow.tracking import MlflowClient

    shutil.copy(folder / "full" / "mlruns.db", folder / "small.db")
    uri = f"sqlite:///{folder / 'small.db'}"
    client = MlflowClient(tracking_uri=uri)
    for run in client.search_runs([client.get_experiment_by_name("policy").experiment_id]):
        if run.info.run_id not in keep:
            client.delete_run(run.info.run_id)
    return uri, list(keep)


@pytest.mark.slow  # about 3 s or more: with the slow suite (CI runs it)
def test_force_from_a_store_missing_runs_names_them_and_writes_nothing(tmp_path):
    full, full_ids = store(tmp_path / "full", ["slot", "similarity", "none"])
    small, small_ids = subset(tmp_path, full_ids[:1])
    out = tmp_path / "reports" / "policy.md"
    assert report("--experiment", "policy", "--uri", full, "--out", str(out)) == 0
    assert recorded_runs(out) == set(full_ids)
    before = {p.name: p.read_bytes() for p in out.parent.iterdir()}

    with pytest.raises(MemlabError) as err:
        report("--experiment", "policy", "--uri", small, "--out", str(out), "--force")
    message = str(err.value)
    assert "\n" not in message and "would shrink: 2 of the 3 runs it was written from are not FINISHED" in message
    assert all(run_id in message for run_id in full_ids[1:]) and full_ids[0] not in message and "--partial" in message
    assert {p.name: p.read_bytes() for p in out.parent.iterdir()} == before  # the figures too

    assert report("--experiment", "policy", "--uri", small, "--out", str(out), "--force", "--partial") == 0
    text = out.read_text()
    assert text.startswith(PARTIAL_MARK) and full_ids[1] in text.splitlines()[0]
    assert recorded_runs(out) == set(small_ids)
    assert report("--experiment", "policy", "--uri", full, "--out", str(out), "--force") == 0  # the runs are back
    assert not out.read_text().startswith(PARTIAL_MARK)


def test_a_report_that_records_no_runs_is_not_replaced_by_a_shorter_one(tmp_path):
    out = tmp_path / "presets.md"
    out.write_text("# Presets\n" + "| row |\n" * 50)
    with pytest.raises(MemlabError, match=r"does not record its runs and the new one is 48 lines shorter \(51 -> 3\)"):
        write_report(out, "# Presets\n| row |\n", ["r1"], partial=False, uri="sqlite:////nowhere.db")
    assert out.read_text().count("| row |") == 50
    write_report(out, "# Presets\n" + "| row |\n" * 60, ["r1", "r2"], partial=False, uri="sqlite:////nowhere.db")
    assert out.read_text().splitlines()[-1] == f"{RUNS_MARK}r1 r2 -->"


def test_a_report_from_another_store_replaces_one_no_shorter_and_refuses_a_shorter_one(tmp_path):
    """A fresh reproduction shares no run with the report it replaces: judged by length, not by absent run ids."""
    out = tmp_path / "presets.md"
    write_report(out, "# Presets\n" + "| row |\n" * 50, ["old1", "old2"], partial=False, uri="sqlite:////a.db")
    shrinks = r"none of its 2 runs is in .* and the new one is 49 lines shorter \(52 -> 3\)"
    with pytest.raises(MemlabError, match=shrinks):
        write_report(out, "# Presets\n| row |\n", ["new1"], partial=False, uri="sqlite:////b.db")
    assert recorded_runs(out) == {"old1", "old2"}
    write_report(out, "# Presets\n" + "| row |\n" * 50, ["new1", "new2"], partial=False, uri="sqlite:////b.db")
    assert recorded_runs(out) == {"new1", "new2"} and not out.read_text().startswith(PARTIAL_MARK)
    with pytest.raises(MemlabError, match=r"1 of the 2 runs it was written from are not FINISHED"):
        write_report(out, "# Presets\n" + "| row |\n" * 80, ["new1", "new3"], partial=False, uri="sqlite:////b.db")
