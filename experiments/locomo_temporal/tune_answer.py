"""Temporal-answerer tuning helper: date accuracy on date-like gold per AnswerConfig, tune vs held-out half.

Usage:
PYTHONPATH=$PWD python experiments/locomo_temporal/tune_answer.py rules '<retriever json>' '<answer json>' ... [-v]
(-v prints the tune-half failures). Only the tune half (conv-26, conv-30) was used to choose settings.
"""

import importlib
import json
import os
import sys

from memlab.benchmarks.locomo.answerer import AnswerConfig, answer_temporal
from memlab.benchmarks.locomo.dates import date_correct, parse_answer
from memlab.benchmarks.locomo.ingest import ingest
from memlab.benchmarks.locomo.loader import load
from memlab.embed.minilm import MiniLMEmbedder
from memlab.strategies.retriever.engine import RetrieverConfig, TurnRetriever

d = load(os.path.join(os.environ.get("MEMLAB_DATA_DIR", "../shared/datasets"), "locomo", "locomo_dev.json"))
e = MiniLMEmbedder(cache_dir=".cache")
TUNE = {"conv-26", "conv-30"}
resolver_name = sys.argv[1]
mod, cls = {
    "pattern_table": ("memlab.strategies.temporal.pattern_table", "PatternTableResolver"),
    "rules": ("memlab.strategies.temporal.rules", "RulesResolver"),
    "none": ("memlab.strategies.temporal.none", "NoResolver"),
}[resolver_name]
res = getattr(importlib.import_module(mod), cls)()
rcfg = RetrieverConfig(**json.loads(sys.argv[2]))
verbose = "-v" in sys.argv
cache = {}
for c in d.conversations:
    mem = ingest(c)
    r = TurnRetriever(mem, e, rcfg)
    qs = [q for q in c.questions if q.category == 2]
    cache[c.sample_id] = (qs, [[mem[i] for i in o] for o in r.rank_all([q.question for q in qs])])
for spec in sys.argv[3:]:
    if spec == "-v":
        continue
    acfg = AnswerConfig(**json.loads(spec))
    out = {"tune": [], "held": []}
    for sid, (qs, ranked) in cache.items():
        for q, rk in zip(qs, ranked, strict=True):
            if parse_answer(q.answer) is None:
                continue
            a = answer_temporal(q.question, rk, res, acfg)
            ok = date_correct(a.text, q.answer)
            out["tune" if sid in TUNE else "held"].append(ok)
            if verbose and not ok and sid in TUNE:
                gold_rank = [m.meta["dia_id"] for m in rk].index(q.evidence[0]) if q.evidence else -1
                print(
                    f"{q.question} | gold={q.answer} | pred={a.text} | "
                    f"expr={a.expression} r={a.rank} goldrank={gold_rank}"
                )

    def m(v):
        """Mean of ``v``, rounded to 4 places."""
        return round(sum(v) / len(v), 4)

    print(spec, "tune", m(out["tune"]), len(out["tune"]), "held", m(out["held"]), len(out["held"]), flush=True)
