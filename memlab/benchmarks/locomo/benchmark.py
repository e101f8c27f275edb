"""The ``dataset=locomo`` benchmark: each conversation an episode through the whole policy.

Turns arrive session by session as memories; the policy consolidates on its schedule (clusters,
summaries that cite their turns, supersession, tiers); every question is asked at the time of its
conversation's last session and answered from the context its selector chose under
``pipeline.budget_tokens``. Metrics (see experiments/locomo_temporal/README.md):

* the policy's view: ``evidence_recall_at_budget`` (fraction of a question's gold evidence turns inside
  the selected context, a summary counting as its source turns; undefined, and left out, for a question with
  no resolvable evidence) over
  categories 1–4 and per category ``_cat1``…``_cat5``; ``context_tokens`` (mean tokens of the context);
  ``temporal_date_acc``, ``temporal_date_acc_datelike``, ``temporal_f1``, ``n_temporal``,
  ``n_temporal_datelike`` of the temporal answerer, which reads only the context; ``llm_f1*`` when
  ``llm_answer`` is on; ``j_score``, ``answer_f1``, ``bleu1`` (and ``.cat<k>``) with ``llm_reader``;
* the retriever-only view: ``recall_at_{1,5,10,25}_{turn,session}`` — the policy's retriever ranking every
  turn of the conversation (no consolidation, no tiers, no budget), over categories 1–4 and per category;
* quirk counts as ``quirk_*``. With ``errata`` the plain names exclude the flagged questions and the same
  metrics over every question carry the suffix ``_incl_flagged``; with ``heldout`` (conversation ids) the
  metrics over those conversations alone carry the suffix ``_heldout`` (and ``_tune`` for the others).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks.base import POLICY, BenchmarkCard, BenchmarkResult, EpisodeBenchmark
from memlab.benchmarks.locomo.aggregate import all_metrics
from memlab.benchmarks.locomo.answerer import AnswerConfig, answer_temporal
from memlab.benchmarks.locomo.contexts import context_dia_ids, context_units, unit_record
from memlab.benchmarks.locomo.dates import date_correct, parse_answer
from memlab.benchmarks.locomo.errata import load_errata
from memlab.benchmarks.locomo.ingest import ingest
from memlab.benchmarks.locomo.loader import CATEGORIES, Conversation, LocomoData, Question, load
from memlab.benchmarks.locomo.reader_llm import locomo_reader, locomo_reader_metrics
from memlab.benchmarks.locomo.recall import KS, recall_at_k, recall_row
from memlab.benchmarks.locomo.scoring import answer_f1, token_f1
from memlab.benchmarks.metrics import latency_metrics
from memlab.core.errors import MemlabError
from memlab.core.types import Memory
from memlab.pipeline.astra import extras_metrics_all
from memlab.pipeline.context import QueryContext
from memlab.pipeline.episode import Episode, EpisodeOutcome, Query
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.units import is_summary
from memlab.pipeline.vectors import StoreEmbedder
from memlab.wiring.components import Components

LICENCE = "CC BY-NC 4.0 (snap-research/locomo)"
#: The groups a LoCoMo run exercises: the whole policy, and the temporal resolver of the answerer.
USES: tuple[str, ...] = (*POLICY, "temporal")


@dataclass(frozen=True)
class ConversationData:
    """One conversation's memories (time order) and questions."""

    conversation: Conversation
    memories: tuple[Memory, ...]

    def episode(self) -> Episode:
        """Turns in time order; every question asked at the last session's time."""
        at = self.conversation.last_time
        queries = tuple(Query(q.qid, q.question, at) for q in self.conversation.questions)
        return Episode(self.conversation.sample_id, self.memories, queries, end=at)


@dataclass(frozen=True)
class LocomoRunData:
    """The loaded file, the selected conversations and the errata."""

    data: LocomoData
    conversations: tuple[ConversationData, ...]
    flagged: dict[str, Any]

    @property
    def episodes(self) -> tuple[Episode, ...]:
        """One episode per conversation."""
        return tuple(c.episode() for c in self.conversations)

    def question(self, qid: str) -> Question:
        """A question by id."""
        return self._questions()[qid]

    def _questions(self) -> dict[str, Question]:
        return {q.qid: q for c in self.conversations for q in c.conversation.questions}


@dataclass(eq=False)
class LocomoBenchmark(EpisodeBenchmark):
    """LoCoMo evidence retrieval and temporal answering on any LoCoMo-format file.

    Args:
        path: The LoCoMo-format JSON file.
        errata: Optional audit file (``locomo_dev_audit_errors.json``); its questions are excluded from the
            plain metric names.
        answer: ``AnswerConfig`` fields of the temporal answerer (top_n, expression_bonus, min_confidence,
            month_bonus).
        heldout: Conversation ids (``sample_id``) also reported alone (``_heldout``) and without (``_tune``).
        conversations: Restrict the run to these conversation ids (``None`` = all).
        llm_answer: Also answer every question with the DSPy answerer from its context (needs an ``llm``).
        llm_context: Context units given to the LLM answerer.
        max_llm_questions: Cap on LLM-answered questions (``None`` = all).
        cv_grid: ``AnswerConfig`` field -> candidate values: leave-one-conversation-out choice of the
            answerer's settings on the cached contexts (:mod:`memlab.benchmarks.locomo.cv`), logged as ``cv_*``.
        llm_reader: The field's protocol (:mod:`memlab.benchmarks.locomo.reader_llm`): an LLM reader answers
            categories 1–4 from the selected context, scored by J, F1 and BLEU-1 (needs an ``llm``).
        llm_judge: Grade the reader's answers with the LLM judge (``j_score``).
        max_reader_questions: Cap on questions read (``None`` = all).
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "locomo",
        "1",
        LICENCE,
        "temporal_date_acc_datelike",
        USES,
        "LoCoMo conversations through the policy: evidence in the selected context, temporal answers from it",
        headline=(
            "evidence_recall_at_budget",
            "temporal_date_acc",
            "temporal_f1",
            "recall_at_10_turn",
            "context_tokens",
        ),
    )

    path: str
    errata: str | None = None
    answer: dict[str, Any] | None = None
    heldout: Sequence[str] | None = None
    conversations: Sequence[str] | None = None
    llm_answer: bool = False
    llm_context: int = 10
    max_llm_questions: int | None = None
    cv_grid: dict[str, Any] | None = None
    llm_reader: bool = False
    llm_judge: bool = True
    max_reader_questions: int | None = None

    def __post_init__(self) -> None:
        self.answer, self.cv_grid = dict(self.answer or {}), dict(self.cv_grid or {})
        self.heldout = list(self.heldout or [])
        self.conversations = list(self.conversations) if self.conversations else None

    def _answer_cfg(self) -> AnswerConfig:
        unknown = sorted(set(self.answer) - set(AnswerConfig.__dataclass_fields__))
        if unknown:
            raise MemlabError(
                f"unknown dataset.answer key(s) {unknown}; valid: {sorted(AnswerConfig.__dataclass_fields__)}"
            )
        return AnswerConfig(**self.answer)

    def check(self) -> None:
        """The data file and its options are usable (before the run starts)."""
        if not Path(self.path).is_file():
            raise MemlabError(
                f"LoCoMo file not found: {self.path}; put locomo_dev.json under ../shared/datasets/locomo/ "
                "or pass dataset.path=/abs/file.json"
            )
        self._answer_cfg()
        if self.cv_grid:
            from memlab.benchmarks.locomo.cv import check_grid

            check_grid(self.cv_grid)

    def load(self, seed: int) -> LocomoRunData:
        """Parse the file and select the conversations."""
        self.check()
        data = load(self.path)
        flagged = load_errata(self.errata) if self.errata else {}
        convs = [c for c in data.conversations if self.conversations is None or c.sample_id in self.conversations]
        if not convs:
            raise MemlabError(f"dataset.conversations={self.conversations} matches no conversation in {self.path}")
        return LocomoRunData(data, tuple(ConversationData(c, tuple(ingest(c))) for c in convs), flagged)

    def answerer(self, components: Components, data: LocomoRunData) -> Any:
        """Temporal answers (category 2) and, with ``llm_answer``, LLM answers, from the context only."""
        acfg = self._answer_cfg()
        llm = None
        if self.llm_answer:
            from memlab.benchmarks.locomo.llm_answer import LlmAnswerer

            llm = LlmAnswerer(components.llm, seed=0)
        counter = {"llm": 0}
        read = locomo_reader(self.llm_reader, self.llm_judge, self.max_reader_questions, components.llm)

        def answer(query: Query, context: QueryContext, store: MemoryStore) -> dict[str, Any]:
            q = data.question(query.id)
            units = context_units(context)
            row: dict[str, Any] = {"context": context_dia_ids(context, store), "context_tokens": context.tokens}
            row["context_summaries"] = sum(1 for u in units if is_summary(u))
            if q.category == 2:
                ans = answer_temporal(q.question, units, components.temporal, acfg)
                pred = ans.text if ans else ""
                row.update(
                    prediction=pred,
                    source=ans.source if ans else None,
                    expression=ans.expression if ans else None,
                    f1=token_f1(pred, q.answer),
                    date_correct=date_correct(pred, q.answer),
                    gold_datelike=parse_answer(q.answer) is not None,
                    context_units=[unit_record(u) for u in units],
                )
            if llm is not None and (self.max_llm_questions is None or counter["llm"] < self.max_llm_questions):
                reply, malformed = llm.answer(q.question, units[: self.llm_context], query.at)
                row.update(llm_prediction=reply, llm_malformed=malformed, llm_f1=answer_f1(reply, q.answer, q.category))
                row["llm_call"] = llm.last_  # calls, tokens, cache hit of this answer
                counter["llm"] += 1
            if read is not None:
                row.update(read(q, units))
            return row

        return answer

    def retriever_rankings(
        self, conv: ConversationData, outcome: EpisodeOutcome, components: Components
    ) -> list[list[str]]:
        """The retriever-only view: every turn ranked for each question (dialogue ids, best first)."""
        questions = [q.question for q in conv.conversation.questions]
        embedder = StoreEmbedder(outcome.store, components.embedder)
        rankings = components.retriever.rank_many(questions, conv.memories, conv.conversation.last_time, embedder)
        dia = {m.id: str(m.meta["dia_id"]) for m in conv.memories}
        return [[dia[i] for i, _ in ranking if i in dia] for ranking in rankings]

    def score(
        self, data: LocomoRunData, outcomes: Sequence[EpisodeOutcome], components: Components, seed: int
    ) -> BenchmarkResult:
        """Rows per question, then the metrics over them."""
        rows: list[dict[str, Any]] = []
        for conv, outcome in zip(data.conversations, outcomes, strict=True):
            rankings = self.retriever_rankings(conv, outcome, components)
            for q, ranked, asked in zip(conv.conversation.questions, rankings, outcome.queries, strict=True):
                row: dict[str, Any] = {
                    "qid": q.qid,
                    "conversation": q.conversation,
                    "category": q.category,
                    "category_name": CATEGORIES[q.category],
                    "question": q.question,
                    "gold": q.answer,
                    "evidence": list(q.evidence),
                    "retrieved": ranked[: max(KS)],
                    "recall": recall_row(ranked, q.evidence),
                    "flagged": data.flagged.get(q.qid),
                    "now": conv.conversation.last_time.isoformat(),
                    **asked.answer,
                }
                row["evidence_recall_at_budget"] = recall_at_k(row["context"], q.evidence, len(row["context"]))
                rows.append(row)
        kept = [r for r in rows if not r["flagged"]]
        metrics = all_metrics(kept, seed)
        if data.flagged:
            metrics.update({f"{k}_incl_flagged": v for k, v in all_metrics(rows, seed).items()})
            metrics["n_errata_excluded"] = float(len(rows) - len(kept))
        if self.heldout:
            held = [r for r in kept if r["conversation"] in self.heldout]
            tune = [r for r in kept if r["conversation"] not in self.heldout]
            if held:
                metrics.update({f"{k}_heldout": v for k, v in all_metrics(held, seed).items()})
            if tune:
                metrics.update({f"{k}_tune": v for k, v in all_metrics(tune, seed).items()})
        artifacts: dict[str, bytes] = {}
        if self.cv_grid and len({r["conversation"] for r in kept}) > 1:
            from memlab.benchmarks.locomo.cv import locomo_cv

            cv_metrics, report = locomo_cv(kept, components.temporal, self.cv_grid, self.answer, seed)
            metrics.update(cv_metrics)
            artifacts["loocv.json"] = (json.dumps(report, indent=1) + "\n").encode()
        metrics.update({f"quirk_{k}": float(v) for k, v in data.data.quirks.items()})
        metrics["n_consolidations"] = float(sum(len(o.runs) for o in outcomes))
        metrics.update(extras_metrics_all([o.store for o in outcomes]))  # Astra's extras, when they ran
        metrics.update(latency_metrics(o.seconds for o in outcomes))
        metrics.update(locomo_reader_metrics(kept, metrics, len(rows)))
        tiers: dict[str, int] = {}
        for outcome in outcomes:
            for state in outcome.store.states.values():
                tiers[state.tier.value] = tiers.get(state.tier.value, 0) + 1
        from memlab.benchmarks.metrics import tier_fractions

        metrics.update(tier_fractions(tiers))
        metrics["n_memories"] = float(sum(tiers.values()))
        card = self.card.data(data.data.sha256, str(self.path))  # locomo_synth replaces it with its own
        info = {
            "categories": {str(k): v for k, v in CATEGORIES.items()},
            "quirks": data.data.quirks,
            "conversations": [c.conversation.sample_id for c in data.conversations],
            "heldout": self.heldout,
            "n_turns": sum(len(c.memories) for c in data.conversations),
            "summaries": sum(len(o.store.summaries) for o in outcomes),
            "errata": {
                "path": self.errata,
                "flagged": len(data.flagged),
                "excluded_questions": len(rows) - len(kept),
            },
            "answer": self._answer_cfg().__dict__,
            "cv_grid": self.cv_grid,
            "clock": "each question is asked at the time of its conversation's last session",
            "recall_definition": "fraction of evidence ids in the top k; undefined (null, left out of the means) "
            "with no resolvable evidence",
            "evidence_recall_at_budget": "fraction of evidence turns in the selected context (summaries hold "
            "their source turns); undefined (null, left out of the means) with no resolvable evidence",
        }
        return BenchmarkResult(metrics, rows, card, info, tier_counts=tiers, artifacts=artifacts)
