"""Evidence recall@k, the LoCoMo paper's definition (pure functions).

recall@k of a question = fraction of its evidence ids found among the top k retrieved units; for a question
with no (resolvable) evidence it is undefined (``None``) and the question is left out of the means (the paper
counts it as 1; the benchmark reports how many there were, ``n_no_evidence_cat1_4``).
Session level: the ranking of sessions is the order in which the turn ranking first reaches each session
(max-pooling), and the evidence is the set of sessions holding the evidence turns.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

KS = (1, 5, 10, 25)


def recall_at_k(ranked: Sequence[str], evidence: Collection[str], k: int) -> float | None:
    """Fraction of ``evidence`` in ``ranked[:k]``; ``None`` (undefined) when ``evidence`` is empty."""
    gold = set(evidence)
    if not gold:
        return None
    return len(gold & set(ranked[:k])) / len(gold)


def session_of(dia_id: str) -> str:
    """``D12:3`` -> ``S12`` (the session a dialogue id belongs to)."""
    return "S" + dia_id.split(":", 1)[0].lstrip("D")


def session_ranking(ranked_turns: Sequence[str]) -> list[str]:
    """Sessions in the order the turn ranking first reaches them."""
    seen: dict[str, None] = {}
    for dia in ranked_turns:
        seen.setdefault(session_of(dia), None)
    return list(seen)


def recall_row(
    ranked_turns: Sequence[str], evidence: Collection[str], ks: Sequence[int] = KS
) -> dict[str, float | None]:
    """``recall_at_{k}_turn`` and ``recall_at_{k}_session`` for one question (``None`` with no evidence)."""
    sessions = session_ranking(ranked_turns)
    gold_sessions = {session_of(e) for e in evidence}
    row: dict[str, float | None] = {}
    for k in ks:
        row[f"recall_at_{k}_turn"] = recall_at_k(ranked_turns, evidence, k)
        row[f"recall_at_{k}_session"] = recall_at_k(sessions, gold_sessions, k)
    return row
