"""Topics of the project-history generator: facts whose value changes, with value pools and wording.

Each :class:`TopicSpec` names an attribute of a subject (``the web framework`` of ``the billing
service``), a pool of at least five values (a seed picks the values a history walks through), synonyms
for the attribute (so restatements can be paraphrased), reasons, details (for MERGE events) and scoped
variants (``in tests``) whose values coexist with the main one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TopicSpec:
    """One kind of changing fact.

    Attributes:
        key: Stable topic key.
        attr: Canonical attribute noun phrase ("web framework").
        synonyms: Other ways to name the attribute.
        values: Value pool (at least five).
        reasons: Why a value was chosen (``{v}`` may appear).
        details: Extra detail about a value, for MERGE events (``{v}`` may appear).
        scopes: Scope phrases whose value coexists with the main one ("in tests").
        scoped_values: Values used in a scope.
    """

    key: str
    attr: str
    synonyms: tuple[str, ...]
    values: tuple[str, ...]
    reasons: tuple[str, ...]
    details: tuple[str, ...]
    scopes: tuple[str, ...] = ()
    scoped_values: tuple[str, ...] = ()


TOPICS: tuple[TopicSpec, ...] = (
    TopicSpec(
        "web_framework",
        "web framework",
        ("HTTP framework", "server framework", "API framework"),
        ("Flask", "FastAPI", "Django", "Starlette", "Falcon", "Litestar", "aiohttp"),
        ("async request handling", "generated OpenAPI docs", "a smaller dependency tree", "better typing support"),
        ("routers are split per resource", "request bodies are validated with typed models", "{v} is pinned"),
        ("for the internal admin tool", "in the prototype"),
        ("Bottle", "Sanic", "Tornado"),
    ),
    TopicSpec(
        "database",
        "database",
        ("primary datastore", "main data store", "relational store"),
        ("PostgreSQL", "MySQL", "MariaDB", "CockroachDB", "MongoDB", "SQL Server"),
        ("JSON columns", "stronger transactional guarantees", "managed backups", "horizontal scaling"),
        ("connection pooling goes through PgBouncer", "migrations run through Alembic", "read replicas serve reports"),
        ("in tests", "for local development", "in CI"),
        ("SQLite", "DuckDB", "an in-memory SQLite database"),
    ),
    TopicSpec(
        "auth",
        "authentication method",
        ("auth scheme", "login mechanism", "client authentication"),
        ("session cookies", "JWT bearer tokens", "OAuth2 via Auth0", "API keys", "OpenID Connect via Keycloak"),
        ("mobile clients", "third-party integrations", "single sign-on", "simpler token revocation"),
        ("tokens expire after 15 minutes", "refresh happens silently in the client", "keys rotate every 90 days"),
        ("for service-to-service calls", "in the staging environment"),
        ("mutual TLS", "static shared secrets", "HMAC-signed requests"),
    ),
    TopicSpec(
        "ci",
        "CI provider",
        ("continuous integration service", "build system", "CI pipeline host"),
        ("GitHub Actions", "GitLab CI", "CircleCI", "Jenkins", "Travis CI", "Buildkite"),
        ("faster queues", "native caching", "cheaper minutes", "self-hosted runners"),
        ("the test matrix covers three Python versions", "builds cache dependencies", "nightly jobs run at 02:00"),
        ("for release builds", "for the docs site"),
        ("a cron job on the build box", "Read the Docs builds", "Drone CI"),
    ),
    TopicSpec(
        "deploy_target",
        "deploy target",
        ("hosting platform", "deployment platform", "runtime environment"),
        ("AWS ECS", "Kubernetes on GKE", "Fly.io", "Heroku", "AWS Lambda", "a fleet of bare-metal VMs"),
        ("autoscaling", "lower cost", "simpler rollbacks", "regional failover"),
        ("blue-green deploys are enabled", "health checks gate every rollout", "images are built once per commit"),
        ("in staging", "for preview environments"),
        ("a single Docker host", "Docker Compose on one VM", "Render"),
    ),
    TopicSpec(
        "test_runner",
        "test runner",
        ("testing framework", "unit-test harness", "test tool"),
        ("pytest", "unittest", "nose2", "Ward", "Jest", "Vitest"),
        ("fixtures", "parallel execution", "better failure output", "plugin ecosystem"),
        ("tests run in random order", "coverage must stay above 85 percent", "slow tests carry a marker"),
        ("for the browser tests", "for load tests"),
        ("Playwright", "Cypress", "Locust"),
    ),
    TopicSpec(
        "api_versioning",
        "API versioning scheme",
        ("versioning strategy", "API version policy", "way APIs are versioned"),
        (
            "URL path versions like /v1/",
            "a version request header",
            "a query-parameter version",
            "media-type versioning",
            "date-based versions",
        ),
        ("cache friendliness", "clients pinning versions", "simpler routing", "gradual deprecation"),
        ("old versions are kept for six months", "deprecations are announced in the changelog"),
        ("for internal endpoints",),
        ("no versioning at all", "a single unversioned route"),
    ),
    TopicSpec(
        "owner",
        "owner",
        ("maintainer", "responsible engineer", "code owner"),
        ("Alice Chen", "Bob Okafor", "Carla Diaz", "Dmitri Volkov", "Emma Larsen", "Farid Haddad", "Grace Kim"),
        ("team reshuffle", "on-call rotation changes", "domain expertise", "parental leave coverage"),
        ("{v} reviews every schema change", "{v} runs the weekly triage"),
        ("for the on-call rota", "for security reviews"),
        ("Hiro Tanaka", "Ines Moreau", "Jonas Berg"),
    ),
    TopicSpec(
        "release_date",
        "release date",
        ("launch date", "ship date", "target release day"),
        ("March 14", "April 2", "April 28", "May 19", "June 9", "June 30", "July 21"),
        ("a slipped dependency", "a customer commitment", "QA capacity", "the marketing calendar"),
        ("a code freeze starts one week before {v}", "release notes are due two days before {v}"),
        ("for the beta", "for the internal preview"),
        ("February 20", "March 3", "March 10"),
    ),
    TopicSpec(
        "formatter",
        "code formatter",
        ("formatting tool", "code style tool", "auto-formatter"),
        ("Black", "Ruff format", "autopep8", "YAPF", "Prettier"),
        ("speed", "one tool for lint and format", "fewer config options", "editor integration"),
        ("formatting runs in a pre-commit hook", "CI fails on unformatted files"),
        ("for generated code", "for notebooks"),
        ("no formatter", "nbQA with Black", "isort only"),
    ),
    TopicSpec(
        "line_length",
        "line length limit",
        ("maximum line length", "line width", "column limit"),
        ("79 characters", "88 characters", "100 characters", "120 characters", "99 characters"),
        ("readability on laptops", "fewer wrapped signatures", "matching the formatter default"),
        ("docstrings follow the same limit", "URLs are exempt from the limit"),
        ("for SQL files", "for test files"),
        ("no limit", "160 characters"),
    ),
    TopicSpec(
        "message_queue",
        "message queue",
        ("message broker", "event bus", "queueing system"),
        ("RabbitMQ", "Kafka", "Redis Streams", "Amazon SQS", "NATS", "Google Pub/Sub"),
        ("ordering guarantees", "replayable events", "lower operational load", "throughput"),
        ("dead letters go to a separate queue", "consumers acknowledge after commit"),
        ("for local development", "in integration tests"),
        ("an in-process queue", "a fake broker", "a Python list"),
    ),
    TopicSpec(
        "cache",
        "cache layer",
        ("caching backend", "cache", "result cache"),
        ("Redis", "Memcached", "an in-process LRU cache", "Varnish", "Hazelcast"),
        ("lower latency", "shared state across workers", "cheaper hosting", "eviction control"),
        ("entries expire after ten minutes", "cache keys include the schema version"),
        ("in tests", "for the CLI"),
        ("a dict-backed fake", "no cache"),
    ),
    TopicSpec(
        "frontend",
        "frontend framework",
        ("UI framework", "client-side framework", "web UI stack"),
        ("React", "Vue", "Svelte", "Angular", "SolidJS", "HTMX"),
        ("component reuse", "bundle size", "hiring pool", "server rendering"),
        ("state lives in a single store", "components are documented in Storybook"),
        ("for the marketing site", "for email templates"),
        ("plain HTML", "Astro", "Jinja templates"),
    ),
    TopicSpec(
        "package_manager",
        "dependency manager",
        ("package manager", "dependency tool", "lockfile tool"),
        ("pip-tools", "Poetry", "uv", "PDM", "Pipenv"),
        ("faster resolution", "reproducible lockfiles", "workspace support", "simpler CI setup"),
        ("the lockfile is committed", "dependency updates land weekly"),
        ("for the docs build", "for one-off scripts"),
        ("plain pip", "conda"),
    ),
    TopicSpec(
        "monitoring",
        "monitoring stack",
        ("observability tool", "metrics platform", "APM"),
        ("Datadog", "Prometheus with Grafana", "New Relic", "Honeycomb", "Grafana Cloud"),
        ("cost", "trace sampling", "alert routing", "self-hosting"),
        ("alerts page the on-call engineer", "dashboards are versioned as code"),
        ("in staging", "for batch jobs"),
        ("log-based alerts only", "StatsD"),
    ),
    TopicSpec(
        "branching",
        "branching strategy",
        ("branching model", "git workflow", "branch policy"),
        ("trunk-based development", "GitFlow", "GitHub flow", "release branches", "stacked pull requests"),
        ("faster integration", "fewer merge conflicts", "clearer releases", "smaller reviews"),
        ("branches live at most two days", "every merge needs one approval"),
        ("for hotfixes", "for the mobile app"),
        ("direct pushes to main", "patch branches"),
    ),
    TopicSpec(
        "docstring_style",
        "docstring style",
        ("documentation convention", "docstring format", "comment style"),
        ("Google style", "NumPy style", "reStructuredText fields", "Epytext", "plain prose"),
        ("tool support", "readability", "rendering in the docs site", "consistency"),
        ("public functions must have one", "examples go in a separate section"),
        ("for private helpers", "in test files"),
        ("no docstrings", "one-line docstrings"),
    ),
)

#: Subjects a topic can be about. The first one is the project itself; larger histories use more.
SUBJECT_NAMES: tuple[str, ...] = (
    "billing",
    "search",
    "checkout",
    "notifications",
    "inventory",
    "analytics",
    "reporting",
    "ingestion",
    "scheduler",
    "admin portal",
    "mobile backend",
    "payments",
    "catalog",
    "recommendations",
    "identity",
    "shipping",
    "pricing",
    "export",
    "audit log",
    "webhooks",
    "media",
    "ledger",
    "onboarding",
    "support desk",
    "geo",
)
SUBJECT_QUALIFIERS: tuple[str, ...] = (
    "",
    "legacy ",
    "partner ",
    "internal ",
    "EU ",
    "US ",
    "batch ",
    "realtime ",
    "v2 ",
    "edge ",
    "enterprise ",
    "sandbox ",
    "regional ",
    "mobile ",
    "public ",
    "staging-only ",
    "archival ",
    "experimental ",
)


def subject_name(index: int) -> str:
    """Subject ``index``: 0 is ``the project``, then ``the billing service``, ``the legacy billing service``…."""
    if index == 0:
        return "the project"
    i = index - 1
    name = SUBJECT_NAMES[i % len(SUBJECT_NAMES)]
    qual_index = i // len(SUBJECT_NAMES)
    if qual_index < len(SUBJECT_QUALIFIERS):
        return f"the {SUBJECT_QUALIFIERS[qual_index]}{name} service"
    return f"the {name} service #{qual_index}"
