"""Generated histories whose questions consolidation decides (``dataset=consolidation_history``).

The questions of :mod:`generator` are mostly answered alike from a consolidated and an unconsolidated store: the
note that answers is also the one the question's words find. Here every question has a trap that only
consolidation removes, so that retention, the judge and clustering move the reader's accuracy. One topic
instance (an attribute of a subject, :data:`~memlab.data.project_history.generator_topics.TOPICS`) per question,
``current`` kind, each instance one of three traps in turn:

* ``stale`` (the judge decides): the decision states the old value in the question's own words and is restated
  in reviews and progress notes (DUPLICATE of it); a later decision moves the subject from the old value to the
  new one in fewer of the question's words (SUPERSEDE of the decision and its restatements). Unconsolidated, the
  reader reads the note sharing most words with the question: the old value. With the stale notes superseded
  (standard recall hides them), it reads the change.
* ``cold`` (retention decides): the decision states the value and stays current; long before the question, a
  progress note tried another value for the same attribute in more of the question's words (no relation: a
  spike, not a decision). Unconsolidated it wins the reader; a retention that lets old, unimportant notes cool
  leaves it out of standard recall.
* ``scattered`` (clustering decides): a recent decision answers the question, and in the hours after it the question
  is asked again in progress notes that name no value, in as many of the question's words. Unconsolidated, the
  reader reads the newest of them, which answers nothing; a cluster summary gathers the question and its answer in
  one unit, newer than the decision.

Noise: unrelated progress notes, ``noise_ratio`` of the memories. Deterministic for ``(seed, questions,
noise_ratio)``. Build and tune on development seeds (1020 and up); the evaluation seeds are 0-2.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from memlab.core.types import Memory, Relation
from memlab.data.project_history.generator_topics import TOPICS, subject_name
from memlab.data.project_history.schema import GoldQuery, GoldRelation, ProjectHistory

VERSION = 1
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
SPAN_DAYS = 150
TRAPS: tuple[str, ...] = ("stale", "cold", "scattered")
QUESTION = "Which {attr} does {subj} use now?"
NOISE = (
    "Sprint {n} retro: standups moved to 10:00",
    "Cleaned up flaky test number {n} in the nightly suite",
    "Pairing session {n} on onboarding docs",
    "Updated the team calendar for week {n}",
)


class _Writer:
    """Drafts memories and gold for one history."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.drafts: list[tuple[datetime, str, str, str]] = []  # time, key, namespace, text
        self.relations: list[tuple[str, str, Relation]] = []
        self.queries: list[tuple[str, str, str, list[str]]] = []  # question, answer, topic, evidence keys

    def note(self, ns: str, at: datetime, text: str) -> str:
        key = f"k{len(self.drafts)}"
        self.drafts.append((at, key, ns, text[:1].upper() + text[1:]))
        return key

    def day(self, lo: float, hi: float) -> datetime:
        """A time between ``lo`` and ``hi`` of the span (fractions), during working hours."""
        days = self.rng.uniform(lo * SPAN_DAYS, hi * SPAN_DAYS)
        return START + timedelta(days=int(days), hours=self.rng.randint(0, 8), minutes=self.rng.randint(0, 59))

    def stale(self, subj: str, attr: str, values: list[str]) -> tuple[str, str]:
        old, new = values[:2]
        t0 = self.day(0.05, 0.4)
        first = self.note("decisions", t0, f"{subj} uses {old} as its {attr}")
        said = [first]
        for k, ns in enumerate(("reviews", "progress")):
            at = t0 + timedelta(days=3 + 4 * k, hours=self.rng.randint(0, 6))
            said.append(self.note(ns, at, f"{attr} of {subj}: {old}, as {subj} uses it"))
            self.relations.append((first, said[-1], Relation.DUPLICATE))
        change = self.note("decisions", self.day(0.55, 0.95), f"{subj} moved from {old} to {new}")
        self.relations += [(key, change, Relation.SUPERSEDE) for key in said]
        return new, change

    def cold(self, subj: str, attr: str, values: list[str]) -> tuple[str, str]:
        value, other = values[:2]
        decided = self.note("decisions", self.day(0.0, 0.1), f"{subj} uses {value} as its {attr}")
        spike = f"spike: which {attr} could {subj} use now? {attr} {other} tried on {subj}, {attr} numbers pending"
        self.note("progress", self.day(0.1, 0.3), spike)  # 100 days or more before the questions
        return value, decided

    def scattered(self, subj: str, attr: str, values: list[str]) -> tuple[str, str]:
        value = values[0]
        t0 = self.day(0.85, 0.97)  # recent: every note stays in standard recall, retention decides nothing here
        decided = self.note("decisions", t0, f"settled on {value} as the {attr} {subj} should use")
        asks = (f"which {attr} should {subj} use?", f"what {attr} will {subj} use?", f"which {attr} to use for {subj}?")
        for k, ask in enumerate(asks):
            self.note("progress", t0 + timedelta(hours=k + 1), ask)
        return value, decided


def generate_consolidation(seed: int, questions: int = 300, noise_ratio: float = 0.2) -> ProjectHistory:
    """A history of ``questions`` trapped instances (module docstring) plus noise."""
    rng = random.Random(f"consolidation_history|{seed}|{questions}|{noise_ratio}")
    writer = _Writer(rng)
    for i in range(int(questions)):
        topic = TOPICS[i % len(TOPICS)]
        subj, values = subject_name(1 + i // len(TOPICS)), rng.sample(topic.values, 3)
        answer, evidence = getattr(writer, TRAPS[i % len(TRAPS)])(subj, topic.attr, values)
        writer.queries.append((QUESTION.format(attr=topic.attr, subj=subj), answer, f"i{i}", [evidence]))
    n_noise = round(len(writer.drafts) * noise_ratio / (1 - noise_ratio)) if noise_ratio < 1 else 0
    for n in range(n_noise):
        writer.note("progress", writer.day(0.0, 1.0), rng.choice(NOISE).format(n=n))
    drafts = sorted(writer.drafts)
    ids = {key: f"m{n:06d}" for n, (_, key, _, _) in enumerate(drafts)}
    memories = tuple(Memory(ids[key], ns, at, text, "", (ns,)) for at, key, ns, text in drafts)
    now = memories[-1].timestamp + timedelta(hours=1)
    queries = tuple(
        GoldQuery(f"q{n:05d}", "current", question, now, answer, tuple(ids[k] for k in evidence), topic)
        for n, (question, answer, topic, evidence) in enumerate(writer.queries)
    )
    relations = tuple(GoldRelation(ids[o], ids[n], r) for o, n, r in writer.relations)
    traps = {t: sum(TRAPS[i % 3] == t for i in range(questions)) for t in TRAPS}
    meta = {"generator": "consolidation_history", "version": VERSION, "seed": seed, "questions": questions}
    meta |= {"noise_ratio": noise_ratio, "traps": traps}
    return ProjectHistory(f"ch-seed{seed}-q{questions}", memories, relations, (), queries, meta)
