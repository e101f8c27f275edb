"""Share of the gold SUPERSEDE pairs among global k-nearest-neighbour candidates (TF-IDF), by size.

Run from the checkout: python experiments/scale/reach_global.py
"""

import sys

sys.path.insert(0, ".")
from memlab.core.types import Relation
from memlab.data.project_history.generator import generate
from memlab.embed.knn import knn_pairs, knn_pairs_within, merge_pairs
from memlab.embed.tfidf import TfidfEmbedder

for n in (1000, 10000):
    h = generate(0, n)
    ms = sorted(h.memories, key=lambda m: (m.timestamp, m.id))
    idx = {m.id: i for i, m in enumerate(ms)}
    X = TfidfEmbedder().encode([m.text for m in ms])
    gold = {tuple(sorted((idx[r.older], idx[r.newer]))) for r in h.relations if r.relation is Relation.SUPERSEDE}
    for k, kn in ((8, 0), (20, 0), (8, 10), (20, 10)):
        p = knn_pairs(X, k, 0.2)
        if kn:
            p = merge_pairs(p, knn_pairs_within(X, [m.namespace for m in ms], kn, 0.2))
        s = {(i, j) for i, j, _ in p}
        print(
            n, k, kn, "pairs", len(s), "gold sup", len(gold), "reach", round(len(gold & s) / len(gold), 3), flush=True
        )
