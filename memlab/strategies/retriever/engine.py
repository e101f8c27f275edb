"""The ranking engine behind the ``retriever`` options: BM25, dense (the run's embedder), hybrid (RRF).

It ranks the units (memories, and summaries as units) the pipeline hands it for a query; the options
below are the hyperparameters of :mod:`~.bm25`, :mod:`~.dense` and :mod:`~.hybrid` (``retriever.*``).
Features that read a unit's neighbours or session use ``meta["session"]``, ``meta["speaker"]`` and
``meta["text"]`` where a unit has them (LoCoMo turns do) and are neutral otherwise.

- ``mode``: ``bm25``, ``dense`` or ``hybrid`` (reciprocal rank fusion of the two, ``1/(rrf_k + rank)``).
- ``context``: text indexed per turn (``plain`` = turn + caption; ``speaker`` = ``Speaker: turn``;
  ``speaker_date`` adds the session date).
- ``rewrite``: drop question words and possessives from the query before BM25 and embedding.
- ``neighbour_weight``: a turn also earns this fraction of its best same-session neighbour's fused score
  (answers often sit in the reply to the turn that matches the question).
- ``session_weight``: adds this multiple of the turn's session's fused score, where sessions are ranked
  the same way over their concatenated turns (BM25) and mean turn vectors (dense) — session context.
- ``speaker_weight``: adds ``speaker_weight / (rrf_k + 1)`` to turns spoken by a speaker the question
  names (questions are mostly about what the named person said or did).
- ``drop_names``: remove the speakers' names from the BM25 query (they match every short greeting such as
  "Hey Gina!"; ``speaker_weight`` carries who is asked about instead).
- ``bm25_k1`` / ``bm25_b``: BM25 parameters.
- ``bm25_window``: the BM25 document of a turn also holds the text of the previous ``bm25_window`` turns of
  its session (the question a reply answers).
- ``prf_docs`` / ``prf_weight``: pseudo-relevance feedback for multi-hop questions — the top ``prf_docs``
  turns of the first pass are embedded/appended to the query and the second pass is fused with weight
  ``prf_weight`` (0 disables it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import ClassVar

import numpy as np

from memlab.core.errors import MemlabError
from memlab.core.types import Memory
from memlab.embed.base import EmbedderBase
from memlab.strategies.retriever.base import RetrieverBase
from memlab.strategies.retriever.topk import BANK_MIN_UNITS, VectorBank, top_order
from memlab.text.lexical import rewrite_query, tokens

MODES = ("bm25", "dense", "hybrid")
#: ``context`` option -> how a unit becomes index text.
CONTEXTS = ("plain", "speaker", "speaker_date")


def index_text(memory: Memory, context: str) -> str:
    """Text indexed for ``memory`` under the ``context`` option (``plain``: the raw turn and its caption;
    ``speaker``: the memory's text; ``speaker_date``: the text after its day, month and year).
    """
    if context == "plain":
        text = str(memory.meta.get("text", memory.text))
        caption = memory.meta.get("caption")
        return f"{text} {caption}" if caption else text
    if context == "speaker":
        return memory.text
    if context == "speaker_date":
        return f"{memory.timestamp.day} {memory.timestamp:%B %Y}. {memory.text}"
    raise ValueError(f"unknown context {context!r}; valid: {', '.join(CONTEXTS)}")


@dataclass(eq=False)
class EngineOptions:
    """The engine's hyperparameters (see the module docstring), written once: the options' and the config's."""

    context: str = "speaker"
    rewrite: bool = True
    rrf_k: int = 60
    bm25_weight: float = 1.0
    dense_weight: float = 1.0
    neighbour_weight: float = 0.0
    prf_docs: int = 0
    prf_weight: float = 0.0
    session_weight: float = 0.0
    speaker_weight: float = 0.0
    drop_names: bool = False
    bm25_window: int = 0
    bm25_k1: float = 1.5
    bm25_b: float = 0.75


@dataclass
class RetrieverConfig(EngineOptions):
    """Settings of :class:`TurnRetriever`: the hyperparameters and the ``mode``, checked."""

    mode: str = "hybrid"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise MemlabError(f"unknown retriever mode {self.mode!r}; valid: {', '.join(MODES)}")
        if self.context not in CONTEXTS:
            raise MemlabError(f"unknown retriever.context {self.context!r}; valid: {', '.join(CONTEXTS)}")


def single_list(cfg: RetrieverConfig) -> bool:
    """Whether the final score is the rank fusion of one score list alone (``dense`` or ``bm25`` without the
    session, speaker, neighbour and feedback terms): then the order is that list's and the fused score of the
    unit at rank ``r`` is ``1 / (rrf_k + r)``, so the best few need no full sort.
    """
    return (
        cfg.mode in ("dense", "bm25")
        and cfg.session_weight <= 0
        and cfg.speaker_weight <= 0
        and cfg.neighbour_weight <= 0
        and not (cfg.prf_docs > 0 and cfg.prf_weight > 0)
    )


def session_key(memory: Memory) -> str:
    """The unit's session (``meta["session"]``); a unit without one is a session of its own."""
    session = memory.meta.get("session")
    return f"s:{session}" if session is not None else f"u:{memory.id}"


def rrf(rankings: Sequence[tuple[np.ndarray, float]], n: int, k: int) -> np.ndarray:
    """Reciprocal rank fusion: ``sum_w w / (k + rank)`` per item (rank from 1) over weighted score vectors."""
    fused = np.zeros(n, dtype=np.float64)
    for scores, weight in rankings:
        if weight == 0:
            continue
        order = np.lexsort((np.arange(n), -scores))
        ranks = np.empty(n, dtype=np.float64)
        ranks[order] = np.arange(1, n + 1)
        fused += weight / (k + ranks)
    return fused


class TurnRetriever:
    """Ranks a fixed list of units (one conversation's turns, a store's eligible memories) for queries.

    Args:
        memories: The units in time order (ties by id).
        embedder: Embedder for ``dense``/``hybrid`` (unused by ``bm25``).
        config: Options.
    """

    def __init__(self, memories: Sequence[Memory], embedder: EmbedderBase | None, config: RetrieverConfig) -> None:
        self.memories = list(memories)
        self.config = config
        self.embedder = embedder
        texts = [index_text(m, config.context) for m in self.memories]
        self.bm25_ = None
        self.vectors_: np.ndarray | None = None
        if config.mode in ("bm25", "hybrid"):
            from rank_bm25 import BM25Okapi

            docs = [tokens(t) for t in texts]
            if config.bm25_window > 0:
                raw = [tokens(str(m.meta.get("text", ""))) for m in self.memories]
                sess = [session_key(m) for m in self.memories]
                for i in range(len(docs)):
                    for j in range(max(0, i - config.bm25_window), i):
                        if sess[j] == sess[i]:
                            docs[i] = docs[i] + raw[j]
            self.bm25_ = BM25Okapi([d or ["_"] for d in docs], k1=config.bm25_k1, b=config.bm25_b)
        if config.mode in ("dense", "hybrid"):
            if embedder is None:
                raise MemlabError("dense retrieval needs an embedder; set embedder=minilm or retriever.mode=bm25")
            self.vectors_ = np.asarray(embedder.encode(texts), dtype=np.float32)
        sessions = [session_key(m) for m in self.memories]
        self.session_ids_ = sorted(set(sessions))
        pos = {sid: j for j, sid in enumerate(self.session_ids_)}
        self.turn_session_ = np.array([pos[x] for x in sessions], dtype=np.int64)
        self.speakers_ = [str(m.meta.get("speaker", "")) for m in self.memories]
        self.names_ = {t for sp in set(self.speakers_) for t in tokens(sp)}
        self.session_bm25_ = None
        self.session_vectors_: np.ndarray | None = None
        if config.session_weight > 0:
            docs = [[] for _ in self.session_ids_]
            for i, t in enumerate(texts):
                docs[self.turn_session_[i]].extend(tokens(t))
            if self.bm25_ is not None:
                from rank_bm25 import BM25Okapi

                self.session_bm25_ = BM25Okapi([d or ["_"] for d in docs], k1=config.bm25_k1, b=config.bm25_b)
            if self.vectors_ is not None:
                sv = np.zeros((len(docs), self.vectors_.shape[1]), dtype=np.float32)
                np.add.at(sv, self.turn_session_, self.vectors_)
                sv /= np.maximum(np.linalg.norm(sv, axis=1, keepdims=True), 1e-9)
                self.session_vectors_ = sv
        self.prev_ = np.array([i - 1 if i > 0 and sessions[i - 1] == sessions[i] else i for i in range(len(texts))])
        self.next_ = np.array(
            [i + 1 if i + 1 < len(texts) and sessions[i + 1] == sessions[i] else i for i in range(len(texts))]
        )

    def _encode(self, queries: Sequence[str]) -> np.ndarray | None:
        if self.vectors_ is None or not queries:
            return None
        return np.asarray(self.embedder.encode(list(queries)), dtype=np.float32)

    @property
    def single_list(self) -> bool:
        """:func:`single_list` of this engine's config."""
        return single_list(self.config)

    def top(self, questions: Sequence[str], limit: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """For each question, the best ``limit`` indices and their final scores; the same as the first ``limit``
        of :meth:`scores_all` in order, without sorting every unit when :attr:`single_list` holds.
        """
        cfg = self.config
        queries = [rewrite_query(q) if cfg.rewrite else q for q in questions]
        if not self.single_list:
            out = []
            for scores in self.scores_all(questions):
                order = top_order(scores, limit)
                out.append((order, scores[order]))
            return out
        qvecs = self._encode(queries)
        out = []
        for j, query in enumerate(queries):
            if self.bm25_ is not None:
                qtokens = tokens(query)
                if cfg.drop_names:
                    qtokens = [t for t in qtokens if t not in self.names_]
                raw = np.asarray(self.bm25_.get_scores(qtokens or ["_"]), dtype=np.float64)
            else:
                raw = self.vectors_ @ qvecs[j]
            order = top_order(raw, limit)
            out.append((order, 1.0 / (cfg.rrf_k + np.arange(1, len(order) + 1, dtype=np.float64))))
        return out

    def _fused(self, queries: Sequence[str]) -> list[np.ndarray]:
        """First-pass fused scores for each query (dense queries encoded in one batch)."""
        cfg = self.config
        qvecs = self._encode(queries)
        out = []
        for j, query in enumerate(queries):
            qtokens = tokens(query)
            if cfg.drop_names:
                qtokens = [t for t in qtokens if t not in self.names_]
            lists: list[tuple[np.ndarray, float]] = []
            hybrid = cfg.mode == "hybrid"
            if self.bm25_ is not None:
                bm = np.asarray(self.bm25_.get_scores(qtokens or ["_"]), dtype=np.float64)
                lists.append((bm, cfg.bm25_weight if hybrid else 1.0))
            if qvecs is not None:
                lists.append((self.vectors_ @ qvecs[j], cfg.dense_weight if hybrid else 1.0))
            fused = rrf(lists, len(self.memories), cfg.rrf_k)
            if cfg.session_weight > 0:
                slists: list[tuple[np.ndarray, float]] = []
                if self.session_bm25_ is not None:
                    slists.append((np.asarray(self.session_bm25_.get_scores(qtokens or ["_"])), 1.0))
                if self.session_vectors_ is not None and qvecs is not None:
                    slists.append((self.session_vectors_ @ qvecs[j], 1.0))
                sfused = rrf(slists, len(self.session_ids_), cfg.rrf_k)
                fused = fused + cfg.session_weight * sfused[self.turn_session_]
            if cfg.speaker_weight > 0:
                words = set(query.lower().replace("'s", " ").split())
                named = np.array([sp.lower() in words for sp in self.speakers_], dtype=np.float64)
                fused = fused + cfg.speaker_weight / (cfg.rrf_k + 1) * named
            out.append(fused)
        return out

    def scores_all(self, questions: Sequence[str]) -> list[np.ndarray]:
        """Final score per memory for each question (higher is better)."""
        cfg = self.config
        queries = [rewrite_query(q) if cfg.rewrite else q for q in questions]
        n = len(self.memories)
        fused = self._fused(queries)
        if cfg.prf_docs > 0 and cfg.prf_weight > 0:
            expanded = []
            for query, f in zip(queries, fused, strict=True):
                top = np.lexsort((np.arange(n), -f))[: cfg.prf_docs]
                expanded.append(query + " " + " ".join(str(self.memories[i].meta.get("text", "")) for i in top))
            fused = [f + cfg.prf_weight * g for f, g in zip(fused, self._fused(expanded), strict=True)]
        if cfg.neighbour_weight > 0:
            fused = [f + cfg.neighbour_weight * np.maximum(f[self.prev_], f[self.next_]) for f in fused]
        return fused

    def rank_all(self, questions: Sequence[str]) -> list[list[int]]:
        """For each question, indices of the memories, best first (ties: earlier memory first)."""
        n = len(self.memories)
        return [[int(i) for i in np.lexsort((np.arange(n), -s))] for s in self.scores_all(questions)]

    def rank(self, question: str) -> list[int]:
        """Indices of the memories for one question, best first."""
        return self.rank_all([question])[0]


@dataclass(eq=False)  # the generated constructor only stores the hyperparameters; identity stays equality
class EngineRetriever(RetrieverBase, EngineOptions):
    """Shared body of the ``bm25``, ``dense`` and ``hybrid`` options: a :class:`TurnRetriever` over the
    candidates, kept while the candidates stay the same (the queries of one moment share one index).

    Subclasses set ``mode``; :meth:`rank_many` ranks several queries over one candidate list with one index and
    one batch of query embeddings. Its hyperparameters are :class:`EngineOptions` (the module docstring says
    what each does); one the option's mode does not read (``bm25_k1`` of ``dense``) is kept and unused.
    """

    mode: ClassVar[str] = "hybrid"
    engine_key_ = None
    bank_ = None

    def config(self) -> RetrieverConfig:
        """The engine's settings from this option's hyperparameters."""
        return RetrieverConfig(mode=self.mode, **{f.name: getattr(self, f.name) for f in fields(self)})

    def _engine(self, candidates: Sequence[Memory], embedder: EmbedderBase | None) -> TurnRetriever:
        key = (tuple(m.id for m in candidates), id(embedder))
        if self.engine_key_ != key:
            self.engine_ = TurnRetriever(candidates, embedder, self.config())
            self.engine_key_ = key
        return self.engine_

    def rank_many(
        self,
        queries: Sequence[str],
        candidates: Sequence[Memory],
        now: datetime,
        embedder: EmbedderBase | None = None,
        limit: int | None = None,
    ) -> list[list[tuple[str, float]]]:
        """For each query, every candidate's ``(id, score)``, best first (ties: the candidates' order); with
        ``limit``, only the first ``limit`` of that list (found with a partial sort).
        """
        if not candidates:
            return [[] for _ in queries]
        if limit is not None and embedder is not None and len(candidates) >= BANK_MIN_UNITS:
            config = self.config()
            if config.mode == "dense" and single_list(config):
                return self._rank_bank(queries, candidates, embedder, limit, config)
        engine = self._engine(candidates, embedder)
        if limit is not None:
            return [
                [(candidates[i].id, s) for i, s in zip(order.tolist(), scores.tolist(), strict=True)]
                for order, scores in engine.top(list(queries), limit)
            ]
        n = len(candidates)
        out = []
        for scores in engine.scores_all(list(queries)):
            order = np.lexsort((np.arange(n), -scores))
            out.append([(candidates[int(i)].id, float(scores[int(i)])) for i in order])
        return out

    @staticmethod
    def _texts(units: Sequence[Memory], config: RetrieverConfig) -> list[str]:
        """The text indexed for each unit."""
        if config.context == "speaker":  # index_text's "speaker" text, without a call per unit
            return [m.text for m in units]
        return [index_text(m, config.context) for m in units]

    def _rank_bank(
        self,
        queries: Sequence[str],
        candidates: Sequence[Memory],
        embedder: EmbedderBase,
        limit: int,
        config: RetrieverConfig,
    ) -> list[list[tuple[str, float]]]:
        """:meth:`rank_many` of a large dense pool through the vector bank (see :data:`BANK_MIN_UNITS`)."""
        model_id = embedder.model_id
        bank = self.bank_
        if bank is None or bank.model_id != model_id:
            bank = self.bank_ = VectorBank(model_id)
        rows = bank.rows_of(candidates, lambda units: self._texts(units, config), embedder, config.context)
        texts = [rewrite_query(q) if config.rewrite else q for q in queries]
        scores = bank.scores(np.asarray(embedder.encode(texts), dtype=np.float32))
        out = []
        for j in range(len(texts)):
            order = top_order(scores[rows, j], limit)
            fused = 1.0 / (config.rrf_k + np.arange(1, len(order) + 1, dtype=np.float64))
            out.append([(candidates[i].id, f) for i, f in zip(order.tolist(), fused.tolist(), strict=True)])
        return out

    def rank(
        self, query: str, candidates: Sequence[Memory], now: datetime, embedder: EmbedderBase | None = None
    ) -> list[tuple[str, float]]:
        """Every candidate's ``(id, score)`` for ``query``, best first (ties: the candidates' order)."""
        return self.rank_many([query], candidates, now, embedder)[0]
