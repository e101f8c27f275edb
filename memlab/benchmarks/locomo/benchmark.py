"""The ``dataset=locomo`` benchmark: load, ingest per conversation, retrieve, score recall and answers.

Metrics (see experiments/locomo_temporal/README.md): ``recall_at_{1,5,10,25}_{turn,session}`` over
categories 1–4 and per category (``_cat1``…``_cat5``); ``temporal_date_acc``, ``temporal_date_acc_datelike``,
``temporal_f1``, ``n_temporal``, ``n_temporal_datelike``; ``llm_f1*`` when ``llm_answer`` is on; quirk
counts as ``quirk_*``. With ``errata`` the plain names exclude the flagged questions and the same metrics
over every question carry the suffix ``_incl_flagged``; with ``heldout`` (conversation ids) the metrics
over those conversations alone carry the suffix ``_heldout`` (and ``_tune`` for the others).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from memlab.benchmarks.base import BenchmarkResult, DatasetCard
from memlab.benchmarks.locomo.aggregate import all_metrics
from memlab.benchmarks.locomo.answerer import AnswerConfig, answer_temporal
from memlab.benchmarks.locomo.dates import date_correct, parse_answer
from memlab.benchmarks.locomo.errata import load_errata
from memlab.benchmarks.locomo.ingest import ingest
from memlab.benchmarks.locomo.loader import CATEGORIES, load
from memlab.benchmarks.locomo.recall import KS, recall_row
from memlab.benchmarks.locomo.retrieval import RetrieverConfig, TurnRetriever
from memlab.benchmarks.locomo.scoring import answer_f1, token_f1
from memlab.components import Components
from memlab.errors import MemlabError

LICENCE = "CC BY-NC 4.0 (snap-research/locomo)"


class LocomoBenchmark:
    """LoCoMo evidence retrieval and temporal answering on any LoCoMo-format file.

    Args:
        path: The LoCoMo-format JSON file.
        errata: Optional audit file (``locomo_dev_audit_errors.json``); its questions are excluded from the
            plain metric names.
        retriever: ``RetrieverConfig`` fields (mode, context, rewrite, rrf_k, weights, neighbour_weight, prf).
        answer: ``AnswerConfig`` fields of the temporal answerer (top_n, expression_bonus, min_confidence).
        heldout: Conversation ids (``sample_id``) also reported alone (``_heldout``) and without (``_tune``).
        conversations: Restrict the run to these conversation ids (``None`` = all).
        llm_answer: Also answer every question with the DSPy answerer (needs an ``llm`` option).
        llm_context: Retrieved turns given to the LLM answerer.
        max_llm_questions: Cap on LLM-answered questions (``None`` = all).
        main_metric: Metric a sweep optimises.
    """

    name: ClassVar[str] = "locomo"
    version: ClassVar[int] = 1

    def __init__(
        self,
        path: str,
        errata: str | None = None,
        retriever: dict[str, Any] | None = None,
        answer: dict[str, Any] | None = None,
        heldout: Sequence[str] | None = None,
        conversations: Sequence[str] | None = None,
        llm_answer: bool = False,
        llm_context: int = 10,
        max_llm_questions: int | None = None,
        main_metric: str = "temporal_date_acc_datelike",
    ) -> None:
        self.path = path
        self.errata = errata
        self.retriever = dict(retriever or {})
        self.answer = dict(answer or {})
        self.heldout = list(heldout or [])
        self.conversations = list(conversations) if conversations else None
        self.llm_answer = llm_answer
        self.llm_context = llm_context
        self.max_llm_questions = max_llm_questions
        self.main_metric = main_metric

    def _answer_cfg(self) -> AnswerConfig:
        unknown = sorted(set(self.answer) - set(AnswerConfig.__dataclass_fields__))
        if unknown:
            raise MemlabError(
                f"unknown dataset.answer key(s) {unknown}; valid: {sorted(AnswerConfig.__dataclass_fields__)}"
            )
        return AnswerConfig(**self.answer)

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Evaluate ``components`` (embedder for dense retrieval, temporal resolver, llm) on the file."""
        data = load(self.path)
        rcfg = RetrieverConfig.from_mapping(self.retriever)
        acfg = self._answer_cfg()
        flagged = load_errata(self.errata) if self.errata else {}
        convs = [c for c in data.conversations if self.conversations is None or c.sample_id in self.conversations]
        if not convs:
            raise MemlabError(f"dataset.conversations={self.conversations} matches no conversation in {self.path}")
        llm = None
        if self.llm_answer:
            from memlab.benchmarks.locomo.llm_answer import LlmAnswerer

            llm = LlmAnswerer(components.llm, seed=seed)
        rows: list[dict[str, Any]] = []
        n_llm = 0
        for conv in convs:
            memories = ingest(conv)
            retriever = TurnRetriever(memories, components.embedder, rcfg)
            orders = retriever.rank_all([q.question for q in conv.questions])
            for q, order in zip(conv.questions, orders, strict=True):
                ranked = [memories[i] for i in order]
                dia = [str(m.meta["dia_id"]) for m in ranked]
                row: dict[str, Any] = {
                    "qid": q.qid,
                    "conversation": q.conversation,
                    "category": q.category,
                    "category_name": CATEGORIES[q.category],
                    "question": q.question,
                    "gold": q.answer,
                    "evidence": list(q.evidence),
                    "retrieved": dia[: max(KS)],
                    "recall": recall_row(dia, q.evidence),
                    "flagged": flagged.get(q.qid),
                    "now": conv.last_time.isoformat(),
                }
                if q.category == 2:
                    ans = answer_temporal(q.question, ranked, components.temporal, acfg)
                    pred = ans.text if ans else ""
                    row.update(
                        prediction=pred,
                        source=ans.source if ans else None,
                        expression=ans.expression if ans else None,
                        f1=token_f1(pred, q.answer),
                        date_correct=date_correct(pred, q.answer),
                        gold_datelike=parse_answer(q.answer) is not None,
                    )
                if llm is not None and (self.max_llm_questions is None or n_llm < self.max_llm_questions):
                    reply, malformed = llm.answer(q.question, ranked[: self.llm_context], conv.last_time)
                    row.update(
                        llm_prediction=reply, llm_malformed=malformed, llm_f1=answer_f1(reply, q.answer, q.category)
                    )
                    n_llm += 1
                rows.append(row)
        kept = [r for r in rows if not r["flagged"]]
        metrics = all_metrics(kept)
        if flagged:
            metrics.update({f"{k}_incl_flagged": v for k, v in all_metrics(rows).items()})
            metrics["n_errata_excluded"] = float(len(rows) - len(kept))
        if self.heldout:
            held = [r for r in kept if r["conversation"] in self.heldout]
            tune = [r for r in kept if r["conversation"] not in self.heldout]
            if held:
                metrics.update({f"{k}_heldout": v for k, v in all_metrics(held).items()})
            if tune:
                metrics.update({f"{k}_tune": v for k, v in all_metrics(tune).items()})
        metrics.update({f"quirk_{k}": float(v) for k, v in data.quirks.items()})
        card = DatasetCard("locomo", str(self.version), data.sha256, LICENCE, str(self.path), self.main_metric)
        info = {
            "categories": {str(k): v for k, v in CATEGORIES.items()},
            "quirks": data.quirks,
            "conversations": [c.sample_id for c in convs],
            "heldout": self.heldout,
            "n_turns": sum(len(c.turns) for c in convs),
            "errata": {"path": self.errata, "flagged": len(flagged), "excluded_questions": len(rows) - len(kept)},
            "retriever": rcfg.__dict__,
            "answer": acfg.__dict__,
            "clock": "each question's now = the time of its conversation's last session",
            "recall_definition": "fraction of evidence ids in the top k; no resolvable evidence counts as 1",
        }
        return BenchmarkResult(metrics, rows, card, info)
