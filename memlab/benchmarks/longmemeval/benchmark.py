"""``dataset=longmemeval``: each question's haystack as an episode, and evidence retrieval scores.

Per question, every turn (or every session, ``granularity: session``) becomes a memory stamped with its
session's date (``meta["session"]``: its session), and the question is asked at its date: one episode
through the whole policy (:mod:`memlab.pipeline.episode`). Metrics (hyphens in question types become
underscores):

* the retriever-only view, LongMemEval's own: the policy's retriever ranks every haystack memory (no
  consolidation, no tiers) and sessions rank by their best memory: ``lme_recall_at_{k}_session`` (mean
  fraction of evidence sessions in the top k), ``lme_recall_all_at_{k}_session`` (all of them in the top
  k), the same per question type as ``lme_recall_at_{k}_session_<type>``;
* the policy's view: ``evidence_recall_at_budget``, the fraction of evidence sessions with a memory in
  the selected context (a summary counts as its sources), and ``context_tokens``;
* with ``llm_reader``, the field's protocol (:mod:`memlab.benchmarks.qa_reader`): an LLM reads each question's
  selected context and answers, an LLM judge grades it: ``j_score``, ``answer_f1``, ``bleu1`` overall and per
  question type (``j_score.temporal_reasoning`` ...), each with ``n_``, and the reader's and judge's costs;
* ``n_questions``. Items without evidence sessions are skipped and counted; abstention items (``_abs``
  ids) are skipped too unless ``score_abstention`` (LongMemEval's own retrieval evaluation leaves them out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks.base import POLICY, BenchmarkCard, BenchmarkResult, EpisodeBenchmark
from memlab.benchmarks.longmemeval.load import read_file, read_hub
from memlab.benchmarks.longmemeval.schema import QUESTION_TYPES, Question, parse_all
from memlab.benchmarks.metrics import ci_metrics, defined, latency_metrics, mean
from memlab.benchmarks.qa_metrics import memory_side, reader_metrics
from memlab.benchmarks.qa_reader import QaReader
from memlab.core.errors import MemlabError
from memlab.core.types import Memory
from memlab.pipeline.episode import Episode
from memlab.pipeline.episode import Query as EpisodeQuery
from memlab.pipeline.vectors import StoreEmbedder
from memlab.wiring.components import Components


def session_recall(ranked: list[str], gold: set[str], k: int) -> tuple[float | None, float | None]:
    """(fraction of ``gold`` in the top ``k`` of ``ranked``, 1.0 if all of it is there); empty gold → undefined
    (``None``, ``None``).
    """
    if not gold:
        return None, None
    found = len(gold & set(ranked[:k]))
    return found / len(gold), float(found == len(gold))


def memories_of(question: Question, granularity: str) -> list[Memory]:
    """The haystack as memories: one per turn (``turn``) or per session (``session``)."""
    out = []
    for s_index, session in enumerate(question.sessions):
        meta = {"session_id": session.session_id, "session": s_index}
        if granularity == "session":
            text = "\n".join(f"{t.role}: {t.content}" for t in session.turns)
            out.append(Memory(f"s{s_index}", "dialogue", session.date, text, meta=meta))
            continue
        for t_index, turn in enumerate(session.turns):
            memory_id = f"s{s_index}t{t_index}"
            out.append(Memory(memory_id, "dialogue", session.date, f"{turn.role}: {turn.content}", meta=meta))
    return out


def sessions_in_order(ids: Sequence[str], memories: Mapping[str, Memory]) -> list[str]:
    """Session ids in the order ``ids`` (memory ids) first reach them."""
    ranked: list[str] = []
    for mid in ids:
        memory = memories.get(mid)
        sid = memory.meta["session_id"] if memory is not None else None
        if sid is not None and sid not in ranked:
            ranked.append(sid)
    return ranked


@dataclass(frozen=True)
class LmeData:
    """The scored questions, their episodes, checksum and source."""

    questions: tuple[Question, ...]
    haystacks: tuple[tuple[Memory, ...], ...]
    gold: tuple[frozenset[str], ...]
    sha: str
    source: str

    @property
    def episodes(self) -> tuple[Episode, ...]:
        """One episode per scored question (the question asked at its date)."""
        out = []
        for q, memories, gold in zip(self.questions, self.haystacks, self.gold, strict=True):
            if not gold:
                continue
            at = max([q.question_date, *(m.timestamp for m in memories)])
            out.append(Episode(q.question_id, memories, (EpisodeQuery(q.question_id, q.question, at),)))
        return tuple(out)


@dataclass(eq=False)
class LongMemEvalBenchmark(EpisodeBenchmark):
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
        score_abstention: Also score abstention items (``_abs`` question ids).
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "longmemeval",
        "1",
        "MIT (LongMemEval)",
        "lme_recall_at_5_session",
        POLICY,
        "LongMemEval haystacks: evidence sessions found by the retriever and kept in the selected context",
    )

    path: str | None = None
    hub_id: str | None = None
    hub_file: str | None = None
    split: str = "train"
    question_types: list[str] | None = None
    limit: int | None = None
    ks: tuple[int, ...] = (1, 5, 10)
    granularity: str = "turn"
    score_abstention: bool = False
    llm_reader: bool = False
    llm_judge: bool = True

    def __post_init__(self) -> None:
        self.question_types = list(self.question_types) if self.question_types else None
        self.ks = tuple(int(k) for k in self.ks)

    def read(self) -> tuple[list[Question], str, str]:
        """Parsed and filtered questions, the data's checksum and its source description."""
        self.check()
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

    def check(self) -> None:
        """The options are valid and a local file exists (the hub path fails at load, in one line)."""
        if self.granularity not in ("turn", "session"):
            raise MemlabError(f"longmemeval granularity '{self.granularity}' is not turn or session")
        if self.path and not Path(self.path).is_file():
            raise MemlabError(f"LongMemEval file not found: {self.path}; pass dataset.path=/abs/longmemeval_s.json")

    def load(self, seed: int) -> LmeData:
        """Questions, their haystacks as memories, and the evidence sessions that are scored."""
        questions, sha, source = self.read()
        haystacks = tuple(tuple(memories_of(q, self.granularity)) for q in questions)
        gold = tuple(
            frozenset(q.answer_session_ids) if self.score_abstention or not q.abstention else frozenset()
            for q in questions
        )
        return LmeData(tuple(questions), haystacks, gold, sha, source)

    def answerer(self, components: Components, data: LmeData) -> Any:
        """With ``llm_reader``: the LLM reader's answer (and verdict) from the selected context; else ``None``."""
        if not self.llm_reader:
            return None
        qa = QaReader(components.llm, judge=self.llm_judge)
        by_id = {q.question_id: q for q in data.questions}

        def answer(query: EpisodeQuery, context: Any, store: Any) -> dict[str, Any]:
            q = by_id[query.id]
            return qa.read(q.question, q.answer, [item.unit for item in context.items])

        return answer

    def score(self, data: LmeData, outcomes: Sequence[Any], components: Components, seed: int) -> BenchmarkResult:
        """Retriever-only session recall@k and the context's evidence recall per question."""
        by_question = {o.episode.id: o for o in outcomes}
        predictions: list[dict[str, Any]] = []
        for q, memories, gold in zip(data.questions, data.haystacks, data.gold, strict=True):
            row: dict[str, Any] = {"question_id": q.question_id, "question_type": q.question_type}
            outcome = by_question.get(q.question_id)
            ranked: list[str] = []
            context: list[str] = []
            tokens = 0
            if gold and outcome is not None:
                at = outcome.episode.queries[0].at
                pool = sorted(memories, key=lambda m: (m.timestamp, m.id))
                embedder = StoreEmbedder(outcome.store, components.embedder)
                ranking = components.retriever.rank(q.question, pool, at, embedder)
                by_id = {m.id: m for m in memories}
                ranked = sessions_in_order([i for i, _ in ranking], by_id)
                ctx = outcome.queries[0].context
                context = sessions_in_order(ctx.memory_ids(), by_id)
                tokens = ctx.tokens
                row |= outcome.queries[0].answer
            row |= {"evidence": sorted(gold), "ranked_sessions": ranked[: max(self.ks)], "scored": bool(gold)}
            row |= {"context_sessions": context, "context_tokens": tokens}
            row["evidence_recall_at_budget"] = len(gold & set(context)) / len(gold) if gold else None
            for k in self.ks:
                row[f"recall_at_{k}"], row[f"recall_all_at_{k}"] = session_recall(ranked, set(gold), k)
            predictions.append(row)
        metrics = aggregate(predictions, self.ks)
        metrics.update(latency_metrics(o.seconds for o in outcomes))
        if reader := reader_metrics(predictions, lambda p: p["question_type"].replace("-", "_")):
            metrics.update(reader | memory_side(metrics, len(outcomes)))
        counts = Counter(q.question_type for q in data.questions)
        info = {
            "question_types": dict(sorted(counts.items())),
            "n_not_scored": sum(not p["scored"] for p in predictions),
            "n_abstention": sum(q.abstention for q in data.questions),
            "granularity": self.granularity,
        }
        return BenchmarkResult(metrics, predictions, self.card.data(data.sha, data.source), info)


def aggregate(predictions: list[dict[str, Any]], ks: tuple[int, ...]) -> dict[str, float]:
    """Mean recall over scored items (count ``n_scored``), overall and per question type (count
    ``n_scored_<type>``), plus ``n_questions``; a mean over no scored item is absent. The overall recall at each
    k carries its 95% bootstrap interval over the scored items (``_ci_low`` / ``_ci_high``).
    """
    scored = [p for p in predictions if p["scored"]]
    metrics: dict[str, float | None] = {"n_questions": float(len(predictions)), "n_scored": float(len(scored))}
    metrics["evidence_recall_at_budget"] = mean(p["evidence_recall_at_budget"] for p in scored)
    metrics["context_tokens"] = mean(p["context_tokens"] for p in scored)
    types = sorted({p["question_type"] for p in scored})
    for t in types:
        metrics[f"n_scored_{t.replace('-', '_')}"] = float(sum(1 for p in scored if p["question_type"] == t))
    for k in ks:
        metrics[f"lme_recall_at_{k}_session"] = mean(p[f"recall_at_{k}"] for p in scored)
        values = [p[f"recall_at_{k}"] for p in scored if p[f"recall_at_{k}"] is not None]
        metrics.update(ci_metrics(f"lme_recall_at_{k}_session", values))
        metrics[f"lme_recall_all_at_{k}_session"] = mean(p[f"recall_all_at_{k}"] for p in scored)
        for t in types:
            suffix = t.replace("-", "_")
            metrics[f"lme_recall_at_{k}_session_{suffix}"] = mean(
                p[f"recall_at_{k}"] for p in scored if p["question_type"] == t
            )
    return defined(metrics)
