"""Training and leave-one-repository-out evaluation of the edit judge on a folder of memory-file histories.

Pairs are exactly the candidate pairs the ``memory_files`` experiment puts in front of the judge: each file runs
as its episode under the experiment's policy with ``judge=none`` (the candidate sources do not depend on the
judge), and every pair of ``store.judged`` is read with :class:`~memlab.strategies.judge.edit_features.EditContext`
(cosine from the store's vectors). Labels follow the benchmark's gold (:mod:`memlab.data.memory_files.memories`):
1 for a kept pair (the older's best successor at token Jaccard ≥ 0.2), 0 for a pair whose older fact stayed in
the file after the newer's commit (they stood side by side; identical texts excepted), and no label otherwise
(the older was removed, but not as this pair's kept side: such pairs are left out of fitting and scoring).

The threshold is the one with the best pooled F1 over the out-of-fold probabilities of a leave-one-repository-out
run on the training repositories themselves: no repository's own scores choose its threshold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: Thresholds tried (class-balanced fitting puts the useful ones high: fine steps up to 0.995).
GRID: tuple[float, ...] = (*(round(0.05 * k, 2) for k in range(2, 19)), 0.92, 0.94, 0.96, 0.97, 0.98, 0.99, 0.995)


@dataclass
class FilePairs:
    """One memory file's candidate pairs: fact ids ``(older, newer)``, feature rows, labels (1, 0, -1 unlabelled)."""

    repo: str
    path: str
    pairs: list[tuple[str, str]]
    rows: np.ndarray
    labels: np.ndarray
    n_kept: int


def policy(overrides: Sequence[str] = ()) -> Any:
    """The ``memory_files`` experiment's components with ``judge=none`` (and ``overrides``)."""
    from memlab.wiring.build import build_components
    from memlab.wiring.config import compose

    return build_components(compose(["+experiment=memory_files", "judge=none", "tracking=none", *overrides]))


def file_pairs(mfile: Any, components: Any) -> FilePairs:
    """The candidate pairs of one memory file with their features and labels (see the module docstring)."""
    from memlab.data.memory_files.memories import file_memories, kept_pairs
    from memlab.pipeline.episode import Episode, run_episode
    from memlab.strategies.judge.edit_features import FEATURES, EditContext

    memories, times, ids = file_memories(mfile)
    episode = Episode(f"{mfile.repo}:{mfile.path}", memories, checkpoints=times)
    store = run_episode(episode, components).store
    fact = {ids[f.id]: f for f in mfile.facts}
    memory = {m.id: m for m in episode.memories}
    context = EditContext(episode.memories)
    kept = {(o.id, n.id) for o, n in kept_pairs(mfile)}
    pairs, rows, labels = [], [], []
    for o, n in sorted(store.judged, key=lambda p: (memory[p[1]].timestamp, memory[p[0]].timestamp, p)):
        older, newer = fact[o], fact[n]
        cosine = float(store.embeddings[o] @ store.embeddings[n])
        rows.append(context.features(memory[o], memory[n], cosine))
        pairs.append((older.id, newer.id))
        if (older.id, newer.id) in kept:
            labels.append(1)
        elif older.live_after(newer.recorded) and older.text.strip() != newer.text.strip():
            labels.append(0)
        else:
            labels.append(-1)
    matrix = np.array(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))
    return FilePairs(mfile.repo, mfile.path, pairs, matrix, np.array(labels, dtype=np.int64), len(kept))


def load_pairs(folder: str | Path, repos: Sequence[str] | None = None, split: str = "dev") -> list[FilePairs]:
    """Every chosen file's pairs (one log line per repository)."""
    import logging

    from memlab.data.memory_files.corpus import read_repo, repo_files

    components = policy()
    out = []
    for path in repo_files(folder, repos, split):
        repo = read_repo(path)
        out.extend(file_pairs(f, components) for f in repo.files)
        logging.getLogger(__name__).info("edit-judge pairs: %s", repo.repo)
    return out


def fit(data: Sequence[FilePairs], features: Sequence[int], c: float = 1.0) -> Any:
    """A logistic model (:class:`~memlab.models.logistic.LogisticModel`) on the labelled pairs."""
    from memlab.models.logistic import fit as fit_logistic
    from memlab.strategies.judge.edit_features import FEATURES

    x = np.concatenate([d.rows[d.labels >= 0][:, features] for d in data])
    y = np.concatenate([d.labels[d.labels >= 0] for d in data])
    names = [FEATURES[i] for i in features]
    return fit_logistic(x, y, names, C=c, solver="newton-cholesky", class_weight="balanced")


def probabilities(model: Any, data: FilePairs, features: Sequence[int]) -> np.ndarray:
    """P(replacement) of every pair of ``data`` (the model's formula, vectorised)."""
    z = model.intercept + ((data.rows[:, features] - model.mean) / np.array(model.scale)) @ np.array(model.coef)
    return 1.0 / (1.0 + np.exp(-np.clip(z, -500, 500)))


def counts(data: FilePairs, p: np.ndarray, threshold: float) -> tuple[int, int, int]:
    """``(tp, fp, fn)`` over the labelled pairs and the file's kept pairs (a kept pair never judged is missed)."""
    said = p >= threshold
    tp = int(np.sum(said & (data.labels == 1)))
    fp = int(np.sum(said & (data.labels == 0)))
    return tp, fp, data.n_kept - tp


def f1(tp: int, fp: int, fn: int) -> float | None:
    """``2tp / (2tp + fp + fn)`` (``None`` when nothing is counted)."""
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else None


def by_repo(data: Sequence[FilePairs]) -> dict[str, list[FilePairs]]:
    """The files grouped by repository."""
    return {repo: [d for d in data if d.repo == repo] for repo in dict.fromkeys(d.repo for d in data)}


def loro(
    data: Sequence[FilePairs], features: Sequence[int], c: float = 1.0, folds: int | None = None
) -> list[np.ndarray]:
    """Out-of-fold probabilities per file: each repository's files scored by a model fitted without them
    (``folds``: instead, that many groups of repositories, dealt round-robin in name order).
    """
    repos = sorted(by_repo(data))
    fold_of = {r: (k % folds if folds else k) for k, r in enumerate(repos)}
    out: dict[int, np.ndarray] = {}
    for fold in sorted(set(fold_of.values())):
        model = fit([d for d in data if fold_of[d.repo] != fold], features, c)
        for d in data:
            if fold_of[d.repo] == fold:
                out[id(d)] = probabilities(model, d, features)
    return [out[id(d)] for d in data]


def best_threshold(
    data: Sequence[FilePairs],
    probs: Sequence[np.ndarray],
    count: Callable[[FilePairs, np.ndarray, float], tuple[int, int, int]] = counts,
) -> tuple[float, float | None]:
    """The grid threshold with the best pooled F1 over ``probs`` (ties: the lower threshold); ``count`` gives a
    file's ``(tp, fp, fn)`` at a threshold (:func:`counts`; a study may read the pairs another way).
    """
    best: tuple[float, float | None] = (GRID[0], None)
    for t in GRID:
        total = np.sum([count(d, p, t) for d, p in zip(data, probs, strict=True)], axis=0)
        score = f1(*(int(v) for v in total))
        if score is not None and (best[1] is None or score > best[1]):
            best = (t, score)
    return best


def train(data: Sequence[FilePairs], features: Sequence[str], c: float = 1.0) -> tuple[Any, dict[str, Any]]:
    """Fit on every file of ``data``; threshold by leave-one-repository-out on them. Returns model and card."""
    from memlab.core.errors import MemlabError
    from memlab.strategies.judge.edit_features import FEATURES, FEATURES_VERSION

    if len(by_repo(data)) < 2:
        raise MemlabError("edit judge training needs at least two repositories (the threshold is chosen by LORO)")
    cols = [FEATURES.index(f) for f in features]
    oof = loro(data, cols, c)
    threshold, score = best_threshold(data, oof)
    tp, fp, fn = np.sum([counts(d, p, threshold) for d, p in zip(data, oof, strict=True)], axis=0)
    model = fit(data, cols, c)
    card = {
        "features": list(features),
        "features_version": FEATURES_VERSION,
        "train_repos": sorted(by_repo(data)),
        "threshold": threshold,
        "threshold_rule": "best pooled F1 (kept pairs) of leave-one-repository-out probabilities, training repos",
        "C": c,
        "positives": int(sum(np.sum(d.labels == 1) for d in data)),
        "negatives": int(sum(np.sum(d.labels == 0) for d in data)),
        "pairs": int(sum(len(d.pairs) for d in data)),
        "kept_pairs": int(sum(d.n_kept for d in data)),
        "loro_on_training_repos": {"f1": score, "tp": int(tp), "fp": int(fp), "fn": int(fn)},
    }
    return model, card


def train_to(args: Any) -> int:
    """``memlab train edit-judge``: pairs of ``args``' repositories (minus ``--exclude``), fit, write model and card."""
    import json
    import shlex
    import sys

    from memlab.models.logistic import save
    from memlab.strategies.judge.edit import CARD_FORMAT
    from memlab.strategies.judge.edit_features import FEATURES
    from memlab.training.record_judge import default_folder, names

    folder = Path(args.path) if args.path else default_folder().parent / "memory-files"
    data = load_pairs(folder, names(args.repos) or None, args.split)
    excluded = set(names(args.exclude))
    data = [d for d in data if d.repo.replace("/", "__") not in excluded]
    model, card = train(data, FEATURES)
    card.update(command="memlab " + " ".join(shlex.quote(a) for a in sys.argv[1:]), split=args.split)
    card["excluded"] = sorted(excluded)
    model_path, card_path = save(model, card, args.out, card_format=CARD_FORMAT)
    print(json.dumps({"model": str(model_path), "card": str(card_path), "threshold": card["threshold"]}, indent=2))
    return 0
