"""Subject blocks by size (count, largest, gold pairs inside a block) and k-nearest-neighbour reach within them.

The reach is the share of gold SUPERSEDE pairs found by k nearest neighbours within a block, at 100,000.
Run from the checkout: python experiments/scale/reach_subject.py
"""

import collections
import sys

sys.path.insert(0, ".")

from memlab.core.types import Relation
from memlab.data.project_history.generator import generate
from memlab.embed.knn import knn_pairs_within
from memlab.embed.tfidf import TfidfEmbedder
from memlab.pipeline.subject_candidates import subject_block

for n in (1000, 10000, 100000):
    h = generate(0, n)
    ms = sorted(h.memories, key=lambda m: (m.timestamp, m.id))
    idx = {m.id: i for i, m in enumerate(ms)}
    gold = {tuple(sorted((idx[r.older], idx[r.newer]))) for r in h.relations if r.relation is Relation.SUPERSEDE}
    blocks = [subject_block(m) for m in ms]
    c = collections.Counter(blocks)
    gb = sum(blocks[i] == blocks[j] for i, j in gold)
    print(
        n,
        "blocks",
        len(c),
        "largest",
        c.most_common(3),
        "gold sup",
        len(gold),
        "gold within a block",
        round(gb / len(gold), 3),
        flush=True,
    )
    if n < 100000:
        continue
    X = TfidfEmbedder().encode([m.text for m in ms])
    for k in (8, 20):
        s = {(i, j) for i, j, _ in knn_pairs_within(X, blocks, k, 0.2)}
        print(n, k, "pairs", len(s), "reach", round(len(gold & s) / len(gold), 3), flush=True)
