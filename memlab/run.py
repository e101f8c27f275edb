"""One benchmark run: freeze config, build, run, evaluate, track. Imports neither Hydra nor MLflow."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from memlab import provenance
from memlab.benchmarks.base import Benchmark, BenchmarkResult
from memlab.build import STRATEGY_GROUPS, build, build_components
from memlab.errors import MemlabError


@dataclass(frozen=True)
class RunOutcome:
    """What a run returns to its caller (the console, a sweeper, a test)."""

    run_id: str | None
    metrics: dict[str, float]
    main_metric: str
    output_dir: Path
    ui_command: str | None
    result: BenchmarkResult

    @property
    def main_value(self) -> float:
        """Value of the main metric (what sweepers optimise)."""
        return float(self.metrics.get(self.main_metric, float("nan")))


def seed_everything(seed: int) -> None:
    """Seed python's and numpy's global generators (strategies take explicit seeds where they draw)."""
    random.seed(seed)
    np.random.seed(seed % (2**32))


def write_outputs(folder: Path, cfg: Mapping[str, Any], result: BenchmarkResult) -> None:
    """Write the run's artifacts: resolved config, predictions, result, tier plot, extra files."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(cfg, indent=1, sort_keys=True, default=str) + "\n")
    with (folder / "predictions.jsonl").open("w", encoding="utf-8") as fh:
        for record in result.predictions:
            fh.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
    summary = {"metrics": result.metrics, "dataset": asdict(result.card), "info": result.info}
    (folder / "result.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False, default=str) + "\n")
    if result.tier_counts is not None:
        from memlab.plots import tier_distribution_png

        tier_distribution_png(result.tier_counts, folder / "tier_distribution.png")
    for name, data in result.artifacts.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def copy_strategy_artifacts(components: Any, folder: Path) -> list[Path]:
    """Copy the files strategies used (a strategy's ``artifact_path``, e.g. the learned judge's model) into
    ``folder/models/<group>/`` so they are logged with the run and can be loaded by path later; a JSON card
    beside the file (same stem) is copied too.

    Returns:
        The copied files.
    """
    import shutil

    copied: list[Path] = []
    for group in STRATEGY_GROUPS:
        path = getattr(getattr(components, group, None), "artifact_path", None)
        if not path or not Path(path).is_file():
            continue
        target = folder / "models" / group
        target.mkdir(parents=True, exist_ok=True)
        for source in (Path(path), Path(path).with_suffix(".json")):
            if source.is_file():
                copied.append(Path(shutil.copy2(source, target / source.name)))
    return copied


def run(cfg: Mapping[str, Any], output_dir: str | Path, *, sweep_id: str | None = None) -> RunOutcome:
    """Run the benchmark a resolved config describes and record it.

    Args:
        cfg: The resolved config as plain containers (``OmegaConf.to_container(cfg, resolve=True)``).
        output_dir: Folder for this run's files (Hydra's run directory, or a temporary one in tests).
        sweep_id: Identifier of the ``--multirun`` sweep this run belongs to (one parent run per sweep).

    Returns:
        The outcome; ``main_value`` is what ``python -m memlab`` returns to a sweeper.
    """
    output_dir = Path(output_dir)
    seed = int(cfg.get("seed", 0))
    seed_everything(seed)
    components = build_components(cfg)
    benchmark = build(cfg["dataset"], "dataset")
    if not isinstance(benchmark, Benchmark):
        raise MemlabError(f"dataset target {cfg['dataset'].get('_target_')} is not a Benchmark; fix conf/dataset/")
    tracker = build(cfg["tracking"], "tracking")

    sha, dirty = provenance.git_state()
    chash = provenance.config_hash(cfg)
    tags = {
        "memlab.config_hash": chash,
        "memlab.git_sha": sha,
        "memlab.git_dirty": str(dirty).lower(),
        "memlab.experiment": str(cfg.get("experiment_name", "default")),
        "memlab.dataset": f"{benchmark.name}@{benchmark.version}",
        "memlab.tags": ",".join(map(str, cfg.get("tags") or [])),
        **{f"memlab.version.{k}": v for k, v in provenance.library_versions().items()},
        **{
            f"memlab.strategy.{g}": f"{getattr(components, g).name}@{getattr(components, g).version}"
            for g in STRATEGY_GROUPS
        },
    }
    run_name = f"{benchmark.name}-{chash}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S%f')}"
    params = provenance.flatten({k: v for k, v in cfg.items() if k not in ("tracking",)})
    run_id = tracker.start(run_name, params, tags, sweep_id=sweep_id)
    try:
        result = benchmark.run(components, seed)
        tracker.set_tags(
            {
                "memlab.dataset_sha256": result.card.sha256,
                "memlab.dataset_licence": result.card.licence,
                "memlab.main_metric": result.card.main_metric,
            }
        )
        write_outputs(output_dir, cfg, result)
        copy_strategy_artifacts(components, output_dir)
        tracker.log_metrics(result.metrics)
        tracker.log_artifacts(output_dir)
    except BaseException:
        tracker.finish("FAILED")
        raise
    tracker.finish("FINISHED")
    return RunOutcome(run_id, dict(result.metrics), result.card.main_metric, output_dir, tracker.ui_command(), result)
