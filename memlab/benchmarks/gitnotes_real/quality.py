"""Pure scorers of a policy on hand-labelled real notes (:mod:`.labels`): what the block shows, which pairs it relates.

Everything is scored per distinct record (a label key): a record's copies share its key, and a pair of keys is
related when any copies are. Only labelled records count; a rate with an empty denominator is absent.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from memlab.benchmarks.metrics import ci_metrics, precision_recall_f1, ratio
from memlab.data.gitnotes_real.labels import KINDS, NotesLabels

Pair = frozenset[str]
#: Relations scored per pair, with the metric stem each is reported under.
SCORED = {"DUPLICATE": "dup", "MERGE": "amend", "SUPERSEDE": "supersede"}


def block_quality(block_keys: Sequence[str], labels: NotesLabels, present: Collection[str]) -> dict[str, float | None]:
    """Kinds of the records the block shows, and how many labelled memories it covers.

    Args:
        block_keys: Keys of the block's items, in block order (a summary stands for a labelled memory it
            cites, else for one of its labelled sources).
        labels: The labels.
        present: Keys of the records in the run's data (coverage counts only those).

    Returns:
        ``block_nonmemory_share`` (labelled items that are not memories: the main metric; its 95% bootstrap
        interval over those items as ``_ci_low`` / ``_ci_high``, absent with no labelled item), ``block_share_<kind>``,
        ``n_block_items``, ``n_block_labelled``, ``block_memory_coverage`` (labelled memories shown / labelled
        memories present) with ``n_labelled_memories``.
    """
    labelled = [labels.kinds[k] for k in block_keys if k in labels.kinds]
    out: dict[str, float | None] = {
        "n_block_items": float(len(block_keys)),
        "n_block_labelled": float(len(labelled)),
        "block_nonmemory_share": ratio(sum(kind != "memory" for kind in labelled), len(labelled)),
        **ci_metrics("block_nonmemory_share", [float(kind != "memory") for kind in labelled]),
    }
    for kind in KINDS:
        out[f"block_share_{kind}"] = ratio(labelled.count(kind), len(labelled))
    memories = {k for k in present if labels.kinds.get(k) == "memory"}
    out["n_labelled_memories"] = float(len(memories))
    out["block_memory_coverage"] = ratio(len(memories & set(block_keys)), len(memories))
    return out


def related_keys(clusters: Iterable[Collection[str]]) -> set[Pair]:
    """Every pair of distinct keys that share a cluster (the records a policy collapsed into one)."""
    out: set[Pair] = set()
    for cluster in clusters:
        keys = sorted(set(cluster))
        out.update(frozenset((a, b)) for i, a in enumerate(keys) for b in keys[i + 1 :])
    return out


def pair_quality(
    predicted: Mapping[str, set[Pair]],
    labels: NotesLabels,
    present: Collection[str],
    identical: Collection[Pair] = (),
) -> dict[str, float | None]:
    """Precision, recall and F1 per relation (``dup``, ``amend``, ``supersede``) on the labelled pairs.

    Args:
        predicted: Relation -> key pairs the policy relates that way (DUPLICATE: :func:`related_keys` of its
            duplicate clusters; MERGE, SUPERSEDE: its edges).
        labels: The labels (low-confidence pairs count in neither direction).
        present: Keys of the records in the run's data.
        identical: Gold pairs whose records have the same content (``dup_found_identical`` versus
            ``dup_found_reworded``).

    A predicted pair is scored when both records are labelled and present, and the pair is listed in the labels
    or the labels are complete (``pairs_complete``). Duplicates are compared as clusters on both sides: records
    the labels chain as duplicates (two shifted windows over one passage each with a third) are one memory
    (:func:`related_keys` of the labelled duplicates' connected records).
    """
    scope = set(present) & set(labels.namespace_of)
    listed = {frozenset(p): r for p, r in labels.pairs.items() if set(p) <= scope}
    chained = related_keys(connected(p for p, r in listed.items() if r == "DUPLICATE"))
    listed.update(dict.fromkeys(chained, "DUPLICATE"))
    unsure = {frozenset(p) for p in labels.unsure}

    def scored(pair: Pair) -> bool:
        return pair <= scope and pair not in unsure and len(pair) == 2 and (labels.complete or pair in listed)

    out: dict[str, float | None] = {}
    for relation, stem in SCORED.items():
        gold = {p for p, r in listed.items() if r == relation}
        pred = {p for p in predicted.get(relation, set()) if scored(p)}
        precision, recall, f1 = precision_recall_f1(pred, gold)
        out.update({f"{stem}_precision": precision, f"{stem}_recall": recall, f"{stem}_f1": f1})
        out[f"n_{stem}_gold"], out[f"n_{stem}_predicted"] = float(len(gold)), float(len(pred))
    gold_dup = {frozenset(p) for p, r in labels.pairs.items() if r == "DUPLICATE" and set(p) <= scope}
    same = {p for p in gold_dup if p in set(identical)}
    found = gold_dup & predicted.get("DUPLICATE", set())
    out["dup_found_identical"] = ratio(len(found & same), len(same))
    out["dup_found_reworded"] = ratio(len(found - same), len(gold_dup - same))
    out["n_dup_gold_identical"], out["n_dup_gold_reworded"] = float(len(same)), float(len(gold_dup - same))
    return out


def connected(pairs: Iterable[Pair]) -> list[set[str]]:
    """Connected records of an undirected pair list (a pair of one record's copies is a single key)."""
    root: dict[str, str] = {}

    def find(k: str) -> str:
        root.setdefault(k, k)
        while root[k] != k:
            root[k] = root[root[k]]
            k = root[k]
        return k

    for pair in pairs:
        a, *b = sorted(pair)
        root[find(a)] = find(b[0] if b else a)
    groups: dict[str, set[str]] = {}
    for k in list(root):
        groups.setdefault(find(k), set()).add(k)
    return list(groups.values())


def block_relations(block_keys: Sequence[str], labels: NotesLabels, present: Collection[str]) -> dict[str, float]:
    """What the block shows that the labels say it should not.

    Returns:
        ``dup_pairs_in_block``: labelled duplicate pairs with both records in the block; ``superseded_in_block``:
        records a later present record supersedes (a fixed blocker, a replaced choice) that the block still shows,
        of ``n_superseded_present``; ``blockers_fixed_shown``: those of namespace ``blockers``, of
        ``n_blockers_fixed``.
    """
    shown, scope = set(block_keys), set(present)
    dup = [p for p, r in labels.pairs.items() if r == "DUPLICATE" and set(p) <= shown]
    stale = {o for (o, n), r in labels.pairs.items() if r == "SUPERSEDE" and {o, n} <= scope}
    blockers = {k for k in stale if labels.namespace_of.get(k) == "blockers"}
    return {
        "dup_pairs_in_block": float(len(dup)),
        "superseded_in_block": float(len(stale & shown)),
        "n_superseded_present": float(len(stale)),
        "blockers_fixed_shown": float(len(blockers & shown)),
        "n_blockers_fixed": float(len(blockers)),
    }
