"""Leave-one-conversation-out estimate of LoCoMo temporal date accuracy, retriever settings chosen inside the folds.

Runs ``+experiment=locomo_temporal`` once per retriever variant (each an ordinary tracked run whose temporal rows
keep their selected context), then answers every temporal question from those cached contexts under every point
of the experiment's answer grid (``dataset.cv_grid``). For each conversation, the (retriever variant, answer
setting) pair with the best date accuracy on date-like gold over the *other* conversations answers it. Prints
the estimate with its bootstrap 95% interval, the choice per fold and the per-conversation table; writes them as
JSON (``--json``) and logs them as one more run (``loocv-…``) in the same MLflow experiment.

    PYTHONPATH=$PWD python experiments/locomo_temporal/loocv.py --json /tmp/loocv.json
    PYTHONPATH=$PWD python experiments/locomo_temporal/loocv.py --variant tuned= \
        --variant "plain=retriever.bm25_window=0"

A variant is ``name=override[,override...]`` (empty: the experiment as it is). Each variant's predictions are
cached under ``--cache`` by config hash and git commit, so a rerun re-scores without re-running the episodes
(several minutes each here).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memlab.benchmarks.locomo.cv import CV_METRIC, answer_grid, expand_grid, loocv  # noqa: E402
from memlab.benchmarks.metrics import bootstrap_ci  # noqa: E402
from memlab.run import run  # noqa: E402
from memlab.wiring.build import build_node, config_hash  # noqa: E402
from memlab.wiring.config import compose  # noqa: E402

#: Retriever variants: the experiment's tuned retriever (retriever=hybrid_locomo), the same without the one-turn
#: BM25 window, and the hybrid retriever as shipped (conf/retriever/hybrid.yaml).
DEFAULT_VARIANTS: dict[str, list[str]] = {
    "tuned": [],
    "no_window": ["retriever.bm25_window=0"],
    "hybrid_defaults": ["retriever=hybrid"],
}


def variant_rows(name: str, overrides: list[str], tracking: list[str], cache: Path) -> tuple[list[dict], dict]:
    """Prediction rows and the resolved config of one variant (run once, then read from the cache)."""
    from memlab.observability import provenance

    cfg = compose(["+experiment=locomo_temporal", *tracking, *overrides])
    key = config_hash([{k: v for k, v in cfg.items() if k != "tracking"}, provenance.git_state()])
    path = cache / f"{name}-{key}.jsonl"
    if not path.is_file():
        outcome = run(cfg, Path(tempfile.mkdtemp(prefix=f"loocv-{name}-")), overrides=overrides)
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r, default=str) + "\n" for r in outcome.result.predictions))
        m = outcome.metrics
        print(f"{name}: run {outcome.run_id} plain {m.get(CV_METRIC, 0):.3f} cv {m.get('cv_' + CV_METRIC, 0):.3f}")
    return [json.loads(line) for line in path.read_text().splitlines()], cfg


def mean(values) -> float:
    """Mean of an iterable (0 when empty)."""
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def main(argv: list[str] | None = None) -> int:
    """Run the variants, choose inside each fold, print and record the estimate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=None, help="MLflow tracking URI (default: the config's)")
    parser.add_argument("--variant", action="append", default=[], help="name=override[,override...]")
    parser.add_argument("--cache", type=Path, default=ROOT / ".cache" / "locomo_loocv")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    tracking = ["tracking=mlflow", f"tracking.uri={args.store}"] if args.store else ["tracking=mlflow"]
    variants = DEFAULT_VARIANTS
    if args.variant:
        variants = {v.split("=", 1)[0]: [o for o in v.split("=", 1)[1].split(",") if o] for v in args.variant}
    settings, values, answers_by = [], [], {}
    cfg = None
    for name, overrides in variants.items():
        rows, cfg = variant_rows(name, overrides, tracking, args.cache)
        rows = [r for r in rows if not r.get("flagged")]
        grid = cfg["dataset"]["cv_grid"]
        points = [{**cfg["dataset"]["answer"], **p} for p in expand_grid(grid)]
        answers = answer_grid(rows, build_node(cfg["temporal"], "temporal"), points)
        datelike = {r["qid"]: r["conversation"] for r in rows if r["category"] == 2 and r.get("gold_datelike")}
        answers_by[name] = (points, answers, datelike)
        for point, answer in zip(points, answers, strict=True):
            settings.append({"variant": name, "answer": point})
            values.append({q: float(answer[q]["date_correct"]) for q in datelike})
    groups = next(iter(answers_by.values()))[2]
    folds, pooled = loocv(values, groups)
    estimate = [pooled[q] for q in sorted(pooled)]
    low, high = bootstrap_ci(estimate, seed=0)
    conversations = sorted(set(groups.values()))
    result = {
        "metric": CV_METRIC,
        "estimate": mean(estimate),
        "ci95": [low, high],
        "n": len(estimate),
        "variants": variants,
        "grid": cfg["dataset"]["cv_grid"] if cfg else {},
        "folds": [
            {"heldout": f.heldout, **settings[f.chosen], "train": f.train_score, "heldout_score": f.heldout_score,
             "n": f.n_heldout}
            for f in folds
        ],
        "in_sample_best": max(mean(v.values()) for v in values),
        "per_variant": {},
    }  # fmt: skip
    for name, (points, answers, datelike) in answers_by.items():
        sub_folds, sub_pooled = loocv([{q: float(a[q]["date_correct"]) for q in datelike} for a in answers], datelike)
        default = next(i for i, p in enumerate(points) if p == cfg["dataset"]["answer"]) if cfg else 0
        per_conv = {c: mean(float(answers[default][q]["date_correct"]) for q, g in datelike.items() if g == c)
                    for c in conversations}  # fmt: skip
        result["per_variant"][name] = {
            "plain_default": mean(float(answers[default][q]["date_correct"]) for q in datelike),
            "plain_default_per_conversation": per_conv,
            "loocv_answer_only": mean(sub_pooled.values()),
            "loocv_answer_only_per_conversation": {f.heldout: f.heldout_score for f in sub_folds},
        }
    print(render(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    log(result, cfg, tracking)
    return 0


def render(result: dict) -> str:
    """The estimate, the folds and the per-conversation table as Markdown."""
    lines = [
        f"LOOCV {result['metric']} = {result['estimate']:.3f} "
        f"(95% CI {result['ci95'][0]:.3f}–{result['ci95'][1]:.3f}, n={result['n']}); "
        f"best single setting in-sample {result['in_sample_best']:.3f}",
        "",
        "| held-out | variant | answer setting | train | held-out |",
        "|---|---|---|---|---|",
    ]
    grid = result["grid"]
    for f in result["folds"]:
        setting = ", ".join(f"{k}={f['answer'][k]}" for k in grid)
        scores = f"{f['train']:.3f} | {f['heldout_score']:.3f}"
        lines.append(f"| {f['heldout']} ({f['n']}) | {f['variant']} | {setting} | {scores} |")
    convs = sorted(next(iter(result["per_variant"].values()))["plain_default_per_conversation"])
    lines += ["", "| variant | figure | " + " | ".join(convs) + " | all |", "|---|---|" + "---|" * (len(convs) + 1)]
    for name, v in result["per_variant"].items():
        for label, key in (("plain (default answer)", "plain_default"), ("LOOCV (answer grid)", "loocv_answer_only")):
            cells = " | ".join(f"{v[key + '_per_conversation'][c]:.3f}" for c in convs)
            lines.append(f"| {name} | {label} | {cells} | {v[key]:.3f} |")
    return "\n".join(lines)  # fmt: skip


def log(result: dict, cfg: dict | None, tracking: list[str]) -> None:
    """One MLflow run holding the estimate, the folds' choices and the JSON."""
    if cfg is None:
        return
    from memlab.observability import provenance

    tracker = build_node(compose(["+experiment=locomo_temporal", *tracking])["tracking"], "tracking")
    sha, dirty = provenance.git_state()
    tags = {"memlab.experiment": "locomo_temporal", "memlab.git_sha": sha, "memlab.kind": "loocv"}
    tags["memlab.git_dirty"] = str(dirty).lower()
    params = {"variants": json.dumps(result["variants"]), "grid": json.dumps(result["grid"])}
    tracker.start(f"loocv-{config_hash(result['variants'])}", params, tags)
    name = f"loocv_{result['metric']}"
    metrics = {name: result["estimate"], f"{name}_ci_low": result["ci95"][0], f"{name}_ci_high": result["ci95"][1]}
    metrics["in_sample_best"] = result["in_sample_best"]
    metrics.update({f"loocv_heldout_{f['heldout']}": f["heldout_score"] for f in result["folds"]})
    tracker.log_metrics(metrics)
    folder = Path(tempfile.mkdtemp(prefix="loocv-"))
    (folder / "loocv.json").write_text(json.dumps(result, indent=1) + "\n")
    (folder / "loocv.md").write_text(render(result) + "\n")
    tracker.log_artifacts(folder)
    tracker.finish("FINISHED")


if __name__ == "__main__":
    sys.exit(main())
