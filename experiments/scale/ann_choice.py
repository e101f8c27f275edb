"""Global k-nearest-neighbour candidates at one size: exact (memlab.embed.knn) against two ANN libraries.

Compares hnswlib (HNSW) and faiss-cpu (IVF-Flat) with the exact pairs: CPU seconds and the share of the exact
pairs each finds. Needs `pip install hnswlib faiss-cpu` (not project dependencies).
Run from the checkout: python experiments/scale/ann_choice.py 30000
"""

import sys

sys.path.insert(0, ".")
import time

import faiss
import hnswlib
import numpy as np

from memlab.data.project_history.generator import generate
from memlab.embed.knn import knn_pairs
from memlab.embed.tfidf import TfidfEmbedder

n = int(sys.argv[1])
k = 8
ms = sorted(generate(0, n).memories, key=lambda m: (m.timestamp, m.id))
X = TfidfEmbedder().encode([m.text for m in ms])
X = np.ascontiguousarray(X, dtype=np.float32)


def pairset(p):
    """The (i, j) index pairs of k-nearest-neighbour triples ``(i, j, similarity)``."""
    return {(i, j) for i, j, _ in p}


c = time.process_time()
w = time.perf_counter()
exact = knn_pairs(X, k, 0.2)
print("exact", n, "cpu", round(time.process_time() - c, 1), "wall", round(time.perf_counter() - w, 1), flush=True)
E = pairset(exact)

c = time.process_time()
w = time.perf_counter()
idx = hnswlib.Index(space="ip", dim=X.shape[1])
idx.init_index(max_elements=n, ef_construction=100, M=16, random_seed=0)
idx.set_num_threads(1)
idx.add_items(X, np.arange(n))
idx.set_ef(64)
lab, dist = idx.knn_query(X, k=k + 1)
P = set()
for i in range(n):
    for j, d in zip(lab[i], dist[i], strict=True):
        j = int(j)
        if j != i and 1 - d >= 0.2:
            P.add((min(i, j), max(i, j)))
print(
    "hnswlib",
    "cpu",
    round(time.process_time() - c, 1),
    "wall",
    round(time.perf_counter() - w, 1),
    "recall of exact pairs",
    round(len(P & E) / len(E), 3),
    flush=True,
)

faiss.omp_set_num_threads(1)
c = time.process_time()
w = time.perf_counter()
nlist = int(4 * np.sqrt(n))
q = faiss.IndexFlatIP(X.shape[1])
ivf = faiss.IndexIVFFlat(q, X.shape[1], nlist, faiss.METRIC_INNER_PRODUCT)
ivf.train(X)
ivf.add(X)
ivf.nprobe = 8
D, L = ivf.search(X, k + 1)
P = set()
for i in range(n):
    for j, d in zip(L[i], D[i], strict=True):
        j = int(j)
        if j >= 0 and j != i and d >= 0.2:
            P.add((min(i, j), max(i, j)))
print(
    "faiss-ivf",
    "cpu",
    round(time.process_time() - c, 1),
    "wall",
    round(time.perf_counter() - w, 1),
    "recall of exact pairs",
    round(len(P & E) / len(E), 3),
    flush=True,
)
