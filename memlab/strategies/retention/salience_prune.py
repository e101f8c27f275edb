"""Astra's memory pruner: decayed, unsalient, idle, unreferenced memories are archived."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, MemoryState, RetentionScore, Tier
from memlab.strategies.retention.base import RetentionBase
from memlab.strategies.retention.exponential import SEED_IMPORTANCE
from memlab.strategies.retention.tiers import tier_for

if TYPE_CHECKING:
    from memlab.strategies.retention.base import References

#: Default salience per namespace: the seed's importance rescaled from its range [0.5, 1] to [0, 1]
#: (decisions 1.0, learnings 0.8, patterns 0.7, retrospective 0.6, inception/blockers 0.4,
#: research/elicitation 0.2, progress/reviews/other 0.0).
DEFAULT_SALIENCE: Mapping[str, float] = {ns: round((w - 0.5) / 0.5, 6) for ns, w in SEED_IMPORTANCE.items()}
DEFAULT_DECAY_WEIGHTS: Mapping[str, float] = {"access": 0.3, "salience": 0.3, "entropy": 0.2, "time": 0.2}


class SaliencePruneRetention(RetentionBase):
    """Astra's Memory Pruner (Astra, "Memory Consolidation Layer Specification", and its
    ``MemoryDecayCalculator``).

    **Decay factor** (Astra's): ``decay = 0.3·access + 0.3·salience + 0.2·entropy + 0.2·time`` with
    ``access = min(1, ln(n + 1) / ln 10)`` (``n`` = recalls), ``time = 0.5^(age / 30 days)`` (age from
    creation), ``salience`` in [0, 1] and ``entropy`` = how unique the memory is.

    **Prune rule** (Astra's ``PRUNE_IF``): ``decay < 0.1`` and ``salience < 0.3`` and no access for 30
    days (the later of creation and last recall is at least ``idle_days`` before ``now``) and not
    referenced by a kept memory; ``salience > 0.5`` is always kept. Astra deletes a pruned memory unless
    it is part of a narrative (then archives it); memlab never deletes, so **pruned = ARCHIVED**.

    **Score**: a pruned memory scores its decay (< ``decay_threshold``) and is ARCHIVED; a kept one scores
    ``max(decay, decay_threshold)`` and gets the tier of the thresholds (at least COLD, since
    ``cold ≤ decay_threshold`` is required), so the tier is monotone in the score and the score never
    rises with age (every prune condition only becomes truer as ``now`` moves later).

    **What memlab supplies for Astra's inputs** (documented substitutions):

    * salience: Astra's emotional salience is ``|valence|``; coding memories carry none, so it is
      ``memory.meta[salience_key]`` when present (a number in [0, 1]), else the namespace's entry in
      ``salience`` (default :data:`DEFAULT_SALIENCE`, the seed importance rescaled to [0, 1];
      unknown namespaces use ``other``).
    * entropy: Astra uses ``1 − mean cosine similarity`` of the memory's embedding to all others; the
      retention protocol sees no embeddings, so :meth:`score_all` uses L2-normalised bag-of-words vectors
      (:func:`memlab.text.lexical.tokens`); :meth:`score` (one memory alone) uses ``default_entropy`` (Astra's
      initial 0.5). ``entropy: mean`` is that formula (``O(total tokens)`` through the sum vector); it cannot
      let a memory be pruned: the mean cosine of a note to all the others is small (MiniLM: 0.15 median on a
      generated project history, 0.27 on a LoCoMo conversation; less for bags of words), so the entropy term
      alone keeps the decay at 0.12 or more, above the 0.1 threshold. ``entropy: nearest`` (the Astra presets)
      reads "how unique the memory is" against its most similar other memory, ``1 − max cosine``: a
      restatement carries little information of its own and, old, unsalient and idle, can fall below 0.1.
    * references: :meth:`score_all` takes an optional ``references`` mapping (memory id → ids it
      references, e.g. the targets of REFERENCES/MERGES edges); a candidate referenced by a kept memory
      is kept, to a fixpoint. Without it no memory is kept for being referenced.

    Args:
        decay_weights: ``{access, salience, entropy, time}`` (Astra: 0.3/0.3/0.2/0.2).
        half_life_days: Half-life of the time factor (Astra: 30).
        decay_threshold: Prune below this decay (Astra: 0.1).
        prune_salience: Prune only below this salience (Astra: 0.3).
        keep_salience: Always keep above this salience (Astra: 0.5).
        idle_days: Days without access before pruning (Astra: 30).
        salience: Namespace → salience (``other`` is the fallback).
        salience_key: ``memory.meta`` key that overrides the namespace salience.
        default_entropy: Entropy when it cannot be computed (Astra's initial value 0.5).
        entropy: ``mean`` (``1 −`` mean cosine to all others) or ``nearest`` (``1 −`` the largest cosine).
        thresholds: ``{hot, warm, cold}`` tiers of kept memories (seed: 0.6/0.3/0.1).
    """

    name: ClassVar[str] = "salience_prune"
    version: ClassVar[int] = 1
    reads_references: ClassVar[bool] = True

    def __init__(
        self,
        decay_weights: Mapping[str, float] | None = None,
        half_life_days: float = 30.0,
        decay_threshold: float = 0.1,
        prune_salience: float = 0.3,
        keep_salience: float = 0.5,
        idle_days: float = 30.0,
        salience: Mapping[str, float] | None = None,
        salience_key: str = "salience",
        default_entropy: float = 0.5,
        thresholds: Mapping[str, float] | None = None,
        entropy: str = "mean",
    ) -> None:
        self.decay_weights = dict(decay_weights or DEFAULT_DECAY_WEIGHTS)
        self.half_life_days = half_life_days
        self.decay_threshold = decay_threshold
        self.prune_salience = prune_salience
        self.keep_salience = keep_salience
        self.idle_days = idle_days
        self.salience = dict(salience or DEFAULT_SALIENCE)
        self.salience_key = salience_key
        self.default_entropy = default_entropy
        self.entropy = entropy
        self.thresholds = dict(thresholds or {"hot": 0.6, "warm": 0.3, "cold": 0.1})

    def salience_of(self, memory: Memory) -> float:
        """``meta[salience_key]`` when it is a number, else the namespace's salience; clamped to [0, 1]."""
        raw: Any = memory.meta.get(self.salience_key) if memory.meta else None
        if isinstance(raw, int | float) and not isinstance(raw, bool) and math.isfinite(raw):
            value = float(raw)
        else:
            value = float(self.salience.get(memory.namespace, self.salience.get("other", 0.0)))
        return min(1.0, max(0.0, value))

    def decay(self, memory: Memory, state: MemoryState, now: datetime, entropy: float) -> tuple[float, ...]:
        """``(decay, access, salience, time)`` factors (Astra's weighted decay factor, clamped)."""
        w = self.decay_weights
        access = min(1.0, math.log(max(0, state.activation_count) + 1) / math.log(10))
        salience = self.salience_of(memory)
        age_days = max(0.0, (now - memory.timestamp).total_seconds() / 86400.0)
        time = 0.5 ** (age_days / self.half_life_days)
        value = (
            w.get("access", 0.0) * access
            + w.get("salience", 0.0) * salience
            + w.get("entropy", 0.0) * entropy
            + w.get("time", 0.0) * time
        )
        return min(1.0, max(0.0, value)), access, salience, time

    def idle(self, memory: Memory, state: MemoryState, now: datetime) -> bool:
        """No creation or recall in the last ``idle_days``."""
        last = max([memory.timestamp, *state.access_times, *([state.last_accessed] if state.last_accessed else [])])
        return (now - last).total_seconds() / 86400.0 >= self.idle_days

    def entropies(self, memories: Sequence[Memory]) -> list[float]:
        """``1 − mean`` (or ``1 − max``, ``entropy: nearest``) cosine of each memory's bag of words to the others'."""
        from memlab.text.lexical import tokens

        if len(memories) < 2:
            return [self.default_entropy] * len(memories)
        vectors: list[dict[str, float]] = []
        for memory in memories:
            counts = Counter(tokens(memory.text))
            norm = math.sqrt(sum(c * c for c in counts.values()))
            vectors.append({t: c / norm for t, c in counts.items()} if norm else {})
        sims = _nearest(vectors) if self.entropy == "nearest" else _mean(vectors)
        return [min(1.0, max(0.0, 1.0 - s)) if v else self.default_entropy for v, s in zip(vectors, sims, strict=True)]

    def _final(self, decay: float, access: float, salience: float, time: float, pruned: bool) -> RetentionScore:
        if pruned:
            return RetentionScore(decay, Tier.ARCHIVED, recency=time, activation=access, importance=salience)
        overall = max(decay, self.decay_threshold)
        t = self.thresholds
        tier = tier_for(overall, t["hot"], t["warm"], t["cold"])
        return RetentionScore(overall, tier, recency=time, activation=access, importance=salience)

    def _check(self) -> None:
        if self.entropy not in ("mean", "nearest"):
            raise MemlabError(f"unknown retention.entropy '{self.entropy}'; valid: mean, nearest")
        if self.thresholds["cold"] > self.decay_threshold:
            raise MemlabError(
                f"salience_prune needs thresholds.cold <= decay_threshold (got {self.thresholds['cold']} > "
                f"{self.decay_threshold}) so that kept memories never rank below pruned ones; "
                "lower retention.thresholds.cold"
            )

    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """Score one memory as if it were the only one (entropy ``default_entropy``, no references)."""
        return self.score_all([memory], [state], now)[0]

    def score_all(
        self, memories: Sequence[Memory], states: Sequence[MemoryState], now: datetime, *, references: References = None
    ) -> list[RetentionScore]:
        """Score every memory; a candidate referenced by a kept memory is kept (see the class docstring)."""
        self._check()
        entropies = self.entropies(memories)
        factors = [self.decay(m, s, now, e) for m, s, e in zip(memories, states, entropies, strict=True)]
        candidate = [
            f[0] < self.decay_threshold
            and f[2] < self.prune_salience
            and not f[2] > self.keep_salience
            and self.idle(m, s, now)
            for m, s, f in zip(memories, states, factors, strict=True)
        ]
        if references:
            index = {m.id: i for i, m in enumerate(memories)}
            queue = [m.id for m, c in zip(memories, candidate, strict=True) if not c]
            while queue:
                for target in references.get(queue.pop(), ()):
                    j = index.get(target)
                    if j is not None and candidate[j]:
                        candidate[j] = False
                        queue.append(target)
        return [self._final(*f, pruned=c) for f, c in zip(factors, candidate, strict=True)]


def _mean(vectors: Sequence[Mapping[str, float]]) -> list[float]:
    """Each unit vector's mean cosine to the others, in ``O(total tokens)`` through the sum vector."""
    total: Counter = Counter()
    for vec in vectors:
        total.update(vec)
    return [(sum(v * total[t] for t, v in vec.items()) - 1.0) / (len(vectors) - 1) for vec in vectors]


def _nearest(vectors: Sequence[Mapping[str, float]]) -> list[float]:
    """Each unit vector's largest cosine to another (sparse product)."""
    import numpy as np
    from scipy.sparse import csr_matrix

    vocab: dict[str, int] = {}
    cells = [(i, vocab.setdefault(t, len(vocab)), v) for i, vec in enumerate(vectors) for t, v in vec.items()]
    rows, cols, vals = zip(*cells, strict=True) if cells else ((), (), ())
    x = csr_matrix((vals, (rows, cols)), shape=(len(vectors), max(1, len(vocab))))
    sims = (x @ x.T).tolil()
    sims.setdiag(0.0)
    return [float(s) for s in np.asarray(sims.tocsr().max(axis=1).todense()).ravel()]
