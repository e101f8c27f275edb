"""Which facts of a memory file are gone without a successor? Features of a fact's history, leave one repository out.

    .venv/bin/python experiments/memory_files/overtaken.py [--split dev]

Rows: at every checkpoint (after each commit that leaves the file in place), every fact recorded so far whose
kept successor (the gold rule, :func:`memlab.data.memory_files.memories.kept_pairs`) has not arrived yet — what a
perfect judge would still show. Label: the fact is in the file at that checkpoint. Features use only what a
policy sees (facts and their commit times, never a removal):

* ``later_share``: share of the facts recorded so far that were recorded after it (``retention=overtaken``'s);
* ``commits_since``: ``log1p`` of the commits since its own;
* ``own_commit_share``: facts of its commit over the facts recorded up to it;
* ``largest_later_commit``: the largest later commit's facts over the facts recorded before that commit;
* ``best_later_jaccard``: its best token Jaccard with a later fact;
* ``length``: ``log1p`` of its characters; ``first_commit``: recorded with the file's first commit;
* ``store_size``: ``log1p`` of the facts recorded so far.

For each feature set a logistic model is fitted on every repository but one and scores the held-out one; the table
gives, per probability cut, the share of the kept rows that are in the file (precision) and the share of the rows
in the file that are kept (coverage), pooled over the held-out scores. Rows are not the pipeline's block (no
budget, no judge); ``python -m memlab +experiment=memory_files retention=overtaken`` measures that.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

import numpy as np

from memlab.data.memory_files.corpus import MemoryFile, read_repo, repo_files
from memlab.data.memory_files.memories import kept_pairs
from memlab.strategies.judge.edit_features import tokens
from memlab.text.tokens import jaccard

FEATURES = ("commits_since", "later_share", "own_commit_share", "largest_later_commit", "best_later_jaccard",
            "length", "first_commit", "store_size")  # fmt: skip
SETS = {"later_share": ("later_share",), "all eight": FEATURES}
CUTS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9)


def file_rows(mfile: MemoryFile) -> tuple[list[list[float]], list[int]]:
    """The rows and labels of one file (see the module docstring)."""
    n = len(mfile.commits)
    added = Counter(f.recorded for f in mfile.facts)
    upto = np.cumsum([added.get(i, 0) for i in range(n)])
    successor = {old.id: new for old, new in kept_pairs(mfile)}
    sets = [frozenset(tokens(f.text)) for f in mfile.facts]
    by_commit: dict[int, list[int]] = {}
    for i, f in enumerate(mfile.facts):
        by_commit.setdefault(f.recorded, []).append(i)
    rows, labels = [], []
    for k in range(n):
        if mfile.gone_after(k) or upto[k] == 0:
            continue
        for i, f in enumerate(mfile.facts):
            r = f.recorded
            new = successor.get(f.id)
            if r > k or (new is not None and new.recorded <= k):
                continue
            later = range(r + 1, k + 1)
            largest = max((added.get(j, 0) / max(int(upto[j - 1]), 1) for j in later), default=0.0)
            best = max((jaccard(sets[i], sets[q]) for j in later for q in by_commit.get(j, ())), default=0.0)
            rows.append([math.log1p(k - r), (upto[k] - upto[r]) / upto[k], added[r] / max(int(upto[r]), 1), largest,
                         best, math.log1p(len(f.text)), float(r == 0), math.log1p(upto[k])])  # fmt: skip
            labels.append(int(f.live_after(k)))
    return rows, labels


def main() -> None:
    """Rows of the split's files, leave-one-repository-out per feature set, the precision/coverage table."""
    from sklearn.linear_model import LogisticRegression

    from memlab.training.record_judge import default_folder

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="dev", help="dev (default), sealed or all")
    args = parser.parse_args()
    x, y, groups = [], [], []
    for path in repo_files(default_folder().parent / "memory-files", None, args.split):
        repo = read_repo(path)
        for mfile in repo.files:
            rows, labels = file_rows(mfile)
            x += rows
            y += labels
            groups += [repo.repo] * len(rows)
    xa, ya, ga = np.array(x), np.array(y), np.array(groups)
    print(f"{len(ya)} rows, {len(set(groups))} repositories, share in the file {ya.mean():.3f}")
    print("| features | " + " | ".join(f"cut {c}: precision / coverage" for c in CUTS) + " |")
    print("|---|" + "---|" * len(CUTS))
    for name, features in SETS.items():
        cols = [FEATURES.index(f) for f in features]
        p = np.zeros(len(ya))
        for repo in sorted(set(groups)):
            held = ga == repo
            model = LogisticRegression(max_iter=1000).fit(xa[~held][:, cols], ya[~held])
            p[held] = model.predict_proba(xa[held][:, cols])[:, 1]
        cells = [f"{ya[p >= c].mean():.3f} / {np.mean(p[ya == 1] >= c):.3f}" for c in CUTS]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
