"""Learned judge: gradient-boosted trees over pair features, trained on seeds disjoint from evaluation.

It loads a shipped or given model and never trains one (``memlab train judge`` does).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.model_file import ModelFileJudge

#: The folder of the shipped models (each with its card; ``memlab train judge`` rebuilds them, the card says how).
SHIPPED: Path = Path(__file__).resolve().parents[2] / "models" / "judge"
#: The shipped model a learned judge reads by default.
DEFAULT_MODEL: Path = SHIPPED / "learned_v10.json"


class LearnedJudge(ModelFileJudge):
    """Histogram gradient-boosted trees over the features of :mod:`~memlab.strategies.judge.pair_features`
    (cosine hint, lexical overlaps, change/scope/subject cues, namespace match, time gap, value-token
    differences, the attribute words each note names, the slot judge's verdict, how close the two notes'
    attribute phrases and values are in the store's own slot profiles, and whether the values only one of
    them names are alternatives the store's notes name together).

    **Store context.** :meth:`observe` receives every memory of the store before the pairs are judged (the
    pipeline calls it); the judge builds :class:`~.slot_profiles.SlotProfiles` from them, so that synonyms
    of one slot ("message broker", "event bus") are recognised from how the store's notes use them. Without
    a call to :meth:`observe` the profile features are "unknown" (-1), a reading the model was not trained
    on; the training pairs get profiles from their whole history, as the pipeline does.

    **Seed rule.** Models are trained on histories with seeds >= 1000 (default 1000–1019, 1030–1059 and
    1070–1169; 1020–1029 and 1060–1069 are kept for validation) and evaluated on seeds < 1000. The model's
    card records its training seeds; when ``eval_seed`` (the conf passes the run's ``${seed}``) is one of them
    the judge refuses to run (``on_seed_overlap: refuse``, a one-line :class:`~memlab.core.errors.MemlabError`
    at first use) or warns loudly (``warn``).

    **Model file.** The judge only loads a model; it never trains one. ``model`` names a model shipped in the
    package (default ``learned_v10``: ``memlab/models/judge/learned_v10.json`` with its card
    ``learned_v10.card.json``: training seeds, features, SHA-256, the command that rebuilds it: ``memlab train
    judge``; ``learned_v11`` is the cross-family model, ``judge=learned_v11``). ``model_path`` names another model
    file instead; either way the file is read as JSON trees (:mod:`memlab.models.trees`, no pickle),
    and only when its SHA-256 matches its card and, when given, ``model_sha256`` (a hook spec pins it).
    :attr:`artifact_path` names the file used, for logging it as a run artifact.

    **Tentative supersession.** With ``supersede_threshold`` set, a pair whose SUPERSEDE probability reaches
    it without being the most probable class is answered SUPERSEDE with that probability as confidence
    (necessarily below 0.5). With ``pipeline.min_judge_confidence`` above such confidences the verdict
    creates no edge but a review-queue record, and the SessionStart candidates of the older memory carry
    the lowered confidence (:func:`memlab.pipeline.inject.candidates`): a selector with ``min_confidence``
    then keeps the contested fact out of the block while the store keeps it valid. Why: the block is read
    as current truth, so an injected stale fact costs more than an omitted current one, which stays
    retrievable (experiments/judges/README.md, "Model v8").

    Model v10 is model v8 retrained, with the same seeds and settings, on the features of version 2 (the
    change reading that reads a passive replacement the right way round, and more change constructions;
    :data:`~.pair_features.FEATURES_VERSION`); v8 and v9 cannot read those features and were removed
    (experiments/project_history/README.md, "Reading change constructions: models v10 and v11").

    Configuration errors (missing file, seed overlap, a model whose features do not match) raise
    :class:`~memlab.core.errors.MemlabError` on first use; a failure on one pair gives COEXIST (confidence 0).
    Confidence is the predicted class probability.

    Args:
        model_path: A ``memlab.trees/1`` model file with its card beside it; ``None`` = the shipped ``model``.
        model_sha256: The model file's SHA-256 the caller expects (``None``: the card's alone).
        eval_seed: Seed(s) of the evaluation data, checked against the training seeds.
        on_seed_overlap: ``refuse`` or ``warn``.
        supersede_threshold: SUPERSEDE probability from which a pair is answered SUPERSEDE even when
            another class is more probable (``None``: the most probable class only).
        model: The shipped model read when ``model_path`` is ``None`` (a file name in ``memlab/models/judge``,
            without ``.json``).
    """

    name: ClassVar[str] = "learned"
    version: ClassVar[int] = 8
    observes: ClassVar[bool] = True
    judges_in_batch: ClassVar[bool] = True

    def __init__(
        self,
        model_path: str | None = None,
        model_sha256: str | None = None,
        eval_seed: int | Sequence[int] | None = None,
        on_seed_overlap: str = "refuse",
        supersede_threshold: float | None = None,
        model: str = DEFAULT_MODEL.stem,
    ) -> None:
        self.model = model
        self.model_path = model_path
        self.model_sha256 = model_sha256
        self.eval_seed = eval_seed
        self.on_seed_overlap = on_seed_overlap
        self.supersede_threshold = supersede_threshold
        self.profiles_: Any = None

    def observe(self, memories: Sequence[Memory]) -> None:
        """Build the slot profiles of the store about to be judged (replaces those of an earlier store)."""
        from memlab.strategies.judge.slot_profiles import SlotProfiles

        self.profiles_ = SlotProfiles.from_memories(memories)

    def set_eval_seed(self, seed: int | None) -> None:
        """Check the seed rule against ``seed`` from the next judgement on (the model is loaded again)."""
        self.eval_seed = seed
        self.model_ = None

    def shipped(self) -> Path:
        """The shipped model ``model`` names."""
        path = SHIPPED / f"{self.model}.json"
        if path.parent != SHIPPED or not path.name.startswith("learned_"):
            shipped = ", ".join(sorted(p.stem for p in SHIPPED.glob("learned_v*[0-9].json")))
            raise MemlabError(f"learned judge model '{self.model}' is not shipped with memlab; pick one of {shipped}")
        return path

    def read(self, path: Path) -> tuple[Any, dict[str, Any]]:
        """The trees and card of ``path``, checked (:func:`memlab.models.trees.load_model`), and the seed rule.

        Raises:
            MemlabError: Missing or unreadable model file or card, a SHA-256 that does not match, other
                features, or training seeds that overlap the evaluation seed (``on_seed_overlap: refuse``).
        """
        from memlab.models.trees import load_model
        from memlab.strategies.judge.pair_features import FEATURES, FEATURES_VERSION

        model, card = load_model(
            path, features=FEATURES, features_version=FEATURES_VERSION, expected_sha256=self.model_sha256
        )
        self._check_seeds(card, path)
        return model, card

    def _check_seeds(self, card: dict[str, Any], path: Path) -> None:
        if self.eval_seed is None:
            return
        evals = {int(self.eval_seed)} if isinstance(self.eval_seed, int | str) else {int(s) for s in self.eval_seed}
        overlap = sorted(evals & {int(s) for s in card.get("train_seeds", [])})
        if not overlap:
            return
        message = (
            f"learned judge {path} was trained on evaluation seed(s) {overlap}; evaluate on seeds < 1000 "
            "or use a model trained on disjoint seeds"
        )
        if self.on_seed_overlap == "warn":
            warnings.warn("RESULTS ARE CONTAMINATED: " + message, stacklevel=2)
        else:
            raise MemlabError(message)

    def probabilities(self, older: Memory, newer: Memory, similarity: float | None = None) -> dict[str, float]:
        """The classifier's probability of each relation (by its value, e.g. ``"SUPERSEDE"``) for the pair.

        Raises:
            MemlabError: The model cannot be loaded (:meth:`load`). A failure on the pair's features raises
                as it is (:meth:`judge` turns it into COEXIST).
        """
        model, _ = self.load()
        from memlab.strategies.judge.pair_features import pair_features

        proba = model.predict_proba([pair_features(older, newer, similarity, self.profiles_)])[0]
        return {str(c): float(p) for c, p in zip(model.classes_, proba, strict=True)}

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Judge ``newer`` against ``older`` with the classifier."""
        self.load()  # a model that cannot be loaded is an error, not a COEXIST verdict
        try:
            proba = self.probabilities(older, newer, similarity)
            return verdict_from_proba(list(proba.values()), list(proba), self.supersede_threshold)
        except Exception as exc:  # the contract: a failure on one pair is COEXIST
            return Verdict(Relation.COEXIST, 0.0, f"learned judge failed: {type(exc).__name__}")

    def judge_many(self, pairs: Sequence[tuple[Memory, Memory, float | None]]) -> list[Verdict]:
        """:meth:`judge` of each ``(older, newer, similarity)``, the classifier run once on all their rows.

        A pair whose features fail gets COEXIST (confidence 0), as in :meth:`judge`; if the batch prediction
        fails, each pair is judged alone.
        """
        if not pairs:
            return []
        model, _ = self.load()
        from memlab.strategies.judge.pair_features import pair_features

        rows, ok, out = [], [], []
        for older, newer, similarity in pairs:
            try:
                rows.append(pair_features(older, newer, similarity, self.profiles_))
                ok.append(True)
            except Exception as exc:  # the contract: a failure on one pair is COEXIST
                ok.append(False)
                out.append(Verdict(Relation.COEXIST, 0.0, f"learned judge failed: {type(exc).__name__}"))
        try:
            proba = model.predict_proba(rows) if rows else []
        except Exception:
            return [self.judge(o, n, s) for o, n, s in pairs]
        verdicts = iter(verdict_from_proba(p, model.classes_, self.supersede_threshold) for p in proba)
        failed = iter(out)
        return [next(verdicts) if good else next(failed) for good in ok]


def verdict_from_proba(
    proba: Sequence[float], classes: Sequence[Any], supersede_threshold: float | None = None
) -> Verdict:
    """The verdict for class probabilities: the most probable class (ties: the earlier class), or a tentative
    SUPERSEDE with confidence P(SUPERSEDE) when that reaches ``supersede_threshold`` (see
    :class:`LearnedJudge`).
    """
    names = [str(c) for c in classes]
    best = max(range(len(proba)), key=lambda i: (proba[i], -i))
    sup = names.index(Relation.SUPERSEDE.value) if Relation.SUPERSEDE.value in names else None
    if supersede_threshold is not None and sup is not None and sup != best and proba[sup] >= supersede_threshold:
        p = float(proba[sup])
        return Verdict(Relation.SUPERSEDE, p, f"learned p={p:.2f} tentative ({names[best]} p={proba[best]:.2f})")
    return Verdict(Relation(names[best]), float(min(1.0, max(0.0, proba[best]))), f"learned p={proba[best]:.2f}")
