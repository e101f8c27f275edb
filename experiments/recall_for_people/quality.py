"""Does ``memlab recall`` find what the benchmark's retriever finds, now that it reads kept vectors and embeds the query
without torch?

Each generated project history (``memlab.data.project_history``) is written into a fresh repository as git notes and
consolidated with the spec (as ``memlab install`` does); every ``current`` question is then asked two ways over the same
consolidated store: as ``memlab recall`` asks it (the policy's retriever over the vectors the consolidation kept, the
query embedded with ``encode_few``: MiniLM's numpy forward pass), and as the benchmark's retriever asks it (the same
retriever with the policy's embedder encoding every text itself: sentence-transformers and torch). Reported: recall@k
of the question's evidence (share of questions with an evidence memory among the first k hits) for both, and how
many questions got a different ranking.

    python experiments/recall_for_people/quality.py --spec SPEC.json --seeds 0,1,2 --size 200
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import tempfile
from pathlib import Path

from memlab.adapter.consolidation import consolidate_repo, load_store
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
from memlab.adapter.spec import build_components, load_spec, policy_id
from memlab.adapter.vectors import RepoEmbedder
from memlab.data.project_history.generator import generate
from memlab.pipeline.recall import recall

KS = (1, 5, 10)


def main() -> None:
    """Both paths on every seed; JSON on stdout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--size", type=int, default=200)
    args = parser.parse_args()
    spec = load_spec(args.spec)
    hits = {"recall": {k: 0 for k in KS}, "benchmark": {k: 0 for k in KS}}
    questions = differ = 0
    for seed in map(int, args.seeds.split(",")):
        history = generate(seed, args.size)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["git", "init", "-q", tmp], check=True)
            subprocess.run(["git", "-C", tmp, "commit", "-q", "--allow-empty", "-m", "i"], check=True,
                           env={"GIT_AUTHOR_NAME": "q", "GIT_AUTHOR_EMAIL": "q@q", "GIT_COMMITTER_NAME": "q",
                                "GIT_COMMITTER_EMAIL": "q@q", "HOME": tmp})  # fmt: skip
            repo = find_repo(tmp)
            ids = {m.id: append_memory(repo, m.namespace, m.summary, m.content, timestamp=m.timestamp, tags=m.tags)
                   for m in history.memories}  # fmt: skip
            now = history.now
            consolidate_repo(repo, spec, now=now)
            store = load_store(repo, policy_id(spec)).store
            plain = build_components(spec, groups=("embedder", "retriever"))
            kept = dataclasses.replace(plain, embedder=RepoEmbedder(plain.embedder, repo.memlab_dir))
            uncached = {**spec, "strategies": {**spec["strategies"], "embedder": {**spec["strategies"]["embedder"]}}}
            uncached["strategies"]["embedder"]["cache_dir"] = None  # every vector computed by the model itself
            plain = build_components(uncached, groups=("embedder", "retriever"))
            for q in history.queries:
                if q.kind != "current" or not q.evidence:
                    continue
                questions += 1
                gold = {ids[e] for e in q.evidence}
                ranked = {}
                for name, components in (("recall", kept), ("benchmark", plain)):
                    found = recall(store, components, q.question, now, limit=max(KS), track=False)
                    ranked[name] = [h.memory.id for h in found]
                    for k in KS:
                        hits[name][k] += bool(gold & set(ranked[name][:k]))
                differ += ranked["recall"] != ranked["benchmark"]
    report = {
        "spec": str(Path(args.spec).resolve()),
        "seeds": args.seeds,
        "size": args.size,
        "questions": questions,
        "rankings_that_differ": differ,
        **{name: {f"recall@{k}": round(n / questions, 3) for k, n in counts.items()} for name, counts in hits.items()},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
