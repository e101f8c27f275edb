"""Pairwise evaluation of a judge on candidate pairs: ``relation_f1_{duplicate,supersede,merge,coexist}``.

Pairs and labels as for training (:func:`~memlab.training.judge.candidate_pairs`:
kNN candidates plus gold pairs; SUPERSEDE includes the transitive closure of the gold chains; pairs absent
from the gold are COEXIST). This scores the judge alone, on the pairs the pipeline would show it, unlike
``supersession_f1`` which scores the chains the whole pipeline builds.

Command: ``memlab eval judge --judge slot --seeds 0-2 [--override judge.x=y ...]``.
"""

from __future__ import annotations

from typing import Any

from memlab.core.types import Relation


def relation_f1(gold: list[str], predicted: list[str]) -> dict[str, float]:
    """One-vs-rest F1 per relation (``relation_f1_<name>``) and the pair count; 0.0 for a class never seen."""
    out: dict[str, float] = {}
    for rel in Relation:
        tp = sum(g == p == rel.value for g, p in zip(gold, predicted, strict=True))
        n_pred = sum(p == rel.value for p in predicted)
        n_gold = sum(g == rel.value for g in gold)
        f1 = 2 * tp / (n_pred + n_gold) if n_pred + n_gold else 0.0
        out[f"relation_f1_{rel.value.lower()}"] = f1
    out["n_pairs"] = float(len(gold))
    return out


def evaluate(
    option: str,
    seeds: str,
    *,
    dataset: str = "generator",
    size: int = 400,
    embedder: str = "minilm",
    k: int = 20,
    min_similarity: float = 0.2,
    overrides: list[str] | None = None,
) -> dict[str, float]:
    """Pairwise relation F1 of the judge ``option`` over the candidate pairs of histories ``seeds``."""
    from memlab.training.judge import candidate_pairs, make_embedder, make_history, parse_seeds

    judge = _build_judge(option, list(overrides or []))
    emb = make_embedder(embedder)
    gold: list[str] = []
    pred: list[str] = []
    for seed in parse_seeds(seeds):
        judge.set_eval_seed(seed)  # a judge trained on seeds checks each evaluation seed (JudgeBase)
        history = make_history(dataset, seed, size)
        judge.observe(list(history.memories))  # as the pipeline does: the whole store before its pairs
        for older, newer, sim, label in candidate_pairs(history, emb, k, min_similarity):
            gold.append(label)
            pred.append(judge.judge(older, newer, sim).relation.value)
    return relation_f1(gold, pred)


def _build_judge(option: str, overrides: list[str]) -> Any:
    from memlab.wiring.build import build
    from memlab.wiring.config import compose

    return build(compose([f"judge={option}", *overrides])["judge"], "judge")
