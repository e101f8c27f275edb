"""One-at-a-time ablation of the LoCoMo policy: each strategy group swapped for its ``none`` (or another option).

Runs ``+experiment=locomo_temporal`` and one variant per group through :func:`memlab.run.run` (tracked in
the MLflow store given by ``--store``), then prints a Markdown table: each metric of the full policy, and
each variant's difference to it with a paired 95% bootstrap interval over the questions (the same
questions answered by both policies).

    PYTHONPATH=$PWD python experiments/locomo_temporal/ablation.py --store sqlite:////tmp/ablation.db
    PYTHONPATH=$PWD python experiments/locomo_temporal/ablation.py --conversations conv-26,conv-30 \
        --variant "deep=pipeline.recall_mode=deep" --variant "knapsack=selector=knapsack"

Variants are ``name=override[,override...]``; without ``--variant`` the default one-at-a-time set runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memlab.run import run  # noqa: E402
from memlab.wiring.config import compose  # noqa: E402

#: The one-at-a-time set: each strategy group of the policy swapped for its ``none`` option.
DEFAULT_VARIANTS: dict[str, list[str]] = {
    "retention=none": ["retention=none"],
    "clusterer=none": ["clusterer=none"],
    "summarizer=none": ["summarizer=none"],
    "judge=none": ["judge=none"],
    "selector=none": ["selector=none"],
    "retriever=none": ["retriever=none"],
}
#: Per-question values compared (row key, restricted to categories 1-4 unless it is a temporal metric).
METRICS: dict[str, str] = {
    "evidence_recall_at_budget": "evidence_recall_at_budget",
    "temporal_date_acc_datelike": "date_correct",
    "temporal_f1": "f1",
    "context_tokens": "context_tokens",
}


def values(rows: list[dict], metric: str) -> dict[str, float]:
    """Question id -> the per-question value behind ``metric``."""
    key = METRICS[metric]
    out = {}
    for r in rows:
        if r.get("flagged"):
            continue
        if metric.startswith("temporal"):
            if r["category"] != 2 or key not in r or (metric.endswith("datelike") and not r.get("gold_datelike")):
                continue
        elif r["category"] not in (1, 2, 3, 4):
            continue
        out[r["qid"]] = float(r[key])
    return out


def paired(base: dict[str, float], other: dict[str, float], n_boot: int = 2000, seed: int = 0):
    """Mean difference ``other - base`` over shared questions and its 95% percentile-bootstrap interval."""
    ids = sorted(set(base) & set(other))
    if not ids:
        return 0.0, 0.0, 0.0
    diff = np.array([other[i] - base[i] for i in ids])
    rng = np.random.default_rng(seed)
    means = diff[rng.integers(0, len(diff), size=(n_boot, len(diff)))].mean(axis=1)
    return float(diff.mean()), float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def run_variant(overrides: list[str], store: str | None, out: Path) -> tuple[dict, list[dict]]:
    """Metrics and per-question rows of one run."""
    tracking = ["tracking=mlflow", f"tracking.uri={store}"] if store else []
    cfg = compose(["+experiment=locomo_temporal", *tracking, *overrides])
    outcome = run(cfg, out, overrides=overrides)
    return outcome.metrics, outcome.result.predictions


def main(argv: list[str] | None = None) -> int:
    """Run the base policy and the variants; print the table (and write it as JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=None, help="MLflow tracking URI (default: no tracking)")
    parser.add_argument("--conversations", default=None, help="comma-separated conversation ids (default: all)")
    parser.add_argument("--base", action="append", default=[], help="extra override of the base policy")
    parser.add_argument("--variant", action="append", default=[], help="name=override[,override...]")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    common = list(args.base)
    if args.conversations:
        common.append(f"dataset.conversations=[{args.conversations}]")
    variants = DEFAULT_VARIANTS
    if args.variant:
        variants = {v.split("=", 1)[0]: v.split("=", 1)[1].split(",") for v in args.variant}
    tmp = Path(tempfile.mkdtemp(prefix="ablation-"))
    base_metrics, base_rows = run_variant(common, args.store, tmp / "base")
    results = {"base": {"overrides": common, "metrics": {m: base_metrics.get(m) for m in METRICS}}}
    header = "| variant | " + " | ".join(METRICS) + " |"
    lines = [header, "|" + "---|" * (len(METRICS) + 1)]
    lines.append("| full policy | " + " | ".join(f"{base_metrics.get(m, float('nan')):.3f}" for m in METRICS) + " |")
    for name, overrides in variants.items():
        metrics, rows = run_variant([*common, *overrides], args.store, tmp / name.replace("=", "_"))
        cells = []
        record = {}
        for m in METRICS:
            d, lo, hi = paired(values(base_rows, m), values(rows, m))
            cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]")
            record[m] = {"value": metrics.get(m), "diff": d, "ci95": [lo, hi]}
        results[name] = {"overrides": overrides, "metrics": record}
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
