"""Admission: which records may enter the SessionStart block (none, learned), its features and its pipeline role."""

from __future__ import annotations

import dataclasses
import json
import shutil
from datetime import UTC, datetime, timedelta

import pytest

from memlab.core.errors import MemlabError
from memlab.core.paths import CONF_DIR
from memlab.core.types import Memory
from memlab.pipeline.inject import candidates
from memlab.pipeline.recall import eligible
from memlab.pipeline.store import MemoryStore
from memlab.strategies.admission.base import Admission, AdmissionBase
from memlab.strategies.admission.features import FEATURES, features
from memlab.strategies.admission.learned import DEFAULT_MODEL, LearnedAdmission
from memlab.strategies.admission.none import NoAdmission
from memlab.wiring.build import build_node
from tests.test_pipeline import components

T0 = datetime(2025, 12, 1, tzinfo=UTC)
OPTIONS = sorted(p.stem for p in (CONF_DIR / "admission").glob("*.yaml"))

RECORDS = [
    Memory(
        "m",
        "progress",
        T0,
        "Fixed the flaky upload test by pinning the clock",
        "The test now uses a fixed clock.\n## Related Files\n- tests/test_upload.py:10-40",
        tags=("explicit",),
    ),
    Memory(
        "f",
        "progress",
        T0,
        "...| 5.1.4 | Implement `_phase_cluster()` | done |",
        "...| 5.1.4 | Implement `_phase_cluster()` | done |\n| 5.1.5 | Implement `_phase_summarize()` | done |",
        tags=("auto-captured", "post-tool-use", "file:PROGRESS.md"),
    ),
    Memory(
        "c",
        "patterns",
        T0,
        "...        for pattern in essential:",
        "...        for pattern in essential:\n"
        '            assert pattern in TABLE, f"Missing {pattern}"\n\n    def test_more(self) -> None:',
        tags=("auto-captured",),
    ),
    Memory("e", "progress", T0, "", ""),
]


@pytest.mark.parametrize("option", OPTIONS)
def test_every_option_keeps_the_contract(option):
    import yaml

    node = yaml.safe_load((CONF_DIR / "admission" / f"{option}.yaml").read_text())
    admission = build_node(node, "admission")
    assert isinstance(admission, AdmissionBase) and admission.name == option and isinstance(admission.version, int)
    store = {m.id: m for m in RECORDS}
    verdicts = admission.admit_all(RECORDS, store)
    assert [admission.admit(m, store) for m in RECORDS] == verdicts  # deterministic, batch = one by one
    for verdict in verdicts:
        assert isinstance(verdict, Admission) and isinstance(verdict.keep, bool)
        assert 0.0 <= verdict.confidence <= 1.0 and verdict.reason


def test_none_keeps_everything():
    assert all(v.keep for v in NoAdmission().admit_all(RECORDS, {}))


def test_learned_keeps_a_statement_and_drops_excerpts():
    verdicts = {m.id: v.keep for m, v in zip(RECORDS, LearnedAdmission().admit_all(RECORDS, {}), strict=True)}
    assert verdicts["m"] and not verdicts["f"] and not verdicts["c"]
    assert LearnedAdmission().artifact_path is None  # the model file is named once read


def test_learned_refuses_a_model_that_changed(tmp_path):
    model = tmp_path / "admission_v1.json"
    shutil.copy(DEFAULT_MODEL, model)
    shutil.copy(DEFAULT_MODEL.with_name("admission_v1.card.json"), tmp_path / "admission_v1.card.json")
    with pytest.raises(MemlabError, match="sha256"):
        LearnedAdmission(str(model), model_sha256="0" * 64).admit(RECORDS[0], {})
    data = json.loads(model.read_text())
    data["intercept"] = 9.0
    model.write_text(json.dumps(data))
    with pytest.raises(MemlabError):
        LearnedAdmission(str(model)).admit(RECORDS[0], {})
    with pytest.raises(MemlabError, match="threshold"):
        LearnedAdmission(threshold=1.5).admit(RECORDS[0], {})


def test_features_read_form_not_words():
    row = dict(zip(FEATURES, features(RECORDS[1]), strict=True))
    assert row["leading_cut"] == 1.0 and row["table_line_share"] > 0 and row["tag_auto"] == 1.0
    assert len(features(RECORDS[3])) == len(FEATURES)  # an empty record still has a row
    renamed = Memory(
        "x", "progress", T0, RECORDS[0].summary.replace("upload", "export"), RECORDS[0].content, tags=("explicit",)
    )
    assert features(renamed) == features(RECORDS[0])  # another topic, same form


class KeepOut(AdmissionBase):
    name = "keep_out"
    version = 1

    def __init__(self, ids):
        self.ids = set(ids)

    def admit(self, memory, store):
        return Admission(memory.id not in self.ids, "scripted", 1.0)


def test_a_kept_out_record_stays_in_the_store_and_recall_but_not_in_the_block():
    memories = [
        Memory("a", "progress", T0, "Deployed the search service to staging", "Staging runs version 2."),
        Memory("b", "progress", T0 + timedelta(hours=1), "...| row | value |", "...| row | value |\n| next | 2 |"),
    ]
    store = MemoryStore(memories)
    comps = dataclasses.replace(components(), admission=KeepOut({"b"}))
    ids = {c.id for c in candidates(store, comps, T0 + timedelta(days=1))}
    assert ids == {"a"}
    assert {m.id for m in eligible(store, "standard", T0 + timedelta(days=1))} == {"a", "b"}


def test_learned_reads_a_one_line_record_against_its_store():
    """A one-line capture is a memory in a store of one-line captures (the quickstart's), kept out among long ones."""
    texts = ["Use Kafka for the event bus", "Switched from Kafka to NATS for the event bus"]
    one_line = [Memory(f"o{i}", "decisions", T0, s, s + ".") for i, s in enumerate(texts)]
    assert all(v.keep for v in LearnedAdmission().admit_all(one_line, {m.id: m for m in one_line}))
    long_ones = [Memory(f"l{i}", "progress", T0, RECORDS[0].summary, RECORDS[0].content * 8) for i in range(9)]
    store = {m.id: m for m in [*long_ones, *one_line]}
    verdicts = LearnedAdmission().admit_all(one_line, store)
    assert not any(v.keep for v in verdicts), verdicts
