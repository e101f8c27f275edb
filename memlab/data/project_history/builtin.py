"""The embedded default: a small, hand-written project history with exact gold (a fixed topic set).

Unlike the generator's templates, every topic, phrasing and noise note here was written by hand, so a
strategy developed on generated histories meets wording it has never seen. About 60 memories over four
months of an imaginary ``acme-api`` project: decisions that change (Flask → FastAPI, session cookies →
JWT → OAuth2, ...), restatements (duplicates), a scoped variant that must coexist (PostgreSQL in
production, SQLite in tests), blockers with relative dates ("yesterday's outage"), and progress noise.
``seed`` shuffles phrasings and noise; the gold follows exactly.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memlab.core.types import Memory, Relation
from memlab.data.project_history.schema import GoldQuery, GoldRelation, GoldTemporal, ProjectHistory

START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Topic:
    """A fact whose value changes: question, values in order, and day offsets of each decision."""

    key: str
    question: str
    values: tuple[str, ...]
    days: tuple[int, ...]
    decide: tuple[str, ...]  # templates for the first decision, {v}
    change: tuple[str, ...]  # templates for a change, {old} -> {new}
    restate: tuple[str, ...]  # templates for a restatement, {v}
    why: str


TOPICS: tuple[Topic, ...] = (
    Topic(
        "web_framework",
        "Which web framework does the API use?",
        ("Flask", "FastAPI"),
        (2, 41),
        ("Use {v} for the HTTP API", "Build the API on {v}"),
        ("Switched the API from {old} to {new}", "Replaced {old} with {new} for the API"),
        ("The API is built on {v}", "Reminder: API handlers are written with {v}"),
        "async support and generated OpenAPI docs",
    ),
    Topic(
        "database",
        "Which database does production use?",
        ("MySQL", "PostgreSQL"),
        (3, 55),
        ("Production data lives in {v}", "Use {v} as the production database"),
        ("Migrated production from {old} to {new}", "Production database moved from {old} to {new}"),
        ("Production runs on {v}", "Our production store is {v}"),
        "JSONB columns and better migration tooling",
    ),
    Topic(
        "auth",
        "How do API clients authenticate?",
        ("session cookies", "JWT bearer tokens", "OAuth2 via Auth0"),
        (5, 33, 88),
        ("Authenticate API clients with {v}", "Clients authenticate using {v}"),
        ("Auth changed from {old} to {new}", "Dropped {old}; clients now use {new}"),
        ("API clients authenticate with {v}", "Authentication is done with {v}"),
        "mobile clients and third-party integrations",
    ),
    Topic(
        "ci",
        "Which CI provider runs the test suite?",
        ("Travis CI", "GitHub Actions"),
        (7, 47),
        ("Run CI on {v}", "Continuous integration runs on {v}"),
        ("Moved CI from {old} to {new}", "CI no longer runs on {old}; it runs on {new}"),
        ("CI runs on {v}", "The pipeline is defined for {v}"),
        "faster queues and native caching",
    ),
    Topic(
        "deploy",
        "Where is the API deployed?",
        ("Heroku", "AWS ECS", "Fly.io"),
        (10, 60, 100),
        ("Deploy the API to {v}", "The API is deployed on {v}"),
        ("Deployment moved from {old} to {new}", "Stopped deploying to {old}; deploy to {new} instead"),
        ("Deploys go to {v}", "Production deploys target {v}"),
        "cost and regional latency",
    ),
    Topic(
        "test_runner",
        "Which test runner do we use?",
        ("unittest", "pytest"),
        (4, 28),
        ("Write tests with {v}", "Use {v} as the test runner"),
        ("Replaced {old} with {new} as the test runner", "Tests now run under {new} instead of {old}"),
        ("Tests run with {v}", "Our test runner is {v}"),
        "fixtures and parametrisation",
    ),
    Topic(
        "api_versioning",
        "How is the public API versioned?",
        ("URL path prefixes like /v1", "an Accept-Version header"),
        (12, 70),
        ("Version the public API with {v}", "Public API versions use {v}"),
        ("API versioning changed from {old} to {new}", "Deprecated {old}; version with {new}"),
        ("The public API is versioned with {v}", "Versioning scheme: {v}"),
        "cleaner URLs for partners",
    ),
    Topic(
        "billing_owner",
        "Who owns the billing component?",
        ("Alice", "Bob"),
        (15, 80),
        ("{v} owns the billing component", "Billing component owner: {v}"),
        ("Billing ownership moved from {old} to {new}", "{new} took over billing from {old}"),
        ("{v} is the owner of billing", "Ask {v} about billing changes"),
        "team reorganisation",
    ),
)

NOISE = (
    (
        "progress",
        "Implemented pagination for the /users endpoint",
        "Cursor-based pagination with a default page size of 50.",
    ),
    ("progress", "Added request logging middleware", "Each request logs method, path, status and duration."),
    ("progress", "Wrote integration tests for invoices", "Covers creation, refunds and currency rounding."),
    ("learnings", "Connection pool exhaustion under load", "Pool size must exceed worker count times two."),
    ("learnings", "Timezone bugs come from naive datetimes", "Always store UTC and convert at the edges."),
    ("patterns", "Repository pattern for data access", "Handlers never issue SQL directly; repositories do."),
    ("reviews", "Review: error responses are inconsistent", "Standardise on RFC 7807 problem details."),
    ("research", "Compared rate limiting libraries", "Token bucket in Redis fits our multi-instance deploys."),
    ("progress", "Added OpenAPI examples for orders", "Every order endpoint now documents a request example."),
    ("retrospective", "Sprint 3 retrospective", "Too many late merges; agree on a Thursday code freeze."),
    (
        "inception",
        "Project goal: a public orders API for partners",
        "Partners create and track orders programmatically.",
    ),
    ("elicitation", "Partners need webhooks for order status", "Polling is too slow for their dashboards."),
    ("progress", "Added idempotency keys to order creation", "Retries with the same key return the first result."),
    ("learnings", "Slow tests came from real network calls", "Stub external HTTP in unit tests."),
    ("patterns", "Feature flags for risky changes", "New behaviour ships dark and is enabled per partner."),
    ("reviews", "Review: missing indexes on orders.created_at", "Add the index before the partner launch."),
    ("progress", "Partner sandbox environment is live", "Partners can test against seeded fake data."),
    ("research", "Evaluated message queues for webhooks", "A managed queue avoids running our own broker."),
)


def _mid(key: str, n: int) -> str:
    return "m_" + hashlib.sha256(f"{key}:{n}".encode()).hexdigest()[:10]


END_DAY = 120


class _History:
    """The lists one builtin history is built into, and the seeded generator every draw comes from."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.memories: list[Memory] = []
        self.relations: list[GoldRelation] = []
        self.temporal: list[GoldTemporal] = []
        self.queries: list[GoldQuery] = []

    def add(self, key: str, namespace: str, day: float, summary: str, content: str, tags: tuple[str, ...]) -> str:
        """Append a memory on ``day`` (a drawn hour and minute); its id."""
        mid = _mid(key, len(self.memories))
        ts = START + timedelta(days=day, hours=self.rng.randint(0, 8), minutes=self.rng.randint(0, 59))
        self.memories.append(Memory(mid, namespace, ts, summary, content, tags))
        return mid


def generate(seed: int = 0) -> ProjectHistory:
    """Generate the builtin history (deterministic for ``seed``)."""
    h = _History(seed)
    for topic in TOPICS:
        _topic(h, topic)
    # scoped variant that must coexist with the production database
    h.add(
        "scoped",
        "decisions",
        20,
        "Use SQLite for the test suite",
        "Tests run against an in-memory SQLite database.",
        ("database", "testing"),
    )
    _relative_dates(h)
    noise = list(NOISE)
    h.rng.shuffle(noise)
    for n, (ns, summary, content) in enumerate(noise):
        h.add(f"noise{n}", ns, h.rng.randint(1, END_DAY - 1), summary, content, (ns,))
    h.memories.sort(key=lambda m: (m.timestamp, m.id))
    return ProjectHistory(
        "acme-api-builtin",
        tuple(h.memories),
        tuple(h.relations),
        tuple(h.temporal),
        tuple(h.queries),
        {"generator": "builtin_history", "seed": seed},
    )


def _topic(h: _History, topic: Topic) -> None:
    """One topic's decision chain (each change SUPERSEDEs the last, restatements DUPLICATE it) and its queries."""
    rng = h.rng
    chain: list[tuple[str, str, datetime]] = []  # (memory id, value, timestamp)
    prev_id = None
    for idx, (value, day) in enumerate(zip(topic.values, topic.days, strict=True)):
        if idx == 0:
            summary = rng.choice(topic.decide).format(v=value)
            content = f"Decided on {value} because of {topic.why}."
        else:
            old = topic.values[idx - 1]
            summary = rng.choice(topic.change).format(old=old, new=value)
            content = f"{old} no longer fits; {value} gives us {topic.why}."
        mid = h.add(topic.key, "decisions", day, summary, content, (topic.key,))
        if prev_id is not None:
            h.relations.append(GoldRelation(prev_id, mid, Relation.SUPERSEDE))
        chain.append((mid, value, h.memories[-1].timestamp))
        # a restatement a few days later (DUPLICATE of this decision)
        next_day = topic.days[idx + 1] if idx + 1 < len(topic.days) else END_DAY
        if next_day - day > 8 and rng.random() < 0.7:
            rday = day + rng.randint(3, min(10, next_day - day - 2))
            dup = h.add(
                topic.key,
                "decisions",
                rday,
                rng.choice(topic.restate).format(v=value),
                f"Restating: we use {value}.",
                (topic.key,),
            )
            h.relations.append(GoldRelation(mid, dup, Relation.DUPLICATE))
            chain.append((dup, value, h.memories[-1].timestamp))
        prev_id = mid
    # current query: evidence = last decision and its restatements
    last_value = topic.values[-1]
    evidence = tuple(m for m, v, _ in chain if v == last_value)
    h.queries.append(
        GoldQuery(
            f"q_{topic.key}_current",
            "current",
            topic.question,
            START + timedelta(days=END_DAY),
            last_value,
            evidence,
            topic.key,
        )
    )
    if len(topic.values) > 1:
        as_of = START + timedelta(days=(topic.days[0] + topic.days[1]) / 2)
        evid = tuple(m for m, v, _ in chain if v == topic.values[0])
        h.queries.append(
            GoldQuery(f"q_{topic.key}_asof", "as_of", topic.question, as_of, topic.values[0], evid, topic.key)
        )


def _relative_dates(h: _History) -> None:
    """Blockers dated "yesterday" and resolved two days later, and reviews of "last week", with gold intervals.

    "Last week" is the previous ISO week, Monday to Monday.
    """
    for n, (day, what) in enumerate(((25, "the staging database outage"), (64, "the expired TLS certificate"))):
        bid = h.add(
            f"blocker{n}",
            "blockers",
            day,
            f"Blocked by {what}",
            f"Deploys halted because of {what}, which started yesterday.",
            ("blocker",),
        )
        ts = h.memories[-1].timestamp
        start = (ts - timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        h.temporal.append(GoldTemporal(bid, "yesterday", start, start + timedelta(days=1)))
        rid = h.add(
            f"blocker{n}",
            "blockers",
            day + 2,
            f"Resolved: {what}",
            f"{what.capitalize()} is fixed; deploys resumed.",
            ("blocker", "resolved"),
        )
        h.relations.append(GoldRelation(bid, rid, Relation.SUPERSEDE))
    for n, day in enumerate((38, 93)):
        lid = h.add(
            f"retro{n}",
            "retrospective",
            day,
            "Incident review of the deploy failures",
            "The deploy failures we saw last week came from a missing migration step.",
            ("incident",),
        )
        ts = h.memories[-1].timestamp
        monday = (ts - timedelta(days=ts.weekday() + 7)).replace(hour=0, minute=0, second=0, microsecond=0)
        h.temporal.append(GoldTemporal(lid, "last week", monday, monday + timedelta(days=7)))
