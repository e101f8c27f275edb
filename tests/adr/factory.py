"""Tiny synthetic ADR corpora written for the tests (no third-party text)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def record(number: int | None, title: str, date: str, body: str, *, path: str | None = None, status: str = "") -> dict:
    """One record in the corpus format; ``body`` is the whole file text."""
    slug = title.split(". ", 1)[-1].lower().replace(" ", "-")
    path = path or f"docs/adr/{number or 0:04d}-{slug}.md"
    return {"id": path, "path": path, "number": number, "title": title, "date": date, "status": status, "text": body}


def md(number: int, title: str, decision: str, status: str = "Accepted", extra: str = "") -> str:
    """A Markdown record in the common template."""
    return (
        f"# {number}. {title}\n\nDate: 2020-01-01\n\n## Status\n\n{status}\n\n"
        f"## Context\n\nSome context about {title.lower()}.{extra}\n\n## Decision\n\n{decision}\n\n"
        "## Consequences\n\nThings change.\n"
    )


def write_repo(folder: Path, repo: str, records: list[dict], links: list[dict], **extra: Any) -> Path:
    """Write one repository file ``owner__name.json`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {"repo": repo, "commit": "0" * 40, "license": "MIT", "adrs": records, "links": links, **extra}
    path = folder / (repo.replace("/", "__") + ".json")
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def link(old: dict, new: dict, relation: str = "supersedes") -> dict:
    """A gold link between two records."""
    return {"old": old["id"], "new": new["id"], "relation": relation, "evidence": "Superseded by ..."}


def kafka_repo(folder: Path, repo: str = "acme/queue") -> Path:
    """Four records: 1 (queue: RabbitMQ) superseded by 3 (Kafka) superseded by 4 (NATS); 2 amended by 4."""
    r1 = record(
        1,
        "1. Use RabbitMQ",
        "2020-01-01",
        md(1, "Use RabbitMQ", "We will use RabbitMQ for events.", "Superseded by [3. Use Kafka](0003-use-kafka.md)"),
    )
    r2 = record(2, "2. Log in JSON", "2020-01-01", md(2, "Log in JSON", "We will log JSON lines."))
    r3 = record(
        3,
        "3. Use Kafka",
        "2021-06-01",
        md(
            3,
            "Use Kafka",
            "We will use Kafka for events.",
            "Accepted\n\nSupersedes [1. Use RabbitMQ](0001-use-rabbitmq.md)\n\nSuperseded by ADR-0004",
        ),
    )
    r4 = record(
        4,
        "4. Use NATS",
        "2022-01-01",
        md(
            4,
            "Use NATS",
            "We will use NATS for events and JSON logs.",
            "Accepted. Supersedes ADR-0003. Amends [ADR-0002](0002-log-in-json.md).",
        ),
    )
    links = [link(r1, r3), link(r3, r4), link(r2, r4, "amends")]
    return write_repo(folder, repo, [r1, r2, r3, r4], links)
