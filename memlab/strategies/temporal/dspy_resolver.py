"""An LLM temporal resolver through DSPy (``temporal=dspy``).

Signature: ``text`` + ``anchor`` (ISO 8601) -> ``expressions``: a JSON list of
``{"text", "start", "end", "grain"}`` objects (ISO datetimes, ``end`` exclusive). Each item is checked: the
text must occur in the input (its first occurrence after the previous item gives the span), both datetimes
must parse with ``start < end``, and the grain must be known; invalid items are dropped. An answer without
a JSON list is malformed: calls go through :class:`memlab.llm.client.LLMClient` (cache, accounting, retries
of malformed output), and a failure stops the run with one line (``llm.on_error=fail``, the default) or,
with ``llm.on_error=fallback``, gives the stand-in ``[]``, counted in ``llm_fallbacks``. The model comes from
the ``llm`` hyperparameter (``llm: ${llm}`` in the yaml); no accuracy is claimed from tests, which run
against a local stub server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import TemporalRef
from memlab.strategies.temporal.base import TemporalBase
from memlab.text.temporal.calendar import GRAINS

_JSON_LIST = re.compile(r"\[.*\]", re.DOTALL)


def json_list(raw: Any) -> list[Any]:
    """The model's ``expressions`` answer as a list (raises ``ValueError`` when it holds no JSON list)."""
    if isinstance(raw, list):
        return raw
    m = _JSON_LIST.search(raw) if isinstance(raw, str) else None
    if not m:
        raise ValueError("no JSON list in the answer")
    items = json.loads(m.group(0))
    if not isinstance(items, list):
        raise ValueError("the answer is not a JSON list")
    return items


def parse_expressions(raw: Any, text: str, anchor: datetime) -> list[TemporalRef]:
    """Validated references from the model's ``expressions`` output (a JSON string or a list)."""
    items = raw
    if isinstance(raw, str):
        m = _JSON_LIST.search(raw)
        if not m:
            return []
        try:
            items = json.loads(m.group(0))
        except json.JSONDecodeError:
            return []
    if not isinstance(items, list):
        return []
    out: list[TemporalRef] = []
    pos = 0
    for item in items:
        if not isinstance(item, Mapping):
            continue
        try:
            expr, grain = str(item["text"]), str(item.get("grain", "day")).lower()
            start, end = datetime.fromisoformat(str(item["start"])), datetime.fromisoformat(str(item["end"]))
        except (KeyError, ValueError, TypeError):
            continue
        if start.tzinfo is None:
            start, end = start.replace(tzinfo=anchor.tzinfo), end.replace(tzinfo=anchor.tzinfo)
        elif anchor.tzinfo is not None:
            start, end = start.astimezone(anchor.tzinfo), end.astimezone(anchor.tzinfo)
        else:
            start, end = start.replace(tzinfo=None), end.replace(tzinfo=None)
        i = text.find(expr, pos) if expr else -1
        if i < 0 or grain not in GRAINS or not start < end:
            continue
        pos = i + len(expr)
        out.append(TemporalRef(expr, (i, i + len(expr)), start, end, grain, 0.6))
    return out


class DSPyResolver(TemporalBase):
    """Temporal resolution by a language model (see the module docstring).

    Args:
        llm: The ``llm`` config mapping (model, api_base, ...).
        max_chars: Longer texts are cut to this many characters before prompting.
    """

    name: ClassVar[str] = "dspy"
    version: ClassVar[int] = 1

    def __init__(self, llm: Mapping[str, Any] | None = None, max_chars: int = 4000) -> None:
        self.llm = dict(llm or {})
        self.max_chars = max_chars
        self.program_: Any = None
        self.client_: Any = None

    def _load(self) -> None:
        if self.program_ is not None:
            return
        if not self.llm.get("model"):
            raise MemlabError(
                "temporal=dspy needs a language model; pick one with llm=<option> (see `memlab list llm`)"
            )
        import dspy

        from memlab.llm.client import LLMClient

        self.client_ = LLMClient(self.llm, "temporal", "temporal=dspy", "no expressions ([])")

        class ResolveTimes(dspy.Signature):
            """Find every temporal expression in the text and resolve it against the anchor time.
            Return a JSON list of objects {"text": exact substring, "start": ISO datetime, "end": ISO datetime
            (exclusive), "grain": second|minute|hour|day|week|month|season|quarter|year|decade}.
            """

            text: str = dspy.InputField()
            anchor: str = dspy.InputField(desc="ISO 8601 time the text was written")
            expressions: str = dspy.OutputField(desc="JSON list of {text, start, end, grain}")

        self.program_ = ResolveTimes

    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """Ask the model (see the module docstring for malformed output and failures)."""
        if not isinstance(text, str) or not text.strip() or not isinstance(anchor, datetime):
            return []
        self._load()
        text = text[: self.max_chars]

        def parse(outputs: Mapping[str, Any]) -> list[TemporalRef]:
            return parse_expressions(json_list(outputs.get("expressions")), text, anchor)

        refs = self.client_.ask(self.program_, {"text": text, "anchor": anchor.isoformat()}, parse)
        return [] if refs is None else refs
