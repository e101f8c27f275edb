"""Leave-one-repository-out evaluation of the record judge on the ADR corpus's development repositories.

For each development repository: a model is trained on the other 16 (threshold by LORO on those 16 alone,
:func:`memlab.training.record_judge.train`) and scored on the held-out one over the candidate pairs of the
``adr_decisions`` experiment (text kNN 20 and title kNN 20, cosine >= 0.2). Pooled micro F1/P/R over the
closures of gold SUPERSEDE pairs, per fold and pooled, for each feature set (ablation).

    .venv/bin/python experiments/adr_decisions/loro.py [--models-out DIR] [--sets default,base7,...]

``--models-out`` writes each fold's model (default feature set) as DIR/<repo>.json for pipeline runs.
Never loads the sealed split.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from memlab.models.logistic import save
from memlab.strategies.judge.record_features import FEATURES
from memlab.training import record_judge as rj
from memlab.wiring.conf_resolvers import PROJECT_ROOT

SIMS = ("cos_title", "cos_content", "cos_text", "cos_title_content", "cos_content_title")
#: The forward selection's four features (the first candidate); the shipped model keeps the two that transfer.
SELECTED4 = ("title_jaccard", "mutual_rank_text", "log_between", "idf_max_shared")
SETS: dict[str, tuple[str, ...]] = {
    "default": rj.DEFAULT_FEATURES,
    "base7": (*SIMS, "log_gap_days", "log_between"),
    "selected4+sims": (*SELECTED4, *SIMS),
    "selected4+ranks": (*SELECTED4, "log_rank_text", "log_rank_title", "top_text", "margin_text"),
    "selected4+cues": (*SELECTED4, "replacement_cues", "negation_cues", "log_words_older"),
    "selected4+title": (*SELECTED4, "title_idf_share", "mutual_rank_title", "cos_title"),
    "all": FEATURES,
    "selected4": SELECTED4,
}
for dropped in SELECTED4:
    SETS[f"selected4-{dropped}"] = tuple(f for f in SELECTED4 if f != dropped)


def error_classes(repo: rj.RepoPairs, proba: np.ndarray, threshold: float) -> Counter:
    """Direct gold pairs missed and pairs wrongly answered SUPERSEDE, by what the features saw."""
    from memlab.strategies.judge.record_features import FEATURES

    rank, mutual = FEATURES.index("log_rank_text"), FEATURES.index("mutual_rank_text")
    said = {p for p, q in zip(repo.pairs, proba, strict=True) if q >= threshold}
    olders = {o for o, _ in repo.gold}
    newers = {n for _, n in repo.gold}
    out: Counter = Counter()
    for k, pair in enumerate(repo.pairs):
        top = repo.rows[k, rank] == 0.0
        best_later = repo.rows[k, mutual] == 0.0
        if pair in repo.gold and pair not in said:
            where = "top1" if top else "not_top1"
            out[
                f"miss: older {where} among newer's earlier by text, newer {'' if best_later else 'not '}mutual best"
            ] += 1
        elif pair in said and pair not in rj.closure(repo.gold):
            if pair[1] in newers:
                out["false: newer supersedes another older"] += 1
            elif pair[0] in olders:
                out["false: older superseded by another newer"] += 1
            else:
                out["false: neither record in any gold pair (topic neighbours)"] += 1
    return out


def evaluate(data: list[rj.RepoPairs], features: tuple[str, ...], models_out: Path | None = None) -> dict:
    """Nested LORO over ``data`` for one feature set."""
    folds, total, errors = {}, np.zeros(3, dtype=int), Counter()
    for held in data:
        rest = [d for d in data if d is not held]
        model, card = rj.train(rest, features)
        proba = rj.probabilities(model, held)
        tp, fp, fn = rj.counts(held, proba, card["threshold"])
        errors += error_classes(held, proba, card["threshold"])
        total += (tp, fp, fn)
        folds[held.name] = {"tp": tp, "fp": fp, "fn": fn, "threshold": card["threshold"]}
        if models_out is not None:
            card["command"] = f"experiments/adr_decisions/loro.py --models-out (fold {held.name} held out)"
            card["excluded"] = [held.name]
            save(model, card, models_out / f"{held.name}.json")
    return {"pooled": rj.f1_of(*map(int, total)), "tp_fp_fn": total.tolist(), "folds": folds, "errors": errors}


def main() -> None:
    """Run and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models-out", type=Path, default=None)
    parser.add_argument("--sets", default=",".join(SETS))
    args = parser.parse_args()
    histories = rj.load_repos(rj.default_folder(), split="dev")
    embed = rj.embedder(str(PROJECT_ROOT / ".cache"))
    data = [rj.repo_pairs(h, embed) for h in histories]
    text_only = [rj.repo_pairs(h, embed, k_summary=0) for h in histories]
    gold = sum(len(d.gold) for d in data)
    print(json.dumps({
        "repos": len(data), "gold_supersede": gold, "pairs": sum(len(d.pairs) for d in data),
        "candidate_recall_text_and_title_knn": sum(d.n_gold_reached for d in data) / gold,
        "candidate_recall_text_knn_only": sum(d.n_gold_reached for d in text_only) / gold,
    }), flush=True)  # fmt: skip
    for name in args.sets.split(","):
        out = args.models_out if name == "default" else None
        result = evaluate(data, SETS[name], out)
        pooled = {k: round(v, 3) for k, v in result["pooled"].items()}
        print(json.dumps({"set": name, **pooled, "tp_fp_fn": result["tp_fp_fn"]}), flush=True)
        if name == "default":
            print(json.dumps({"set": name, "folds": result["folds"]}), flush=True)
            print(json.dumps({"set": name, "errors": dict(sorted(result["errors"].items()))}), flush=True)


if __name__ == "__main__":
    main()
