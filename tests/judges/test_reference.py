"""The reference judge: explicit references in the newer memory, resolved to earlier memories, and its verb."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest

from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.cascade import CascadeJudge
from memlab.strategies.judge.reference import ReferenceJudge
from memlab.text.references import read
from memlab.wiring.build import build
from tests.judges.helpers import T0
from tests.support.compose import compose_cfg

S, M, C = Relation.SUPERSEDE, Relation.MERGE, Relation.COEXIST


def rec(number: int, stem: str, title: str, content: str = "", day: int | None = None, handles: bool = True) -> Memory:
    """A decision record as the ADR benchmark builds it (``refs=keep``): opaque id, handles in meta."""
    meta = {"handles": (str(number), stem)} if handles else {}
    when = T0 + timedelta(days=number if day is None else day)
    digest = hashlib.sha256(f"{number}|{stem}|{title}|{when}".encode()).hexdigest()[:8]
    return Memory(f"x{digest}", "decisions", when, title, content, meta=meta)


STORE = [
    rec(1, "0001-record-architecture-decisions", "Record architecture decisions"),
    rec(3, "0003-use-kafka-for-events", "Use Kafka for events"),
    rec(4, "0004-tenant-isolation", "Tenant isolation"),
    rec(5, "ADR005-ingress", "Ingress"),
]


def verdict(text: str, older: int, store=STORE) -> Verdict | None:
    """The reader's verdict on the record numbered ``older`` in ``store`` (a store without handles: its index)."""
    newer = rec(9, "0009-new", "A new decision", text, day=20)
    judge = ReferenceJudge()
    judge.observe([*store, newer])
    numbered = [m for m in store if m.meta.get("handles", ("",))[0] == str(older)]
    return judge.read(numbered[0] if numbered else store[older], newer)


@pytest.mark.parametrize(
    "text",
    [
        "Supersedes ADR-0004",
        "Supersedes ADR 4.",
        "This supersedes ADR#4.",
        "This ADR supersedes adr0004 entirely.",
        "Supersedes #4",
        "Supersedes [0004](0004-tenant-isolation.md)",
        "supersedes [Tenant isolation](0004-tenant-isolation.md)",
        "Supersedes [the old one](./0004-tenant-isolation.md)",
        "Supersedes [4. Tenant isolation](https://github.com/o/r/blob/main/docs/adr/0004-tenant-isolation.md)",
        "Supersedes 0004-tenant-isolation.md",
        "Supersedes ./docs/adr/0004-tenant-isolation.md",
        "This record replaces 0004.",
        "It obsoletes ADR-4.",
        "We deprecate ADR 4 in favour of a shared cluster.",
        "ADR 4 is now superseded by this decision.",
        "ADR 4 is obsolete now.",
        "Supercedes [4. Tenant isolation](0004-tenant-isolation.md)",
        "Accepted (Supersedes [001](./0001-record-architecture-decisions.md), [004](./0004-tenant-isolation.md))",
        "These changes supersede the limits specified in [ADR-1](/adr/ADR-1) and [ADR-4](/adr/ADR-4).",
        "This decision replaces the isolation model described in\n[ADR-4](/adr/ADR-4) (now retired).",
        "Supersedes ADR 4 and extends ADR 5.",
    ],
)
def test_every_handle_form_and_supersede_verb(text):
    got = verdict(text, 4)
    assert got is not None and got.relation is S and got.confidence == pytest.approx(0.95)


@pytest.mark.parametrize(
    "text",
    [
        "Amends ADR-0004.",
        "- Amends [4. Tenant isolation](0004-tenant-isolation.md)",
        "This extends ADR 4 with quotas.",
        "Updates ADR 4 for the new clusters.",
        "* Refines [ADR-0004](0004-tenant-isolation.md)",
        "This clarifies ADR 4.",
    ],
)
def test_amending_verbs_merge(text):
    got = verdict(text, 4)
    assert got is not None and got.relation is M


@pytest.mark.parametrize(
    "text",
    [
        "This does not supersede ADR 4.",
        "It doesn't replace ADR-4; it adds a rule.",
        "Rather than replacing ADR 4, we keep both.",
        "We never amended ADR 4.",
        "See ADR 4 for context.",
        "This builds on ADR 4.",
        "Related to [Tenant isolation](0004-tenant-isolation.md).",
        "ADR 4 was superseded by ADR 5.",  # another record is the agent
        "Superseded by ADR-0004",  # a reference after "superseded by" names the replacement
        "We replace the shared cluster with the model of ADR 4.",  # ADR 4 is what replaces, not what is replaced
        "The clusters must be updated nightly as per ADR 4.",
        "Supersedes [Kubernetes docs](https://kubernetes.io/docs/concepts/0004-tenant-isolation)",
    ],
)
def test_negated_unrelated_or_replacement_references_give_no_verdict(text):
    assert verdict(text, 4) is None


def test_a_verb_far_from_the_reference_does_not_govern_it():
    text = "We replace the old proxy and keep going with a very long list of unrelated words here, then ADR 4."
    assert verdict(text, 4) is None


@pytest.mark.parametrize(
    "text",
    [
        "Replaces the decision to use Kafka",
        "Replaces the decision to use Kafka for events with NATS because of cost.",
        "Supersedes: Use Kafka for events",
        'Supersedes "Use Kafka for events".',
        "This supersedes the earlier decision on Kafka for events.",
    ],
)
def test_agent_notes_refer_by_title(text):
    store = [rec(n, "", t, handles=False) for n, t in ((1, "Use Kafka for events"), (2, "Deploy with Helm"))]
    got = verdict(text, 0, store=store)
    assert got is not None and got.relation is S
    assert verdict(text, 1, store=store) is None


def test_a_title_shared_by_two_memories_is_ambiguous():
    store = [rec(1, "", "Use Kafka for events", handles=False), rec(2, "", "Use Kafka for events", handles=False)]
    got = verdict("Replaces the decision to use Kafka for events", 0, store=store)
    assert got is not None and got.relation is C and got.confidence == 0.5


def test_a_weak_title_match_resolves_nothing():
    store = [rec(1, "", "Use Kafka for events", handles=False), rec(2, "", "Store files in S3", handles=False)]
    assert verdict("Replaces the decision on logging format", 0, store=store) is None


def test_a_number_two_records_share_is_decided_by_the_link_title_or_left_ambiguous():
    store = [rec(4, "0004-tenant-isolation", "Tenant isolation"), rec(4, "0004-logging", "Structured logging", day=5)]
    got = verdict("Supersedes ADR 4.", 4, store=store)
    assert got is not None and got.relation is C
    titled = "Supersedes [4. Tenant isolation](elsewhere.md)"
    assert verdict(titled, 4, store=store).relation is S
    judge = ReferenceJudge()
    newer = rec(9, "0009-new", "New", titled, day=20)
    judge.observe([*store, newer])
    assert judge.read(store[1], newer) is None


def test_the_file_stem_wins_over_the_number_in_the_link_text():
    store = [rec(1, "0001-record", "Record decisions"), rec(12, "0012-use-postgres", "Use Postgres", day=2)]
    text = "Supersedes [1. Use Postgres for database](0012-use-postgres.md)"
    assert verdict(text, 12, store=store).relation is S
    assert verdict(text, 1, store=store) is None


def test_never_resolves_to_a_memory_recorded_after_the_newer_one():
    later = rec(7, "0007-later", "Later decision", day=30)
    newer = rec(6, "0006-now", "Now", "Supersedes ADR 7 and [the later one](0007-later.md).", day=20)
    judge = ReferenceJudge()
    judge.observe([*STORE, newer, later])
    assert all(later.id not in ids for _, ids in judge.references(newer))
    assert judge.judge(later, newer).relation is C  # also when asked the wrong way round


def test_judge_without_observe_uses_the_pair():
    judge = ReferenceJudge()
    older, newer = STORE[2], rec(9, "0009-new", "New", "Supersedes ADR-0004.")
    assert judge.judge(older, newer).relation is S
    assert judge.judge(STORE[1], newer) == Verdict(C, 0.5, "no explicit reference")


def test_others_coexist_signal_is_off_by_default():
    newer = rec(9, "0009-new", "New", "Supersedes ADR-0004.")
    on = ReferenceJudge(others_coexist=True)
    off = ReferenceJudge()
    for judge in (on, off):
        judge.observe([*STORE, newer])
    assert off.read(STORE[1], newer) is None
    assert on.read(STORE[1], newer) == Verdict(C, 0.95, "newer names other records as what it changes")
    assert on.read(STORE[2], newer).relation is S


def test_read_gives_spans_and_relations():
    text = "Supersedes [001](./001-a.md), [007](./007-b.md). See ADR 9."
    refs = read(text)
    assert [(text[r.start : r.end], r.numbers, r.relation) for r in refs] == [
        ("[001](./001-a.md)", ("1",), S),
        ("[007](./007-b.md)", ("7",), S),
        ("ADR 9", ("9",), None),
    ]


def test_odd_text_never_raises():
    judge = ReferenceJudge()
    for text in ("", "[](", "Supersedes [", "supersedes #", "ADR-" * 50, "replaces: ", "\x00\x01 supersedes ADR 1"):
        newer = rec(9, "0009-x", text, text)
        assert judge.judge(STORE[0], newer).relation in set(Relation)


def test_conf_builds_the_reference_judge():
    judge = build(dict(compose_cfg(["judge=reference"])["judge"]), "judge")
    assert isinstance(judge, ReferenceJudge) and judge.title_threshold == 0.6 and not judge.others_coexist


class Fixed:
    """A judge that answers one verdict."""

    def __init__(self, relation: Relation, confidence: float = 1.0) -> None:
        self.verdict = Verdict(relation, confidence, "fixed")

    def observe(self, memories) -> None:
        pass

    def judge(self, older, newer, similarity=None) -> Verdict:
        return self.verdict


def test_cascade_first_stage_answers_referenced_pairs_only():
    newer = rec(9, "0009-new", "New", "Amends ADR-0004. See ADR 3.")
    off = CascadeJudge(Fixed(S), Fixed(C))
    on = CascadeJudge(Fixed(S), Fixed(C), reference=ReferenceJudge())
    for cascade in (off, on):
        cascade.observe([*STORE, newer])
    assert on.judge(STORE[2], newer).relation is M and on.judge(STORE[2], newer).reason.startswith("reference:")
    assert on.judge(STORE[1], newer) == Verdict(S, 1.0, "fixed")  # "see ADR 3": no verb, the cascade goes on
    assert off.judge(STORE[2], newer) == Verdict(S, 1.0, "fixed")


def test_cascade_conf_reads_references_and_record_stores_by_default():
    node = compose_cfg(["judge=cascade"])["judge"]
    assert node["reference"] == compose_cfg(["judge=reference"])["judge"]
    assert node["record"] == compose_cfg(["judge=record"])["judge"]


def test_a_title_never_resolves_to_a_later_memory():
    kafka_now = rec(1, "", "Use Kafka for events", handles=False, day=1)
    kafka_later = rec(2, "", "Use Kafka for events", handles=False, day=40)
    newer = rec(9, "", "Events", "Replaces the decision to use Kafka for events.", handles=False, day=20)
    judge = ReferenceJudge()
    judge.observe([kafka_now, newer, kafka_later])
    assert judge.read(kafka_now, newer).relation is S  # the later namesake is no candidate, so no ambiguity


@pytest.mark.parametrize("handles", [None, "0004", ("x", 5), (4,), (None, None), ()])
def test_malformed_handles_are_ignored(handles):
    older = Memory("o1", "decisions", T0, "Tenant isolation", "", meta={"handles": handles})
    newer = rec(9, "0009-new", "New", "Supersedes the decision on tenant isolation.", day=3)
    judge = ReferenceJudge()
    judge.observe([older, newer])
    assert judge.judge(older, newer).relation is S
