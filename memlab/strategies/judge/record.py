"""Record judge: a logistic model over MiniLM similarities and their ranks among the earlier records.

Built for long-form decision records (architecture decision records) whose references to one another were
removed: the judge reads titles and decision texts, never links.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.model_file import ModelFileJudge

#: The shipped model (``memlab train record-judge`` rebuilds it; its card says how).
DEFAULT_MODEL: Path = Path(__file__).resolve().parents[2] / "models" / "judge" / "record_v1.json"


class RecordJudge(ModelFileJudge):
    """P(SUPERSEDE) from a logistic model over :mod:`~memlab.strategies.judge.record_features`.

    **Store context.** :meth:`observe` receives every memory the consolidation run sees; the judge embeds
    them once (title, decision text, both; MiniLM, cached by id) and reads each pair against the records
    recorded no later than the newer one (ranks, mutual best, word rarity), so a memory recorded after the
    newer never changes a verdict. A pair with a memory it has not observed is read against the observed
    memories plus the two.

    **Model.** A ``memlab.logistic/1`` JSON file with its card (:mod:`memlab.models.logistic`): trained by
    ``memlab train record-judge`` on the development repositories of the ADR corpus, threshold chosen by
    leave-one-repository-out. The card's SHA-256 (and ``model_sha256`` when given) must match.

    Verdict: SUPERSEDE when p reaches the threshold t, else COEXIST; confidence is how far p lies past t on the
    verdict's side (0.5 at t, 1 at p = 1 or p = 0), so ``pipeline.min_judge_confidence: 0.5`` keeps every
    verdict the threshold gives; the reason carries p.
    No MERGE: the development repositories hold 9 usable amendments, too few to fit or check a MERGE class
    (experiments/adr_decisions/README.md).
    A model that cannot be loaded is a :class:`~memlab.core.errors.MemlabError`; any failure on a pair is COEXIST.

    Args:
        model_path: Model file; ``None`` = the shipped model.
        model_sha256: The model file's expected SHA-256 (``None``: the card's alone).
        threshold: SUPERSEDE threshold on p (``None``: the card's, chosen by leave-one-repository-out).
        cache_dir: MiniLM's on-disk embedding cache (``None``: none).
        embedder: An embedder object to use instead of MiniLM (tests); ``None`` = MiniLM.
    """

    name: ClassVar[str] = "record"
    version: ClassVar[int] = 1
    observes: ClassVar[bool] = True
    judges_in_batch: ClassVar[bool] = True

    def __init__(
        self,
        model_path: str | None = None,
        model_sha256: str | None = None,
        threshold: float | None = None,
        cache_dir: str | None = None,
        embedder: Any = None,
    ) -> None:
        self.model_path = model_path
        self.model_sha256 = model_sha256
        self.threshold = threshold
        self.cache_dir = cache_dir
        self.embedder = embedder
        self.store_: Any = None
        self.embedder_: Any = None
        self.vectors_: dict[tuple[str, str], Any] = {}

    def shipped(self) -> Path:
        """The shipped model record_v1."""
        return DEFAULT_MODEL

    def read(self, path: Path) -> tuple[Any, dict[str, Any]]:
        """The model and card of ``path``, checked (:func:`memlab.models.logistic.load`), and the threshold.

        Raises:
            MemlabError: Missing or unreadable model or card, a SHA-256 mismatch, other features or version.
        """
        from memlab.models import logistic
        from memlab.strategies.judge.record_features import FEATURES, FEATURES_VERSION

        model, card = logistic.load(
            path, known=FEATURES, features_version=FEATURES_VERSION, expected_sha256=self.model_sha256
        )
        check_threshold(self.threshold if self.threshold is not None else card.get("threshold", -1.0))
        return model, card

    def _embed(self, texts: Sequence[str]) -> Any:
        """Embed texts, each distinct text once per judge (an in-memory cache over MiniLM's disk cache)."""
        if self.embedder_ is None:
            if self.embedder is not None:
                self.embedder_ = self.embedder
            else:
                from memlab.embed.minilm import MiniLMEmbedder

                self.embedder_ = MiniLMEmbedder(cache_dir=self.cache_dir)
        import numpy as np

        todo = [t for t in dict.fromkeys(texts) if ("t", t) not in self.vectors_]
        if todo:
            for text, vec in zip(todo, self.embedder_.encode(todo), strict=True):
                self.vectors_[("t", text)] = vec
        return np.stack([self.vectors_[("t", t)] for t in texts]) if texts else np.zeros((0, 1))

    def observe(self, memories: Sequence[Memory]) -> None:
        """Embed and index the records of the store about to be judged (replaces an earlier store)."""
        from memlab.strategies.judge.record_features import RecordStore

        self.store_ = RecordStore(list(memories), self._embed)

    def _store_for(self, older: Memory, newer: Memory) -> Any:
        store = self.store_
        if store is not None and older.id in store and newer.id in store:
            return store
        from memlab.strategies.judge.record_features import RecordStore

        known = list(store.memories) if store is not None else []
        self.store_ = RecordStore([*known, older, newer], self._embed)
        return self.store_

    def probability(self, older: Memory, newer: Memory) -> float:
        """P(SUPERSEDE) of the pair (raises on a failure; :meth:`judge` turns that into COEXIST)."""
        model, _ = self.load()
        from memlab.strategies.judge.record_features import FEATURES

        row = self._store_for(older, newer).features(older, newer)
        index = {name: k for k, name in enumerate(FEATURES)}
        return model.probability([row[index[name]] for name in model.features])

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Judge ``newer`` against ``older`` (``similarity`` is not used: the judge embeds the records itself)."""
        _, card = self.load()  # a model that cannot be loaded is an error, not a COEXIST verdict
        try:
            threshold = float(self.threshold if self.threshold is not None else card["threshold"])
            p = self.probability(older, newer)
        except Exception as exc:  # the contract: a failure on one pair is COEXIST
            return Verdict(Relation.COEXIST, 0.0, f"record judge failed: {type(exc).__name__}")
        if p != p:
            return Verdict(Relation.COEXIST, 0.0, "record judge failed: no probability")
        if p >= threshold:  # confidence: how far past the threshold (0.5 at it, 1 at p = 1)
            return Verdict(Relation.SUPERSEDE, 0.5 + 0.5 * (p - threshold) / (1.0 - threshold), f"record p={p:.2f}")
        return Verdict(Relation.COEXIST, 0.5 + 0.5 * (threshold - p) / threshold, f"record p={p:.2f}")

    def judge_many(self, pairs: Sequence[tuple[Memory, Memory, float | None]]) -> list[Verdict]:
        """:meth:`judge` of each pair, in order."""
        if pairs:
            self.load()
        return [self.judge(older, newer, sim) for older, newer, sim in pairs]


def check_threshold(value: float) -> float:
    """A threshold in (0, 1).

    Raises:
        MemlabError: It is not.
    """
    if not isinstance(value, int | float) or not 0.0 < float(value) < 1.0:
        raise MemlabError(f"record judge threshold must be in (0, 1), got {value}; set judge.threshold")
    return float(value)
