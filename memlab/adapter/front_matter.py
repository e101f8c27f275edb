"""A bounded reader for the flat front matter memory writers produce, needing nothing outside the standard
library (the event hooks run ``python -S``) and running in one pass over the lines.

It accepts only a subset of YAML whose meaning is unambiguous: ``key: value`` lines and ``key:`` followed
by ``- item`` lines, each value a one-line plain scalar that YAML would read as text (no indicator at its
start, no ``: `` or `` #`` inside, not a number, boolean or null word), a one-line single-quoted scalar, a
one-line double-quoted scalar (YAML's escapes, surrogate escapes excepted), or — for ``timestamp`` only — an
ISO date-time. For anything else :func:`read_simple` returns ``None`` and
the caller parses with PyYAML (:mod:`memlab.adapter.yaml_import`); a property test checks that whatever it
accepts, PyYAML reads the same (``tests/adapter/test_front_matter.py``). git-notes-memory writes this
subset, so the first session and volume reads rarely need PyYAML at all.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})?\Z")
#: Characters a plain scalar may not start with (YAML indicators), digits and signs (numbers) included.
_BAD_START = frozenset("-?:,[]{}#&*!|>'\"%@`~=<.+0123456789 \t")
#: Words YAML 1.1 reads as booleans or null (compared lower-cased).
_WORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})
#: Last characters that keep a plain scalar from reading as itself (a trailing blank, a mapping colon).
_BAD_END = frozenset(" :")
#: A ``key: value`` or ``key:`` line (the key, a word checked against :data:`_WORDS`, and the value) or a
#: ``- item`` line (the item); at most one match per line, so fewer matches than lines means a line is neither.
_ROW = re.compile(r"^(?:([A-Za-z_][A-Za-z0-9_]*):(?: |$)(.*)|- (.*))$", re.MULTILINE)


def _plain(value: str) -> str | None:
    """``value`` when YAML reads it as exactly this text (a safe one-line plain scalar), else ``None``.

    A printable string holds no tab, line break, byte-order mark or other blank than the ASCII space, so
    with its first character no indicator or blank it reads as itself unless it ends in a space or ``:``,
    holds ``: `` or `` #``, or is a boolean or null word.
    """
    if (
        not value
        or value[0] in _BAD_START
        or value[-1] in _BAD_END
        or not value.isprintable()
        or ": " in value
        or " #" in value
        or value.lower() in _WORDS
    ):
        return None
    return value


#: A double-quoted scalar's escapes (YAML 1.1); surrogates and code points past U+10FFFF are left to PyYAML.
_ESCAPE = re.compile(
    r"\\(x[0-9A-Fa-f]{2}|u(?![dD][89a-fA-F])[0-9A-Fa-f]{4}"
    r"|U(?!0000[dD][89a-fA-F])(?:000[0-9A-Fa-f]|0010)[0-9A-Fa-f]{4}|[0abtnvfre \"/\\N_LP])"
)
_ESCAPED = dict(zip('0abtnvfre "/\\N_LP', '\0\a\b\t\n\v\f\r\x1b "/\\\x85\xa0\u2028\u2029', strict=True))
#: Escapes YAML has and JSON has not.
_NOT_JSON = re.compile(r"\\[xU0ave N_LP]")


def _unescape(found: re.Match[str]) -> str:
    code = found.group(1)
    return _ESCAPED[code] if len(code) == 1 else chr(int(code[1:], 16))


def _scalar(value: str) -> str | None:
    """A safe plain scalar or a one-line single- or double-quoted scalar as text, else ``None``."""
    quote = value[:1]
    if quote in ("'", '"') and len(value) >= 2 and value[-1] == quote:
        inner = value[1:-1]
        escaped = quote == '"' and "\\" in inner
        bare = inner.replace("''", "") if quote == "'" else _ESCAPE.sub("", inner) if escaped else inner
        if quote in bare or ("\\" in bare and quote == '"') or not bare.isprintable() or inner != inner.strip(" "):
            return None
        if quote == "'" or not escaped:
            return inner.replace("''", "'") if quote == "'" else inner
        # JSON's escapes mean the same in YAML, and its decoder runs in C (a summary holds a dozen \uNNNN)
        return _ESCAPE.sub(_unescape, inner) if _NOT_JSON.search(inner) else json.loads(f'"{inner}"')
    return _plain(value)


def read_simple(text: str) -> dict[str, Any] | None:
    """The mapping of a flat front matter in the accepted subset, or ``None`` (then parse with PyYAML).

    Values are text, ``None`` (``key:`` with nothing after), lists of text (``- item`` lines) or, for
    ``timestamp``, a :class:`datetime` (naive when the text has no zone, as PyYAML returns it).
    """
    rows = _ROW.findall(text)  # every line in one call: a Python loop over lines cost more than parsing
    if len(rows) != text.count("\n") + 1:
        return None
    out: dict[str, Any] = {}
    items: list[str] | None = None  # the list a ``key:`` line opened, while ``- item`` lines follow it
    for key, rest, item in rows:
        if not key:
            value = None if items is None else _scalar(item)
            if value is None:
                return None
            items.append(value)
        elif key.lower() in _WORDS:
            return None
        elif not rest:
            items = out[key] = []
        else:
            items = None
            if key == "timestamp" and _ISO.match(rest):
                out[key] = datetime.fromisoformat(rest.replace("Z", "+00:00"))
            elif (value := _scalar(rest)) is None:
                return None
            else:
                out[key] = value
    if [] in out.values():  # ``key:`` with no item after it is null
        out = {k: None if v == [] else v for k, v in out.items()}
    return out
