"""Pure metric functions of the history evaluation (edge cases pinned in tests/history).

Relation F1 over candidate pairs
--------------------------------
The gold label of an ``(older, newer)`` pair is its listed relation; a pair not listed but in the
transitive closure of the listed SUPERSEDE pairs is SUPERSEDE (``A→B→C``: C replaces A too); every other
pair is COEXIST. The predicted label of a pair is the relation of the edge the policy stored for it, and
COEXIST when it stored none (judged COEXIST, held for review, or never judged). Scores are computed over
the universe ``U`` = pairs the policy judged ∪ pairs listed in gold, so that

* a listed DUPLICATE/SUPERSEDE/MERGE pair that candidate generation never reached is a false negative;
* COEXIST is scored over judged pairs and the explicitly listed COEXIST pairs (the scoped variants):
  judged pairs absent from gold are gold COEXIST, and calling them anything else is a false positive of
  that relation and a false negative of COEXIST. Never-judged unlisted pairs (nearly all pairs) are left
  out, otherwise COEXIST would be trivially near 1.

Undefined values are absent (never 1.0 or 0.0 by convention): a relation's precision with no prediction of
it, its recall with no gold of it, its F1 with neither; the counts ``n_relation_{predicted,gold}_<relation>``
are logged beside them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from memlab.benchmarks.metrics import defined, precision_recall_f1
from memlab.core.types import Memory, Relation
from memlab.data.relations import transitive_closure

Pair = tuple[str, str]


def gold_labels(relations: Iterable[tuple[str, str, Relation]]) -> dict[Pair, Relation]:
    """Listed gold relations plus SUPERSEDE for the unlisted pairs of the SUPERSEDE closure."""
    listed: dict[Pair, Relation] = {}
    for older, newer, relation in relations:
        listed[(older, newer)] = relation
    supersede = [p for p, r in listed.items() if r is Relation.SUPERSEDE]
    labels = {p: Relation.SUPERSEDE for p in transitive_closure(supersede)}
    labels.update(listed)
    return labels


def relation_scores(
    judged: Iterable[Pair],
    predicted: Mapping[Pair, Relation],
    gold: Mapping[Pair, Relation],
    listed: Iterable[Pair],
) -> dict[str, float]:
    """``relation_{precision,recall,f1}_<relation>`` for the four relations (see the module docstring) and
    their counts ``n_relation_predicted_<relation>``, ``n_relation_gold_<relation>``.

    Args:
        judged: Pairs the policy judged.
        predicted: Relation of each pair the policy stored an edge for (others are COEXIST).
        gold: :func:`gold_labels` of the gold relations.
        listed: Pairs listed in gold (closure-only pairs count only when judged).

    An undefined score is absent (no prediction: precision; no gold: recall; neither: F1).
    """
    universe = set(judged) | set(predicted) | set(listed)
    out: dict[str, float | None] = {}
    for relation in Relation:
        pred = {p for p in universe if predicted.get(p, Relation.COEXIST) is relation}
        ref = {p for p in universe if gold.get(p, Relation.COEXIST) is relation}
        precision, recall, f1 = precision_recall_f1(pred, ref)
        key = relation.value.lower()
        out[f"relation_precision_{key}"] = precision
        out[f"relation_recall_{key}"] = recall
        out[f"relation_f1_{key}"] = f1
        out[f"n_relation_predicted_{key}"] = float(len(pred))
        out[f"n_relation_gold_{key}"] = float(len(ref))
    return defined(out)


def superseded_at(relations: Iterable[tuple[str, str, Relation]], timestamps: Mapping[str, datetime]) -> dict:
    """Gold time each memory stopped being true: the earliest timestamp of a listed superseder."""
    out: dict[str, datetime] = {}
    for older, newer, relation in relations:
        if relation is not Relation.SUPERSEDE:
            continue
        when = timestamps[newer]
        if older not in out or when < out[older]:
            out[older] = when
    return out


def stale_rate(ids: Sequence[str], stale_since: Mapping[str, datetime], now: datetime) -> float | None:
    """Fraction of ``ids`` superseded (in gold) at ``now``; ``None`` (undefined) for no ids."""
    if not ids:
        return None
    return sum(1 for i in ids if i in stale_since and stale_since[i] <= now) / len(ids)


def exact_duplicate_groups(memories: Iterable[Memory]) -> list[list[str]]:
    """Groups (size ≥ 2) of memories with identical summary and content (character for character), each
    in time order; groups ordered by their first member.
    """
    groups: dict[tuple[str, str], list[Memory]] = {}
    for m in memories:
        key = (m.summary, m.content)
        groups.setdefault(key, []).append(m)
    out = [sorted(g, key=lambda m: (m.timestamp, m.id)) for g in groups.values() if len(g) > 1]
    out.sort(key=lambda g: (g[0].timestamp, g[0].id))
    return [[m.id for m in g] for g in out]


def n_redundant(groups: Sequence[Sequence[str]]) -> int:
    """Redundant exact-duplicate records: all but the first of each group (``dup_collapsed_exact``'s count)."""
    return sum(max(0, len(g) - 1) for g in groups)


def dup_collapsed_exact(groups: Sequence[Sequence[str]], duplicate_of: Mapping[str, str | None]) -> float | None:
    """Fraction of redundant exact-duplicate records (all but the first of each group) that the policy
    marked as a duplicate (``duplicate_of`` set); ``None`` (undefined) when there are none.
    """
    redundant = [mid for g in groups for mid in g[1:]]
    if not redundant:
        return None
    return sum(1 for mid in redundant if duplicate_of.get(mid)) / len(redundant)


def compression_ratio(n_memories: int, n_retrievable: int) -> float | None:
    """Memories in per item still retrievable in standard mode (current, not duplicate, hot/warm).

    1.0 means nothing was collapsed; ``None`` (undefined) for no memories or nothing retrievable (count:
    ``n_retrievable``).
    """
    if n_memories <= 0 or n_retrievable <= 0:
        return None
    return n_memories / n_retrievable
