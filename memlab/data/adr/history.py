r"""One repository's decision records as a :class:`ProjectHistory`: memories, gold relations and queries.

* Order: records by date, then number (records without one after those with one), then path. A record
  is recorded at 00:00 UTC of its date; records of the same day get increasing times one minute apart
  (finer when a day holds more than 1,440 records) so the order is stable and every record of a day stays
  in that day (one session under ``pipeline.schedule=session``).
* Memory ids are opaque: ``"adr-" + sha256(repo + "\0" + record id)[:12]`` (never the path, which can
  say ``[Superseded]``, nor the number).
* Gold: ``supersedes`` -> SUPERSEDE, ``amends`` -> MERGE. A link naming a missing record, linking a
  record to itself, or whose new record is not strictly later in that order than its old one is skipped
  and counted in ``meta["skipped_links"]`` with the reason; a repeated link is skipped as a duplicate.
* Queries (from SUPERSEDE links only; an amendment leaves the old decision standing): one ``current``
  per superseded record, asked with its stripped title at the history's end, evidence = the heads of its
  chain (newest records reachable by SUPERSEDE links); one ``as_of`` per link, asked half-way in time
  between old and new, evidence = what was current for the old record then (the old record itself,
  unless another link had already superseded it by that time: then the heads of the chain as it stood).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation
from memlab.data.adr import refs as rf
from memlab.data.adr.corpus import AdrRecord, AdrRepo
from memlab.data.adr.strip import REFS, clean_record
from memlab.data.project_history.schema import GoldQuery, GoldRelation, ProjectHistory

NAMESPACE = "decisions"
GOLD = {"supersedes": Relation.SUPERSEDE, "amends": Relation.MERGE}


def memory_id(repo: str, record_id: str) -> str:
    """The opaque memory id of a record."""
    return "adr-" + hashlib.sha256(f"{repo}\0{record_id}".encode()).hexdigest()[:12]


def ordered(records: tuple[AdrRecord, ...]) -> list[tuple[AdrRecord, datetime]]:
    """Records in episode order with their times (see the module docstring)."""
    out = sorted(records, key=lambda r: (r.date, r.number is None, r.number or 0, r.path, r.id))
    by_day: dict[Any, list[AdrRecord]] = {}
    for record in out:
        by_day.setdefault(record.date, []).append(record)
    timed = []
    for day, group in by_day.items():
        step = 60.0 if len(group) <= 1440 else 86400.0 / len(group)
        base = datetime(day.year, day.month, day.day, tzinfo=UTC)
        timed.extend((r, base + timedelta(seconds=k * step)) for k, r in enumerate(group))
    return timed


def _resolver(timed: list[tuple[AdrRecord, datetime]]):
    """``earlier(record_id) -> keep(key)``: a reference stays only when it names an earlier record."""
    position = {r.id: k for k, (r, _) in enumerate(timed)}
    by_stem: dict[str, str] = {}
    by_number: dict[str, list[str]] = {}
    for record, _ in timed:
        by_stem.setdefault(rf.file_stem(record.path), record.id)
        if record.number is not None:
            by_number.setdefault(str(record.number), []).append(record.id)

    def earlier(current: str):
        def keep(key: str) -> bool:
            if key in by_stem:
                targets = [by_stem[key]]
            else:
                number = key if key.isdigit() else rf.key_number(key)
                targets = by_number.get(str(int(number)), []) if number else []
            return all(position[t] < position[current] for t in targets)  # unknown records: as written

        return keep

    return earlier


def _heads(start: str, succ: dict[str, list[str]]) -> tuple[str, ...]:
    seen, stack, heads = set(), list(succ.get(start, ())), []
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if succ.get(node):
            stack.extend(succ[node])
        else:
            heads.append(node)
    return tuple(sorted(set(heads)))


def repo_history(repo: AdrRepo, refs: str = "strip", max_chars: int = 1500) -> ProjectHistory:
    """The repository as one history (see the module docstring).

    Args:
        repo: The repository's records and links.
        refs: ``strip`` (default) or ``keep`` (:mod:`memlab.data.adr.strip`).
        max_chars: Cap of each memory's content.
    """
    if refs not in REFS:
        raise MemlabError(f"unknown refs {refs!r}; use dataset.refs=strip or dataset.refs=keep")
    if int(max_chars) < 1:
        raise MemlabError(f"max_chars must be a positive number of characters, got {max_chars}")
    timed = ordered(repo.records)
    stems = frozenset(rf.file_stem(r.path) for r in repo.records)
    earlier = _resolver(timed)
    ids = {r.id: memory_id(repo.repo, r.id) for r in repo.records}
    memories: list[Memory] = []
    for record, at in timed:
        cleaned = clean_record(
            record.text,
            record.title,
            record.path,
            record.number,
            refs=refs,
            stems=stems,
            keep=earlier(record.id),
            max_chars=int(max_chars),
        )
        meta: dict[str, Any] = {"repo": repo.repo, "record_date": record.date.isoformat()}
        if refs == "keep":
            handle = str(record.number) if record.number is not None else ""
            meta["handles"] = (handle, rf.file_stem(record.path))
        memories.append(Memory(ids[record.id], NAMESPACE, at, cleaned.summary, cleaned.content, meta=meta))
    times = {ids[r.id]: at for r, at in timed}
    position = {ids[r.id]: k for k, (r, _) in enumerate(timed)}
    relations: list[GoldRelation] = []
    skipped: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    stated: list[tuple[str, str]] = []  # links the newer record states (the data's direction says ``new-says``)
    for link in repo.links:
        reason = None
        if link.old not in ids or link.new not in ids:
            missing = link.old if link.old not in ids else link.new
            reason = f"names a missing record {missing!r}"
        elif link.old == link.new:
            reason = "links a record to itself"
        elif position[ids[link.new]] <= position[ids[link.old]]:
            reason = "new record is not later than the old one"
        elif (link.old, link.new) in seen:
            reason = "duplicate link"
        if reason:
            skipped.append({"old": link.old, "new": link.new, "relation": link.relation, "reason": reason})
            continue
        seen.add((link.old, link.new))
        relations.append(GoldRelation(ids[link.old], ids[link.new], GOLD[link.relation]))
        if "new-says" in link.direction:
            stated.append((ids[link.old], ids[link.new]))
    queries = _queries(relations, memories, times)
    meta = {
        "repo": repo.repo,
        "licence": repo.license,
        "commit": repo.commit,
        "source": repo.source,
        "refs": refs,
        "n_records": len(repo.records),
        "n_links": len(repo.links),
        "skipped_links": skipped,
        "stated_links": stated,
        "empty": not repo.records,
        "no_links": not relations,
    }
    return ProjectHistory(repo.name, tuple(memories), tuple(relations), (), tuple(queries), meta)


def _queries(relations: list[GoldRelation], memories: list[Memory], times: dict[str, datetime]) -> list[GoldQuery]:
    summary = {m.id: m.summary for m in memories}
    end = max(times.values()) if times else None
    supersede = [r for r in relations if r.relation is Relation.SUPERSEDE]
    succ: dict[str, list[str]] = {}
    for r in supersede:
        succ.setdefault(r.older, []).append(r.newer)
    out: list[GoldQuery] = []
    for older in sorted(succ, key=lambda m: (times[m], m)):
        heads = _heads(older, succ)
        answer = " | ".join(summary[h] for h in heads)
        out.append(GoldQuery(f"current-{older}", "current", summary[older], end, answer, heads))
    for r in sorted(supersede, key=lambda r: (times[r.newer], r.older)):
        at = times[r.older] + (times[r.newer] - times[r.older]) / 2
        before = {o: [n for n in news if times[n] <= at] for o, news in succ.items()}
        evidence = _heads(r.older, before) or (r.older,)
        answer = " | ".join(summary[e] for e in evidence)
        out.append(GoldQuery(f"as_of-{r.older}-{r.newer}", "as_of", summary[r.older], at, answer, evidence))
    return out
