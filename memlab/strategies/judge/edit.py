"""Edit judge: is the newer fact an edit of the older one (a changed value, a rewording), or a fact beside it?

Built for memory files (CLAUDE.md, AGENTS.md, memory banks) whose lines people and agents edit in place, learned
from their histories: a logistic model over :mod:`~memlab.strategies.judge.edit_features` (overlap, position and
time, no phrasing), trained by ``memlab train edit-judge`` on the development repositories of the memory-files
corpus with labels read from the histories themselves (a removed fact and its kept successor: 1; two facts that
stood side by side in the file: 0), threshold chosen by leave-one-repository-out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation, Verdict
from memlab.strategies.judge.edit_features import FEATURES, FEATURES_VERSION, EditContext, is_value, tokens
from memlab.strategies.judge.model_file import ModelFileJudge
from memlab.text.lexical import STOPWORDS

#: The shipped model (``memlab train edit-judge`` rebuilds it; its card says how).
DEFAULT_MODEL: Path = Path(__file__).resolve().parents[2] / "models" / "judge" / "edit_v1.json"
CARD_FORMAT = "memlab.edit_judge/1"
#: Words whose change is a change of state, not of wording (a status moves, an instruction flips).
STATE_WORDS = frozenset(
    ("done", "complete", "completed", "finished", "todo", "pending", "blocked", "wip", "started", "planned",
     "deprecated", "removed", "obsolete", "enabled", "disabled", "required", "optional", "must",
     "not", "never", "no", "don't", "doesn't", "avoid")
)  # fmt: skip
_CODE = re.compile(r"`([^`]+)`")
_NAME = re.compile(r"(?<=[a-z0-9,;:)] )[A-Z][\w.+#-]*")


def changed_values(older: str, newer: str) -> list[str]:
    """The tokens in one text only that name a value: a version, path, flag or dotted name, a word inside a code
    span, a capitalised name inside a sentence (a tool), or a state word (status, negation); stop words never.
    """
    a, b = tokens(older), tokens(newer)
    diff = {t for t in set(a) ^ set(b) if t not in STOPWORDS or t in STATE_WORDS}
    code = {t for text in (older, newer) for span in _CODE.findall(text) for t in tokens(span)}
    names = {t for text in (older, newer) for name in _NAME.findall(text) for t in tokens(name)}
    return sorted(t for t in diff if is_value(t) or t in code or t in names or t in STATE_WORDS)


def edit_relation(older: str, newer: str) -> Relation:
    """SUPERSEDE when the edit changes a value (:func:`changed_values`), else DUPLICATE (the fact reworded)."""
    return Relation.SUPERSEDE if changed_values(older, newer) else Relation.DUPLICATE


class EditJudge(ModelFileJudge):
    """P(the newer fact replaces the older) from a logistic model over edit features; the kind of replacement
    from what changed.

    **Store context.** :meth:`observe` receives every memory the consolidation run sees; the rank features read
    the memories recorded no later than the newer one (:class:`~.edit_features.EditContext`), so a memory
    recorded after the newer never changes a verdict. A store that does not contain the previous one (another
    episode) starts a new context.

    **Model.** A ``memlab.logistic/1`` JSON file with its card (``memlab.edit_judge/1``, read by
    :mod:`memlab.models.logistic`): features, features version, training repositories, threshold and how it was
    chosen, the leave-one-repository-out figures, the command. The card's SHA-256 (and ``model_sha256`` when given)
    must match.

    Verdict: p at or past the threshold t is a replacement — SUPERSEDE when a value changed (a version, path,
    command, tool, status: :func:`edit_relation`), DUPLICATE when only the wording did — with confidence 0.5 at t
    rising to 1 at p = 1; below t COEXIST (confidence 0.5 at t, 1 at p = 0). The hand check of the data found no
    automatic way to tell a changed value from a rewording; both hide the older fact, and the benchmark scores
    them alike. Any failure on a pair is COEXIST; a model that cannot be loaded is a :class:`MemlabError`.

    Args:
        model_path: Model file; ``None`` = the shipped model.
        model_sha256: The model file's expected SHA-256 (``None``: the card's alone).
        threshold: Replacement threshold on p (``None``: the card's, chosen by leave-one-repository-out).
    """

    name: ClassVar[str] = "edit"
    version: ClassVar[int] = 1
    observes: ClassVar[bool] = True

    def __init__(self, model_path: str | None = None, model_sha256: str | None = None, threshold: float | None = None):
        self.model_path = model_path
        self.model_sha256 = model_sha256
        self.threshold = threshold
        self.context_: EditContext | None = None

    def shipped(self) -> Path:
        """The shipped model edit_v1."""
        return DEFAULT_MODEL

    def read(self, path: Path) -> tuple[Any, dict[str, Any]]:
        """The model and card of ``path``, checked (:func:`memlab.models.logistic.load`)."""
        from memlab.models import logistic

        return logistic.load(path, known=FEATURES, features_version=FEATURES_VERSION,
            expected_sha256=self.model_sha256, card_format=CARD_FORMAT, what="edit judge",
            fix="train one with `memlab train edit-judge --out FILE`")  # fmt: skip

    @property
    def cut(self) -> float:
        """The replacement threshold in use."""
        card = self.load()[1]
        return float(self.threshold if self.threshold is not None else card["threshold"])

    def observe(self, memories: Sequence[Memory]) -> None:
        """Take in the store's memories (a store without the previous one starts a new context)."""
        if self.context_ is None or not set(self.context_.sets) <= {m.id for m in memories}:
            self.context_ = EditContext(memories)
        else:
            self.context_.add(memories)

    def probability(self, older: Memory, newer: Memory, similarity: float | None = None) -> float:
        """P(replacement) of the pair."""
        model = self.load()[0]
        if self.context_ is None:
            self.context_ = EditContext([older, newer])
        row = dict(zip(FEATURES, self.context_.features(older, newer, similarity), strict=True))
        return float(model.probability([row[f] for f in model.features]))

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """A replacement (SUPERSEDE or DUPLICATE) at p ≥ the threshold, else COEXIST (see the class docstring)."""
        t = self.cut
        try:
            p = self.probability(older, newer, similarity)
        except MemlabError:
            raise
        except Exception as exc:  # a pair the features cannot read: coexist, as the contract says
            return Verdict(Relation.COEXIST, 0.5, f"edit features failed ({type(exc).__name__})")
        if p >= t:
            relation = edit_relation(older.text, newer.text)
            return Verdict(relation, 0.5 + 0.5 * (p - t) / max(1e-9, 1 - t), f"edit p={p:.3f}")
        return Verdict(Relation.COEXIST, 0.5 + 0.5 * (t - p) / max(1e-9, t), f"edit p={p:.3f}")
