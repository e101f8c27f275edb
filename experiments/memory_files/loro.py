"""The edit judge under leave-one-repository-out on the development memory files, at pair level.

    .venv/bin/python experiments/memory_files/loro.py [--sets a,b] [--cache FILE] [--models-out DIR] [--compete M]

Pairs are the experiment's candidate pairs (``memlab.training.edit_judge.load_pairs``, ``dataset.split=dev``;
``--cache`` keeps them between runs as an ``.npz`` of ids, rows and labels, no text). For each feature set:
nested LORO (each repository scored by a model fitted on the others, with the threshold chosen by an inner
grouped cross-validation on those others alone, :data:`INNER_FOLDS` groups of repositories), pooled counts over
the kept pairs (a kept pair the candidates never reach is a miss), per repository too with ``--per-repo``.
``--models-out DIR`` writes each fold's model of the first set (``DIR/<owner__name>.json``, trained without that
repository, threshold from its inner folds) for the pipeline folds (``pipeline_folds.py``).

``--compete newer`` (a study, not a judge: a judge's verdict on a pair may not depend on the other pairs) lets
each newer fact replace only its most probable older fact among those at or past the threshold; ``--compete both``
keeps a pair only when it is also its older fact's most probable newer; the inner folds choose the threshold under
the same rule.
"""

from __future__ import annotations

import argparse
import functools
import json
from pathlib import Path

import numpy as np

from memlab.strategies.judge.edit_features import FEATURES
from memlab.training import edit_judge as ej

#: Inner folds that choose each outer fold's threshold (groups of training repositories; 19 single ones cost 4x).
INNER_FOLDS = 5
SETS: dict[str, tuple[str, ...]] = {
    "all": FEATURES,
    "overlap": ("ratio", "jaccard", "containment", "cosine", "prefix", "suffix", "n_diff", "len_ratio"),
    "overlap+time": (
        "ratio", "jaccard", "containment", "cosine", "prefix", "suffix", "n_diff", "len_ratio", "same_time",
    ),
    "overlap+ranks": (
        "ratio", "jaccard", "containment", "cosine", "prefix", "suffix", "n_diff", "len_ratio", "old_rank", "new_rank",
    ),
    "no_value": tuple(f for f in FEATURES if f != "value_diff"),
    "no_session": tuple(f for f in FEATURES if f != "session_size"),
    "small": ("ratio", "jaccard", "same_time", "old_rank", "new_rank"),
    "no_lead": tuple(f for f in FEATURES if f != "same_lead"),
}  # fmt: skip


def load(cache: Path | None) -> list[ej.FilePairs]:
    """The dev pairs, from ``cache`` when it exists."""
    if cache is not None and cache.exists():
        raw = np.load(cache, allow_pickle=False)
        meta = json.loads(str(raw["meta"]))
        out = []
        for k, m in enumerate(meta):
            pairs = [tuple(p) for p in m["pairs"]]
            out.append(ej.FilePairs(m["repo"], m["path"], pairs, raw[f"rows{k}"], raw[f"labels{k}"], m["n_kept"]))
        return out
    from memlab.training.record_judge import default_folder  # the shared data folder

    data = ej.load_pairs(Path(default_folder()).parent / "memory-files", split="dev")
    if cache is not None:
        meta = [{"repo": d.repo, "path": d.path, "pairs": d.pairs, "n_kept": d.n_kept} for d in data]
        arrays = {f"rows{k}": d.rows for k, d in enumerate(data)} | {f"labels{k}": d.labels for k, d in enumerate(data)}
        np.savez(cache, meta=json.dumps(meta), **arrays)
    return data


def compete(d: ej.FilePairs, p: np.ndarray, threshold: float, mode: str | None) -> tuple[int, int, int]:
    """``(tp, fp, fn)`` of ``d`` at ``threshold``, each newer (``both``: and each older) keeping only its most
    probable pair among those past it (``mode=None``: :func:`~memlab.training.edit_judge.counts`).
    """
    if mode is None:
        return ej.counts(d, p, threshold)
    said = np.flatnonzero(p >= threshold)
    keep = None
    for side in (1,) if mode == "newer" else (1, 0):
        best: dict[str, int] = {}
        for i in said:
            k = d.pairs[i][side]
            if k not in best or p[i] > p[best[k]]:
                best[k] = int(i)
        keep = set(best.values()) if keep is None else keep & set(best.values())
    chosen = np.zeros(p.shape, dtype=bool)
    chosen[sorted(keep or ())] = True
    tp = int(np.sum(chosen & (d.labels == 1)))
    return tp, int(np.sum(chosen & (d.labels == 0))), d.n_kept - tp


def nested(
    data: list[ej.FilePairs], cols: list[int], c: float, models_out: Path | None = None, mode: str | None = None
) -> dict:
    """Nested LORO counts (see the module docstring)."""
    from memlab.models.logistic import save
    from memlab.strategies.judge.edit import CARD_FORMAT

    groups = ej.by_repo(data)
    total = np.zeros(3, dtype=int)
    per_repo = {}
    for repo, held in groups.items():
        train = [d for d in data if d.repo != repo]
        count = functools.partial(compete, mode=mode)
        threshold, inner = ej.best_threshold(train, ej.loro(train, cols, c, folds=INNER_FOLDS), count)
        model = ej.fit(train, cols, c)
        got = np.sum([compete(d, ej.probabilities(model, d, cols), threshold, mode) for d in held], axis=0)
        total += got
        per_repo[repo] = {"threshold": threshold, "tp_fp_fn": [int(v) for v in got]}
        if models_out is not None:
            card = {"features_version": 1, "features": list(model.features), "threshold": threshold,
                    "training_repositories": sorted(ej.by_repo(train)), "inner_loro_f1": inner}  # fmt: skip
            save(model, card, models_out / (repo.replace("/", "__") + ".json"), card_format=CARD_FORMAT)
    tp, fp, fn = (int(v) for v in total)
    return {
        "f1": ej.f1(tp, fp, fn),
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / (tp + fn) if tp + fn else None,
        "tp_fp_fn": [tp, fp, fn],
        "per_repo": per_repo,
    }


def main() -> None:
    """Print one JSON line per feature set."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--c", type=float, default=1.0)
    parser.add_argument("--per-repo", action="store_true")
    parser.add_argument("--models-out", type=Path, default=None)
    parser.add_argument("--compete", choices=("newer", "both"), default=None)
    args = parser.parse_args()
    data = load(args.cache)
    labelled = np.concatenate([d.labels for d in data])
    reached = sum(int(np.sum(d.labels == 1)) for d in data)
    kept = sum(d.n_kept for d in data)
    print(json.dumps({"pairs": int(labelled.size), "positives": int(np.sum(labelled == 1)),
                      "negatives": int(np.sum(labelled == 0)), "kept_reached": f"{reached}/{kept}"}))  # fmt: skip
    for k, name in enumerate(args.sets.split(",")):
        cols = [FEATURES.index(f) for f in SETS[name]]
        result = nested(data, cols, args.c, args.models_out if k == 0 else None, args.compete)
        if not args.per_repo:
            result.pop("per_repo")
        print(json.dumps({"set": name, **result}), flush=True)


if __name__ == "__main__":
    main()
