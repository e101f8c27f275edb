"""Choose the re-capture judge's thresholds by leave-one-namespace-out on the developers' labels.

For each labelled namespace: pick ``(min_share, min_chars)`` with the best DUPLICATE F1 on the high-confidence
pairs that touch none of its records, then score that choice on the pairs that touch it. The shipped thresholds
are the choice on all pairs. The grid stops at a share of 0.3: the labels list every pair whose windows share at
least that much (datasets/gitnotes_labels/README.md), so below it a prediction could not be checked. Reads only
the labelled namespaces (the sealed ``decisions`` and ``blockers`` never).

    python experiments/gitnotes_real/recapture_lono.py [--notes FILE] [--labels FILE]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from memlab.data.gitnotes_real.labels import load_labels, record_key
from memlab.data.gitnotes_real.loader import load_notes
from memlab.strategies.judge.recapture import cut_edges, passage, window_overlap

ROOT = Path(__file__).resolve().parents[2]
SHARES = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
CHARS = (10, 20, 40, 80, 160)


def f1(rows: list[tuple[int, float, bool]], share: float, chars: int) -> tuple[float, float, float]:
    """F1, precision and recall of DUPLICATE at the thresholds on ``(size, share, gold)`` rows."""
    tp = sum(1 for size, s, dup in rows if dup and size >= chars and s >= share)
    pred = sum(1 for size, s, _ in rows if size >= chars and s >= share)
    gold = sum(1 for *_, dup in rows if dup)
    p, r = tp / pred if pred else 0.0, tp / gold if gold else 0.0
    return (2 * p * r / (p + r) if p + r else 0.0), p, r


def best(rows: list[tuple[int, float, bool]]) -> tuple[float, int]:
    """The thresholds of the grid with the best F1 on ``rows``."""
    # ties: the larger share, then the larger minimum (the stricter rule)
    return max(((s, c) for s in SHARES for c in CHARS), key=lambda sc: (round(f1(rows, *sc)[0], 6), sc))


def main() -> None:
    """Print the leave-one-namespace-out figures and the choice on all pairs as JSON."""
    data = Path(os.environ.get("MEMLAB_DATA_DIR", ROOT.parent / "shared" / "datasets"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", default=str(data / "git-notes-memory-notes" / "notes.jsonl"))
    ap.add_argument("--labels", default=str(ROOT / "datasets" / "gitnotes_labels" / "dev.json"))
    args = ap.parse_args()
    labels = load_labels(args.labels)
    text: dict[str, tuple[str, tuple[bool, bool]]] = {}
    for memory in load_notes(args.notes):
        if memory.namespace in labels.namespaces:  # the sealed namespaces are never read
            key = record_key(memory.namespace, memory.summary, memory.content)
            text.setdefault(key, (passage(memory), cut_edges(memory)))
    rows: list[tuple[int, float, bool, set[str]]] = []
    for (older, newer), relation in labels.pairs.items():
        (a, cut_a), (b, cut_b) = text[older], text[newer]
        size, share = window_overlap(a, b, 3, (cut_a, cut_b))  # as RecaptureJudge.read
        spaces = {labels.namespace_of[older], labels.namespace_of[newer]}
        rows.append((size, share, relation == "DUPLICATE", spaces))
    folds = {}
    for ns in labels.namespaces:
        train = [r[:3] for r in rows if ns not in r[3]]
        test = [r[:3] for r in rows if ns in r[3]]
        if not any(r[2] for r in test):
            continue
        share, chars = best(train)
        f, p, r = f1(test, share, chars)
        folds[ns] = {
            "min_share": share,
            "min_chars": chars,
            "pairs": len(test),
            "f1": round(f, 3),
            "precision": round(p, 3),
            "recall": round(r, 3),
        }
    share, chars = best([r[:3] for r in rows])
    f, p, r = f1([r[:3] for r in rows], share, chars)
    print(
        json.dumps(
            {
                "pairs": len(rows),
                "duplicates": sum(r[2] for r in rows),
                "lono": folds,
                "chosen": {
                    "min_share": share,
                    "min_chars": chars,
                    "f1_all": round(f, 3),
                    "precision_all": round(p, 3),
                    "recall_all": round(r, 3),
                },
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
