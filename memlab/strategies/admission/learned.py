"""Learned admission: a logistic model over the form of a captured record (:mod:`.features`), shipped as JSON."""

from __future__ import annotations

from pathlib import Path

from memlab.core.errors import MemlabError
from memlab.strategies.admission.base import Admission, AdmissionBase
from memlab.strategies.admission.features import FEATURES, FEATURES_VERSION, StoreForm, features, store_form

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any, ClassVar

    from memlab.core.types import Memory

#: The shipped model (``memlab train admission`` rebuilds it; its card says from which labels and how).
DEFAULT_MODEL: Path = Path(__file__).resolve().parents[2] / "models" / "admission" / "admission_v1.json"
CARD_FORMAT = "memlab.admission/1"


class LearnedAdmission(AdmissionBase):
    """Keeps a record when a logistic model over its form gives it a probability of being a memory of at least
    ``threshold``.

    **What it reads.** Only the form of the record (:mod:`.features`: lengths, a summary that starts or ends cut,
    whether it ends a sentence, markup, code and table density, headings, pronouns, the capture's own tags), never
    its words, so that what it learned on one store carries to another. **Model.** A ``memlab.logistic/1`` JSON
    file with its card (``<name>.card.json``, ``memlab.admission/1``: SHA-256, features and their version, the
    threshold and how it was chosen, the labels it was fitted on, leave-one-namespace-out figures, the command
    that rebuilds it); read as plain JSON (no pickle) and only when its SHA-256 matches the card and, when given,
    ``model_sha256`` (a hook spec pins it). The default is the shipped model, fitted on the developers' labels of
    the real git-notes-memory notes (datasets/gitnotes_labels/), never on the sealed namespaces.

    A record the features cannot be computed for is kept (reason says so): a parsing error never loses a memory.

    Args:
        model_path: Model file (``None``: the shipped model).
        model_sha256: The model file's SHA-256 the caller expects (``None``: the card's alone).
        threshold: Probability from which a record is kept (``None``: the card's, chosen when fitting).
    """

    name: ClassVar[str] = "learned"
    version: ClassVar[int] = 2
    reads_store: ClassVar[bool] = True  # lengths are read against the store's own (features.store_form)

    def __init__(
        self, model_path: str | None = None, model_sha256: str | None = None, threshold: float | None = None
    ) -> None:
        self.model_path = model_path
        self.model_sha256 = model_sha256
        self.threshold = threshold
        self.model_: Any = None
        self.threshold_: float = 0.5
        self.path_: Path | None = None

    @property
    def artifact_path(self) -> str | None:
        """The model file in use (after the first verdict), to log as a run artifact."""
        return str(self.path_) if self.path_ is not None else None

    def load(self) -> tuple[Any, dict[str, Any]]:
        """Load the model through its card (cached after the first call).

        Raises:
            MemlabError: Missing or unreadable model or card, a SHA-256 mismatch, other features or version, a
                threshold outside [0, 1].
        """
        from memlab.models import logistic

        path = Path(self.model_path).expanduser() if self.model_path else DEFAULT_MODEL
        model, card = logistic.load(
            path,
            known=FEATURES,
            features_version=FEATURES_VERSION,
            expected_sha256=self.model_sha256,
            card_format=CARD_FORMAT,
            what="admission",
            fix="train one with `memlab train admission --out FILE`",
        )
        threshold = self.threshold if self.threshold is not None else card.get("threshold")
        if not isinstance(threshold, int | float) or not 0.0 <= threshold <= 1.0:
            raise MemlabError(f"admission threshold must be in [0, 1], got {threshold!r}; fix admission.threshold")
        self.model_, self.threshold_, self.path_ = model, float(threshold), path
        return model, card

    def probability(self, memory: Memory, form: StoreForm | None = None) -> float:
        """The model's probability that ``memory`` is a memory worth injecting, in a store of ``form``."""
        if self.model_ is None:
            self.load()
        row = dict(zip(FEATURES, features(memory, form), strict=True))
        return self.model_.probability([row[name] for name in self.model_.features])

    def admit(self, memory: Memory, store: Mapping[str, Memory], form: StoreForm | None = None) -> Admission:
        """Keep when :meth:`probability` reaches the threshold; keep a record whose features fail.

        ``form``: the store's, when the caller has it (else read from ``store``; an empty store reads none).
        """
        try:
            p = self.probability(memory, form or store_form(store.values()))
        except MemlabError:
            raise
        except Exception as exc:  # a record the features cannot read stays admitted
            return Admission(True, f"features failed ({type(exc).__name__}): kept", 0.0)
        keep = p >= self.threshold_
        return Admission(keep, f"p(memory)={p:.3f} {'>=' if keep else '<'} {self.threshold_:.3f}", p if keep else 1 - p)

    def admit_all(self, memories: Sequence[Memory], store: Mapping[str, Memory]) -> list[Admission]:
        """:meth:`admit` of each memory (the model loads and the store's form is read once)."""
        if self.model_ is None:
            self.load()
        form = store_form(store.values())
        return [self.admit(m, store, form) for m in memories]
