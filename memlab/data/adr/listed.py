"""References a decision record lists outside its prose: front-matter keys and sections named by a relation.

Some records say what they replace as data rather than as a sentence: a front-matter key (``supersedes:
[ADR-0004]``, ``supercedes: 0004-use-x.md``, ``replaces:`` followed by ``- 4`` items) or a section whose heading is
the relation and whose body lists the records (``## Supercedes`` / ``- [ADR-4](0004-use-x.md)``). The sentence
reader of :mod:`memlab.data.adr.strip` finds neither (no verb governs the list). :func:`listed_references` turns
each listed item into a sentence the reference reader reads, ``Supersedes: <item>``, for ``refs=keep``. Only
active relations count: a record's own "Superseded by" / "Overridden by" list is a mark edited in later, never a
reference it could have made. A bare number is read as a record number (``4`` -> ``ADR-4``).
"""

from __future__ import annotations

import re

#: Active relation words a key or heading may be, and the verb each becomes.
VERBS = {"supersedes": "Supersedes", "supercedes": "Supersedes", "replaces": "Replaces", "obsoletes": "Obsoletes",
         "overrides": "Overrides", "amends": "Amends", "extends": "Extends", "refines": "Refines"}  # fmt: skip
_KEY = re.compile(r"^\s*[\"']?([A-Za-z][\w -]*?)[\"']?\s*:\s*(.*?)\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*?)\s*$")
_HEAD_WORD = re.compile(r"(?i)^\W*([a-z]+)\W*$")


def _verb(name: str) -> str | None:
    return VERBS.get(name.strip().lower().replace(" ", "").replace("_", "").replace("-", ""))


def _items(value: str) -> list[str]:
    """The items of an inline value: ``[a, b]``, ``a, b`` or one scalar (quotes stripped; empty: none)."""
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
    parts = [p.strip().strip("\"'") for p in value.split(",")] if value else []
    return [p for p in parts if p and p.lower() not in ("none", "null", "~", "n/a", "-")]


def _sentence(verb: str, item: str) -> str:
    return f"{verb}: ADR-{int(item)}" if item.isdigit() else f"{verb}: {item}"


def front_matter(lines: list[str]) -> list[str]:
    """``Verb: item`` for every item of a relation key of the front matter ``lines`` (between the ``---``)."""
    out: list[str] = []
    verb: str | None = None
    for line in lines:
        if line.strip() in ("---", "..."):
            continue
        item = _ITEM.match(line)
        if item and verb is not None:  # a list under the key
            out.extend(_sentence(verb, i) for i in _items(item.group(1)))
            continue
        key = _KEY.match(line)
        verb = _verb(key.group(1)) if key and not line[:1].isspace() else None
        if key and verb is not None:
            out.extend(_sentence(verb, i) for i in _items(key.group(2)))
    return out


def section(heading: str, body: list[str]) -> list[str]:
    """``Verb: item`` for the list items (or lone lines) of a section whose heading is an active relation."""
    word = _HEAD_WORD.match(heading)
    verb = _verb(word.group(1)) if word else None
    if verb is None:
        return []
    out = []
    for line in body:
        item = _ITEM.match(line)
        text = item.group(1) if item else line.strip()
        if text and not _verb(text.split(":")[0]):
            out.extend(_sentence(verb, i) for i in (_items(text) if not item else [text]))
    return out
