"""Finer labels of kept pairs (SUPERSEDE / REPHRASE / SPLIT_OR_MERGE / UNRELATED) on a sealed-off part of dev.

    .venv/bin/python experiments/memory_files/labels.py show [--reverse]   # print the sample to read (not stored)
    .venv/bin/python experiments/memory_files/labels.py check              # agreement, and the relation rule

The labelled part: the first 5 development repositories by ``sha256("memlab-memory-files-labels:" + name)``; of
each, at most 30 kept pairs (the benchmark's gold: paired, token Jaccard ≥ 0.2), the first by
``sha256(repo/path/older/newer)``. Their texts are never used to build or tune anything: the relation rule of the
edit judge (``memlab.strategies.judge.edit.edit_relation``) was fixed before they were read. Each pair was read
twice, in two passes in opposite orders, the second without the first's labels; ``labels.json`` holds ids and
both passes' labels only (never the repositories' text).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent
N_REPOS, PER_REPO = 5, 30


def sample() -> list[dict]:
    """The labelled pairs, in the first pass's order, with their texts (for reading only)."""
    from memlab.data.memory_files.corpus import read_repo, repo_files
    from memlab.data.memory_files.memories import kept_pairs
    from memlab.training.record_judge import default_folder

    folder = Path(default_folder()).parent / "memory-files"
    dev = repo_files(folder, split="dev")
    key = lambda p: hashlib.sha256(("memlab-memory-files-labels:" + p.stem).encode()).hexdigest()  # noqa: E731
    out = []
    for path in sorted(dev, key=key)[:N_REPOS]:
        repo = read_repo(path)
        pairs = [(f, o, n) for f in repo.files for o, n in kept_pairs(f)]
        name = repo.repo
        pairs.sort(key=lambda t: hashlib.sha256(f"{name}/{t[0].path}/{t[1].id}/{t[2].id}".encode()).hexdigest())
        for f, o, n in pairs[:PER_REPO]:
            out.append({"repo": repo.repo, "path": f.path, "older": o.id, "newer": n.id, "old": o.text, "new": n.text})
    return out


def show(reverse: bool) -> None:
    """Print the sample (index, ids, both texts)."""
    pairs = sample()
    order = list(range(len(pairs)))[::-1] if reverse else range(len(pairs))
    for k in order:
        p = pairs[k]
        print(f"[{k}] {p['repo']} {p['path']} {p['older']}->{p['newer']}\n  OLD: {p['old']}\n  NEW: {p['new']}\n")


def check() -> None:
    """Agreement between the passes, the label shares, and the relation rule against the agreed labels."""
    from memlab.strategies.judge.edit import edit_relation

    data = json.loads((HERE / "labels.json").read_text())
    texts = {(p["repo"], p["path"], p["older"], p["newer"]): p for p in sample()}
    rows = data["pairs"]
    agree = sum(r["pass1"] == r["pass2"] for r in rows)
    one, two = Counter(r["pass1"] for r in rows), Counter(r["pass2"] for r in rows)
    chance = sum(one[k] * two[k] for k in one) / len(rows) ** 2
    kappa = (agree / len(rows) - chance) / (1 - chance)
    print(json.dumps({"pairs": len(rows), "agreement": round(agree / len(rows), 3), "kappa": round(kappa, 3)}))
    print(json.dumps({"pass1": Counter(r["pass1"] for r in rows), "pass2": Counter(r["pass2"] for r in rows)}))
    wanted = {"SUPERSEDE": "SUPERSEDE", "REPHRASE": "DUPLICATE"}
    confusion: Counter = Counter()
    for r in rows:
        if r["pass1"] != r["pass2"] or r["pass1"] not in wanted:
            continue
        p = texts[(r["repo"], r["path"], r["older"], r["newer"])]
        confusion[(r["pass1"], edit_relation(p["old"], p["new"]).value)] += 1
    right = sum(v for (label, said), v in confusion.items() if wanted[label] == said)
    total = sum(confusion.values())
    print(json.dumps({"rule_vs_labels": {f"{a}->{b}": v for (a, b), v in sorted(confusion.items())},
                      "rule_accuracy": round(right / total, 3) if total else None, "n": total}))  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["show"]:
        show("--reverse" in sys.argv)
    else:
        check()
