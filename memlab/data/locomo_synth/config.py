"""The generator's knobs, validated once, with a stable key for caching generated files."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from memlab.core.errors import MemlabError
from memlab.data.locomo_synth.expressions import KINDS

#: Bump when the same knobs would produce different bytes.
GENERATOR_VERSION = 1


def default_mix() -> dict[str, float]:
    """Every expression kind with weight 1."""
    return dict.fromkeys(KINDS, 1.0)


@dataclass(frozen=True)
class SynthConfig:
    """Knobs of :func:`memlab.data.locomo_synth.generator.generate`.

    Attributes:
        seed: Random seed; the same seed and knobs give byte-identical files.
        n_conversations: Conversations (``sample_id`` ``synth-<seed>-<i>``).
        n_sessions: Sessions per conversation.
        turns_per_session: Turns in every session (at least 4).
        events_per_session: Dated events mentioned per session (each becomes a temporal question).
        distractor_rate: Probability that an event gets a distractor turn (a similar event at another
            date: the same speaker with a sibling variant, or the other speaker with the same one).
        expression_mix: Expression kind -> weight (kinds left out are never used).
        split_rate: Probability that a mention is split over a follow-up exchange: the event in one turn,
            the other speaker asking when, the time phrase in the answer (evidence = both turns).
        n_adversarial: Unanswerable questions (category 5) per conversation, at most.
        min_gap_days: Fewest days between consecutive sessions.
        max_gap_days: Most days between consecutive sessions.
    """

    seed: int = 0
    n_conversations: int = 5
    n_sessions: int = 10
    turns_per_session: int = 16
    events_per_session: int = 2
    distractor_rate: float = 0.5
    expression_mix: dict[str, float] = field(default_factory=default_mix)
    split_rate: float = 0.3
    n_adversarial: int = 3
    min_gap_days: int = 2
    max_gap_days: int = 21

    def __post_init__(self) -> None:
        checks = (
            (self.n_conversations >= 1, "n_conversations must be >= 1"),
            (self.n_sessions >= 1, "n_sessions must be >= 1"),
            (self.turns_per_session >= 4, "turns_per_session must be >= 4 (greeting, reply, a mention, a reaction)"),
            (self.events_per_session >= 0, "events_per_session must be >= 0"),
            (0.0 <= self.distractor_rate <= 1.0, "distractor_rate must be in [0, 1]"),
            (0.0 <= self.split_rate <= 1.0, "split_rate must be in [0, 1]"),
            (self.n_adversarial >= 0, "n_adversarial must be >= 0"),
            (1 <= self.min_gap_days <= self.max_gap_days, "need 1 <= min_gap_days <= max_gap_days"),
        )
        for ok, message in checks:
            if not ok:
                raise MemlabError(f"locomo_synth: {message}")
        unknown = sorted(set(self.expression_mix) - set(KINDS))
        if unknown:
            raise MemlabError(f"locomo_synth: unknown expression kinds {unknown}; valid: {', '.join(KINDS)}")
        weights = list(self.expression_mix.values())
        if any(not isinstance(w, int | float) or w < 0 for w in weights) or not any(w > 0 for w in weights):
            raise MemlabError("locomo_synth: expression_mix weights must be >= 0 with at least one > 0")

    @classmethod
    def from_mapping(cls, knobs: Mapping[str, Any]) -> SynthConfig:
        """Build from a mapping (config or CLI); unknown keys are an error naming the valid ones."""
        valid = set(cls.__dataclass_fields__)
        unknown = sorted(set(knobs) - valid)
        if unknown:
            raise MemlabError(f"locomo_synth: unknown knobs {unknown}; valid: {', '.join(sorted(valid))}")
        values = dict(knobs)
        if values.get("expression_mix") is None:
            values.pop("expression_mix", None)
        else:
            values["expression_mix"] = {str(k): float(v) for k, v in dict(values["expression_mix"]).items()}
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready knobs (mix sorted by kind) plus the generator version."""
        data = asdict(self)
        data["expression_mix"] = {k: float(self.expression_mix[k]) for k in sorted(self.expression_mix)}
        data["generator_version"] = GENERATOR_VERSION
        return data

    def key(self) -> str:
        """Short hash of the knobs and generator version (names the cached file)."""
        blob = json.dumps(self.as_dict(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:12]
