"""Leave-one-repository-out through the real pipeline: one ``+experiment=memory_files`` run per development
repository with the edit judge's fold model (trained without that repository, ``loro.py --models-out DIR``),
then the counts pooled over the folds.

    .venv/bin/python experiments/memory_files/pipeline_folds.py DIR [--cascade] [extra overrides ...]

``--cascade`` runs ``judge=cascade_edit`` with the fold model as its edit stage's model; without it, the experiment's
judge, ``judge=edit``. Extra overrides (``tracking.uri=...``) are passed on. Runs in one process (the embedding model
loads once); prints one JSON line per fold and the pooled line; every fold is an MLflow run of ``memory_files``
that ``memlab report memory_files`` pools as a LORO row.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from memlab.benchmarks import pooled
from memlab.benchmarks.memory_files.benchmark import RATES
from memlab.benchmarks.memory_files.scoring import COUNTS


def main() -> None:
    """Run and print (see the module docstring)."""
    from memlab.data.memory_files.corpus import repo_files
    from memlab.run import run
    from memlab.training.record_judge import default_folder
    from memlab.wiring.config import compose

    models = Path(sys.argv[1])
    cascade = "--cascade" in sys.argv[2:]
    extra = [a for a in sys.argv[2:] if a != "--cascade"]
    key = "judge.edit" if cascade else "judge"
    total = dict.fromkeys(COUNTS, 0.0)
    for path in repo_files(default_folder().parent / "memory-files", split="dev"):
        model = models / (path.stem + ".json")
        overrides = [
            "+experiment=memory_files",
            f"dataset.repos=[{path.stem}]",
            "judge=cascade_edit" if cascade else "judge=edit",
            f"{key}.model_path={model}",
            f"{key}.model_sha256=null",
            *extra,
        ]
        with tempfile.TemporaryDirectory() as out:
            metrics = run(compose(overrides), Path(out)).metrics
        for name in COUNTS:
            total[name] += float(metrics.get(name, 0.0))
        print(
            json.dumps(
                {"repo": path.stem, **{k: metrics.get(k) for k in ("block_current_precision", "replacement_f1")}}
            )
        )
    rates = {k: round(v, 4) for k, v in pooled.rates(total, RATES).items()}
    print(json.dumps({"pooled": rates, "counts": total}), flush=True)


if __name__ == "__main__":
    main()
