"""``dataset=longmemeval``: ingest each question's haystack as memories and score evidence retrieval.

Per question, every turn (or every session, ``granularity: session``) becomes a memory stamped with its
session's date; the store is searched with :func:`memlab.pipeline.recall.recall` at the question's date
(exhaustive mode unless ``consolidate: true``, which runs the configured consolidation first and recalls
in the configured mode). Sessions are ranked by their best memory. Metrics (hyphens in question types
become underscores): ``lme_recall_at_{k}_session`` (mean fraction of evidence sessions in the top k),
``lme_recall_all_at_{k}_session`` (all of them in the top k), the same per question type as
``lme_recall_at_{k}_session_<type>``, and ``n_questions``. Items without evidence sessions are skipped
and counted; abstention items (``_abs`` ids) are skipped too unless ``score_abstention`` (LongMemEval's
own retrieval evaluation leaves them out).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from memlab.benchmarks.base import BenchmarkResult, DatasetCard
from memlab.benchmarks.longmemeval.load import read_file, read_hub
from memlab.benchmarks.longmemeval.schema import QUESTION_TYPES, Question, parse_all
from memlab.benchmarks.metrics import mean
from memlab.components import Components
from memlab.errors import MemlabError
from memlab.types import Memory


def session_recall(ranked: list[str], gold: set[str], k: int) -> tuple[float, float]:
    """(fraction of ``gold`` in the top ``k`` of ``ranked``, 1.0 if all of it is there); empty gold → (0, 0)."""
    if not gold:
        return 0.0, 0.0
    found = len(gold & set(ranked[:k]))
    return found / len(gold), float(found == len(gold))


def memories_of(question: Question, granularity: str) -> list[Memory]:
    """The haystack as memories: one per turn (``turn``) or per session (``session``)."""
    out = []
    for s_index, session in enumerate(question.sessions):
        meta = {"session_id": session.session_id}
        if granularity == "session":
            text = "\n".join(f"{t.role}: {t.content}" for t in session.turns)
            out.append(Memory(f"s{s_index}", "dialogue", session.date, text, meta=meta))
            continue
        for t_index, turn in enumerate(session.turns):
            memory_id = f"s{s_index}t{t_index}"
            out.append(Memory(memory_id, "dialogue", session.date, f"{turn.role}: {turn.content}", meta=meta))
    return out


def rank_sessions(question: Question, components: Components, granularity: str, consolidate: bool) -> list[str]:
    """Session ids best first (a session ranks by its best memory; ties by first appearance)."""
    from memlab.pipeline.recall import recall
    from memlab.pipeline.store import MemoryStore

    memories = memories_of(question, granularity)
    now = max([question.question_date, *(m.timestamp for m in memories)])
    store = MemoryStore(memories)
    mode = "exhaustive"
    if consolidate:
        from memlab.pipeline.consolidate import consolidate as run_consolidation

        run_consolidation(store, components, now)
        mode = components.settings.recall_mode
    hits = recall(store, components, question.question, now, mode=mode, limit=len(memories), track=False)
    ranked: list[str] = []
    for hit in hits:
        sid = hit.memory.meta["session_id"]
        if sid not in ranked:
            ranked.append(sid)
    return ranked


class LongMemEvalBenchmark:
    """LongMemEval evidence retrieval.

    Args:
        path: Local JSON file in LongMemEval's format (wins over ``hub_id``).
        hub_id: Hugging Face dataset id, used when ``path`` is empty (needs network or a cached copy).
        hub_file: File inside the hub dataset (``longmemeval_s_cleaned.json``).
        split: Split name for the hub loader.
        question_types: Types to keep (``None`` keeps all).
        limit: Keep at most this many questions (after filtering), in file order.
        ks: Cut-offs for recall@k.
        granularity: ``turn`` or ``session`` memories.
        consolidate: Run consolidation before recall (and recall in the configured mode).
        score_abstention: Also score abstention items (``_abs`` question ids).
    """

    name: ClassVar[str] = "longmemeval"
    version: ClassVar[int] = 1

    def __init__(
        self,
        path: str | None = None,
        hub_id: str | None = None,
        hub_file: str | None = None,
        split: str = "train",
        question_types: list[str] | None = None,
        limit: int | None = None,
        ks: tuple[int, ...] = (1, 5, 10),
        granularity: str = "turn",
        consolidate: bool = False,
        score_abstention: bool = False,
    ) -> None:
        self.path = path
        self.hub_id = hub_id
        self.hub_file = hub_file
        self.split = split
        self.question_types = list(question_types) if question_types else None
        self.limit = limit
        self.ks = tuple(int(k) for k in ks)
        self.granularity = granularity
        self.consolidate = consolidate
        self.score_abstention = score_abstention

    def load(self) -> tuple[list[Question], str, str]:
        """Parsed and filtered questions, the data's checksum and its source description."""
        if self.granularity not in ("turn", "session"):
            raise MemlabError(f"longmemeval granularity '{self.granularity}' is not turn or session")
        unknown = sorted(set(self.question_types or ()) - set(QUESTION_TYPES))
        if unknown:
            raise MemlabError(f"unknown LongMemEval question types {unknown}; valid: {', '.join(QUESTION_TYPES)}")
        if self.path:
            records, sha = read_file(self.path)
            source = str(self.path)
        elif self.hub_id:
            records, sha = read_hub(self.hub_id, self.hub_file, self.split)
            source = f"hf:{self.hub_id}/{self.hub_file or ''}"
        else:
            raise MemlabError("longmemeval needs dataset.path=<file> or dataset.hub_id=<id>")
        questions = parse_all(records)
        if self.question_types:
            questions = [q for q in questions if q.question_type in self.question_types]
        if self.limit is not None:
            questions = questions[: self.limit]
        return questions, sha, source

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Rank each question's haystack sessions and score evidence recall."""
        questions, sha, source = self.load()
        predictions: list[dict[str, Any]] = []
        for q in questions:
            gold = set(q.answer_session_ids) if self.score_abstention or not q.abstention else set()
            ranked = rank_sessions(q, components, self.granularity, self.consolidate) if gold else []
            row: dict[str, Any] = {"question_id": q.question_id, "question_type": q.question_type}
            row |= {"evidence": sorted(gold), "ranked_sessions": ranked[: max(self.ks)], "scored": bool(gold)}
            for k in self.ks:
                row[f"recall_at_{k}"], row[f"recall_all_at_{k}"] = session_recall(ranked, gold, k)
            predictions.append(row)
        metrics = aggregate(predictions, self.ks)
        counts = Counter(q.question_type for q in questions)
        info = {
            "question_types": dict(sorted(counts.items())),
            "n_not_scored": sum(not p["scored"] for p in predictions),
            "n_abstention": sum(q.abstention for q in questions),
            "granularity": self.granularity,
            "consolidate": self.consolidate,
        }
        card = DatasetCard(
            "longmemeval", str(self.version), sha, "MIT (LongMemEval)", source, "lme_recall_at_5_session"
        )
        return BenchmarkResult(metrics, predictions, card, info)


def aggregate(predictions: list[dict[str, Any]], ks: tuple[int, ...]) -> dict[str, float]:
    """Mean recall over scored items, overall and per question type, plus ``n_questions``."""
    scored = [p for p in predictions if p["scored"]]
    metrics: dict[str, float] = {"n_questions": float(len(predictions)), "n_scored": float(len(scored))}
    types = sorted({p["question_type"] for p in scored})
    for k in ks:
        metrics[f"lme_recall_at_{k}_session"] = mean(p[f"recall_at_{k}"] for p in scored)
        metrics[f"lme_recall_all_at_{k}_session"] = mean(p[f"recall_all_at_{k}"] for p in scored)
        for t in types:
            suffix = t.replace("-", "_")
            metrics[f"lme_recall_at_{k}_session_{suffix}"] = mean(
                p[f"recall_at_{k}"] for p in scored if p["question_type"] == t
            )
    return metrics
