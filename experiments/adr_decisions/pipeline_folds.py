"""Leave-one-repository-out through the real pipeline: one ``+experiment=adr_decisions`` run per development
repository with the record judge's fold model (trained without that repository, ``loro.py --models-out``),
then the counts pooled over the folds (micro supersession P/R/F1, stale rate, current truth, candidate recall).

    .venv/bin/python experiments/adr_decisions/pipeline_folds.py DIR [--cascade] [extra overrides ...]

DIR holds ``<owner__name>.json`` fold models. ``--cascade`` runs the default judge (``judge=cascade``: the reference
reader first, the record judge on record stores) with the fold model as its record model; without it,
``judge=record``. Extra overrides (``dataset.refs=keep``, ``tracking.uri=...``) are passed on. Prints one JSON
line per fold and the pooled line; every fold is an MLflow run of ``adr_decisions`` that ``memlab report adr``
pools as a LORO row.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from memlab.training.record_judge import default_folder

COUNTS = (
    "n_supersession_tp", "n_supersession_fp", "n_supersession_fn", "n_stale_injected", "n_injected_facts",
    "n_current_correct", "n_current_queries", "n_gold_candidates", "n_gold_supersede", "n_gold_merge",
)  # fmt: skip


def run(repo: str, overrides: list[str]) -> dict[str, float]:
    """One pipeline run on one repository; its result.json metrics."""
    cmd = [sys.executable, "-m", "memlab", "+experiment=adr_decisions", "dataset.split=dev", f"dataset.repos=[{repo}]"]
    out = subprocess.run([*cmd, *overrides], capture_output=True, text=True, check=True).stdout
    folder = re.search(r"output dir: (\S+)", out)
    if folder is None:
        raise SystemExit(f"no output dir for {repo}:\n{out[-2000:]}")
    return json.loads((Path(folder.group(1)) / "result.json").read_text())["metrics"]


def pooled(total: dict[str, float]) -> dict[str, float]:
    """Rates of the pooled counts (a rate with an empty denominator is absent)."""
    tp, fp, fn = total["n_supersession_tp"], total["n_supersession_fp"], total["n_supersession_fn"]
    out = {}
    if tp + fp:
        out["precision"] = tp / (tp + fp)
    if tp + fn:
        out["recall"] = tp / (tp + fn)
    if tp + fp + fn:
        out["supersession_f1"] = 2 * tp / (2 * tp + fp + fn)
    if total["n_injected_facts"]:
        out["stale_rate_injected"] = total["n_stale_injected"] / total["n_injected_facts"]
    if total["n_current_queries"]:
        out["current_truth_at_1"] = total["n_current_correct"] / total["n_current_queries"]
    return {k: round(v, 4) for k, v in out.items()}


def main() -> None:
    """Run and print (see the module docstring)."""
    models = Path(sys.argv[1])
    cascade = "--cascade" in sys.argv[2:]
    extra = [a for a in sys.argv[2:] if a != "--cascade"]
    from memlab.data.adr.corpus import repo_files

    total = dict.fromkeys(COUNTS, 0.0)
    for path in repo_files(default_folder(), split="dev"):
        repo = path.stem
        model = models / (repo + ".json")
        if cascade:
            overrides = ["judge=cascade", f"judge.record.model_path={model}", "judge.record.model_sha256=null", *extra]
        else:
            overrides = ["judge=record", f"judge.model_path={model}", "judge.model_sha256=null", *extra]
        metrics = run(repo, overrides)
        for key in COUNTS:
            total[key] += float(metrics.get(key, 0.0))
        print(json.dumps({"repo": repo, **{k: metrics.get(k) for k in COUNTS}}), flush=True)
    print(json.dumps({"pooled": pooled(total), "counts": total}), flush=True)


if __name__ == "__main__":
    main()
