"""Retrieval tuning helper for locomo_temporal: recall@10 (turn, categories 1–4) per RetrieverConfig.

Usage (from the worktree root):
PYTHONPATH=$PWD python experiments/locomo_temporal/tune_retrieval.py '{"mode":"bm25"}' ...
Prints (tune-half recall, held-out recall, tune-half recall per category). Only the tune half
(conv-26, conv-30) was used to choose settings. Reads the dev file in place (never copied).
"""

import json
import os
import sys
import time

from memlab.benchmarks.locomo.ingest import ingest
from memlab.benchmarks.locomo.loader import load
from memlab.benchmarks.locomo.recall import recall_row
from memlab.embed.minilm import MiniLMEmbedder
from memlab.strategies.retriever.engine import RetrieverConfig, TurnRetriever

d = load(os.path.join(os.environ.get("MEMLAB_DATA_DIR", "../shared/datasets"), "locomo", "locomo_dev.json"))
e = MiniLMEmbedder(cache_dir=".cache")
TUNE = {"conv-26", "conv-30"}


def evaluate(cfg):
    """Recall@10 of one RetrieverConfig: tune half, held-out half and tune half per category."""
    res = {"tune": [], "held": []}
    cats = {}
    for c in d.conversations:
        mem = ingest(c)
        r = TurnRetriever(mem, e, cfg)
        qs = [q for q in c.questions if q.category in (1, 2, 3, 4)]
        for q, order in zip(qs, r.rank_all([q.question for q in qs]), strict=True):
            rec = recall_row([mem[i].meta["dia_id"] for i in order], q.evidence)["recall_at_10_turn"]
            if rec is None:  # no evidence: recall is undefined
                continue
            res["tune" if c.sample_id in TUNE else "held"].append(rec)
            if c.sample_id in TUNE:
                cats.setdefault(q.category, []).append(rec)

    def m(v):
        return round(sum(v) / len(v), 4)

    return m(res["tune"]), m(res["held"]), {k: m(v) for k, v in sorted(cats.items())}


for spec in sys.argv[1:]:
    cfg = RetrieverConfig(**json.loads(spec))
    t = time.time()
    print(spec, evaluate(cfg), round(time.time() - t, 1), flush=True)
