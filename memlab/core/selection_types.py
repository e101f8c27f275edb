"""The value types of the SessionStart selection: :class:`Tier`, :class:`InjectionCandidate` and
:class:`SelectionContext` (with :data:`TIER_ORDER`).

They are part of :mod:`memlab.core.types`, which re-exports them (import them from there); they live in this
small module so that the SessionStart hook, which needs only them, does not create the other value types
on every session start.

They are :class:`FrozenValue` classes rather than ``@dataclass(frozen=True)``: the ``dataclasses`` module
imports :mod:`inspect` (and with it ``ast``, ``dis`` and ``tokenize``), about a fifth of the CPU time of a
cold SessionStart process, and a frozen dataclass's ``__init__`` is slow for the thousands of candidates
the hook reads from its cache. :class:`FrozenValue` gives what the dataclasses gave: field-wise ``==`` and
hash, the same ``repr``, assignment refused (``AttributeError``), positional and keyword arguments with the
same defaults, plus :meth:`FrozenValue.replace` and :meth:`FrozenValue.as_dict` for ``dataclasses.replace`` and
``dataclasses.asdict``.
"""

from __future__ import annotations

import enum
from datetime import datetime

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Self


class Tier(enum.StrEnum):
    """Retrieval tier of a memory, from a retention score.

    HOT and WARM are searched by default, COLD only in deep recall, ARCHIVED only in exhaustive recall.
    """

    HOT = "hot"
    WARM = "warm"
    COLD = "cold"
    ARCHIVED = "archived"


#: Token budget of the SessionStart block when a config or spec sets none (``pipeline.budget_tokens``).
DEFAULT_BUDGET_TOKENS = 2000

#: Tiers in order from most to least retrievable.
TIER_ORDER: tuple[Tier, ...] = (Tier.HOT, Tier.WARM, Tier.COLD, Tier.ARCHIVED)


class FrozenValue:
    """Base of an immutable value class: a subclass lists its fields in ``_fields`` and sets them in its
    ``__init__`` through ``self.__dict__`` (assignment is refused once built).
    """

    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.__match_args__ = cls._fields

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def _values(self) -> tuple[Any, ...]:
        values = self.__dict__
        return tuple([values[name] for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self._values(), strict=True))
        return f"{self.__class__.__qualname__}({inner})"

    def as_dict(self) -> dict[str, Any]:
        """Field -> value, in field order (``dataclasses.asdict`` for fields that hold no value object)."""
        return dict(zip(self._fields, self._values(), strict=True))

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (field -> value), like ``dataclasses.replace``.

        Raises:
            TypeError: A name in ``changes`` is not a field.
        """
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{self.__class__.__name__} has no field {sorted(unknown)[0]!r}")
        return self.__class__(**{**self.as_dict(), **changes})


class InjectionCandidate(FrozenValue):
    """Something the SessionStart selector may put into the injected block.

    Attributes:
        id: Memory or summary id.
        kind: ``summary`` or ``memory``.
        namespace: Namespace (summaries: the dominant one).
        text: The text that would be rendered.
        timestamp: Latest time the item speaks for.
        relevance: Similarity to the session context in [0, 1].
        recency: Recency factor in [0, 1].
        activation: Activation factor in [0, 1].
        confidence: Confidence in [0, 1].
        tier: The item's tier.
    """

    _fields = ("id", "kind", "namespace", "text", "timestamp")
    _fields += ("relevance", "recency", "activation", "confidence", "tier")
    id: str
    kind: str
    namespace: str
    text: str
    timestamp: datetime
    relevance: float
    recency: float
    activation: float
    confidence: float
    tier: Tier

    def __init__(
        self,
        id: str,
        kind: str,
        namespace: str,
        text: str,
        timestamp: datetime,
        relevance: float = 0.0,
        recency: float = 0.0,
        activation: float = 0.0,
        confidence: float = 1.0,
        tier: Tier = Tier.WARM,
    ) -> None:
        self.__dict__.update(
            id=id,
            kind=kind,
            namespace=namespace,
            text=text,
            timestamp=timestamp,
            relevance=relevance,
            recency=recency,
            activation=activation,
            confidence=confidence,
            tier=tier,
        )


class SelectionContext(FrozenValue):
    """What the selector knows about the session it selects for.

    Attributes:
        now: The session's time (benchmark clock).
        query: Optional text describing the session (project name, branch, recent files).
        chars_per_token: Token estimate divisor (the seed uses 4).
    """

    _fields = ("now", "query", "chars_per_token")
    now: datetime
    query: str | None
    chars_per_token: int

    def __init__(self, now: datetime, query: str | None = None, chars_per_token: int = 4) -> None:
        self.__dict__.update(now=now, query=query, chars_per_token=chars_per_token)
