"""One benchmark run: freeze config, read the benchmark's card, build what it uses, run, score, track.

Imports neither Hydra nor MLflow. The card's ``uses`` decides which strategy groups are built (the others
are stand-ins that raise when touched), tagged and logged as params; an override of a group the card
does not declare is a one-line error before anything runs.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memlab.benchmarks.base import Benchmark, BenchmarkCard, BenchmarkResult, DatasetCard
from memlab.core.errors import MemlabError
from memlab.llm import accounting
from memlab.observability import provenance, trace
from memlab.observability.progress import say_cached
from memlab.wiring.build import GROUPS, SETTINGS_GROUPS, build_components, build_node, config_hash
from memlab.wiring.naming import RUNTIME_KEYS, run_name_for


@dataclass(frozen=True)
class RunOutcome:
    """What a run returns to its caller (the console, a sweeper, a test)."""

    run_id: str | None
    metrics: dict[str, float]
    main_metric: str
    output_dir: Path
    ui_command: str | None
    result: BenchmarkResult
    run_url: str | None = None
    skipped: bool = False
    headline: tuple[str, ...] = ()

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
        from memlab.observability.plots import tier_distribution_png

        tier_distribution_png(result.tier_counts, folder / "tier_distribution.png")
    for name, data in result.artifacts.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def overridden_groups(overrides: Sequence[str]) -> list[str]:
    """Strategy and settings groups that command-line overrides (``judge=slot``, ``pipeline.knn_k=5``,
    ``+retriever.rrf_k=10``) change, in order of appearance.
    """
    out: list[str] = []
    for item in overrides:
        key = item.split("=", 1)[0].lstrip("+~").split("@", 1)[0]
        root = key.split(".", 1)[0].split("/", 1)[0]
        if root in (*GROUPS, *SETTINGS_GROUPS) and root not in out:
            out.append(root)
    return out


def check_uses(card: BenchmarkCard, groups: Sequence[str]) -> None:
    """Refuse overrides of groups the benchmark does not use (a sweep over them would log identical runs).

    Raises:
        MemlabError: One line naming the groups the benchmark uses.
    """
    unused = [g for g in groups if g not in card.uses]
    if unused:
        raise MemlabError(
            f"dataset '{card.name}' does not use {', '.join(unused)}; it uses only {', '.join(card.uses)} "
            "(drop the override, or pick a dataset that uses it: `memlab list dataset`)"
        )


def run_params(cfg: Mapping[str, Any], uses: Sequence[str]) -> dict[str, Any]:
    """Flattened params of a run: everything but tracking and the groups the benchmark does not use."""
    skip = {"tracking", *(g for g in (*GROUPS, *SETTINGS_GROUPS) if g not in uses)}
    return provenance.flatten({k: v for k, v in cfg.items() if k not in skip})


def copy_strategy_artifacts(components: Any, folder: Path, groups: Sequence[str] = GROUPS) -> list[Path]:
    """Copy the files strategies used (a strategy's ``artifact_path``, e.g. the learned judge's model) into
    ``folder/models/<group>/`` so they are logged with the run and can be loaded by path later; the card
    beside the file (``<name>.card.json``) is copied too.

    Returns:
        The copied files.
    """
    import shutil

    copied: list[Path] = []
    for group in groups:
        path = getattr(components, group).artifact_path  # every strategy's base gives it (None: no file)
        if not path or not Path(path).is_file():
            continue
        target = folder / "models" / group
        target.mkdir(parents=True, exist_ok=True)
        from memlab.models.cards import card_path

        for source in (Path(path), card_path(Path(path))):
            if source.is_file():
                copied.append(Path(shutil.copy2(source, target / source.name)))
    return copied


def run_tags(
    cfg: Mapping[str, Any], card: BenchmarkCard, components: Any, used: Sequence[str], chash: str
) -> dict[str, str]:
    """The run's tags: config hash, git state, experiment, benchmark, main metrics, library and strategy versions."""
    sha, dirty = provenance.git_state()
    return {
        "memlab.config_hash": chash,
        "memlab.git_sha": sha,
        "memlab.git_dirty": str(dirty).lower(),
        "memlab.experiment": str(cfg.get("experiment_name", "default")),
        "memlab.dataset": f"{card.name}@{card.version}",
        "memlab.uses": ",".join(card.uses),
        "memlab.main_metric": card.main_metric,
        "memlab.headline": ",".join(m for m in card.headline if m != card.main_metric),
        "memlab.tags": ",".join(map(str, cfg.get("tags") or [])),
        **{f"memlab.version.{k}": v for k, v in provenance.library_versions().items()},
        **{f"memlab.strategy.{g}": f"{getattr(components, g).name}@{getattr(components, g).version}" for g in used},
        # the model file a strategy loaded (``learned_v10.json``): its class version alone does not name the model
        **{f"memlab.model.{g}": Path(path).name for g in used if (path := getattr(components, g).artifact_path)},
    }


def run(
    cfg: Mapping[str, Any],
    output_dir: str | Path,
    *,
    sweep_id: str | None = None,
    overrides: Sequence[str] = (),
) -> RunOutcome:
    """Run the benchmark a resolved config describes and record it.

    Args:
        cfg: The resolved config as plain containers (``OmegaConf.to_container(cfg, resolve=True)``).
        output_dir: Folder for this run's files (Hydra's run directory, or a temporary one in tests).
        sweep_id: Identifier of the ``--multirun`` sweep this run belongs to (one parent run per sweep).
        overrides: The command-line overrides (checked against the benchmark card's ``uses``).

    Returns:
        The outcome; ``main_value`` is what ``python -m memlab`` returns to a sweeper.
    """
    output_dir = Path(output_dir)
    seed = int(cfg.get("seed", 0))
    seed_everything(seed)
    benchmark = build_node(cfg["dataset"], "dataset")
    if not isinstance(benchmark, Benchmark) or not isinstance(type(benchmark).card, BenchmarkCard):
        raise MemlabError(f"dataset target {cfg['dataset'].get('_target_')} is not a Benchmark; fix conf/dataset/")
    card: BenchmarkCard = type(benchmark).card
    check_uses(card, overridden_groups(overrides))
    benchmark.check()
    used = [g for g in GROUPS if g in card.uses]
    components = build_components(cfg, groups=used, benchmark=card.name)
    tracker = build_node(cfg["tracking"], "tracking")

    chash = config_hash({k: v for k, v in cfg.items() if k not in RUNTIME_KEYS})
    done = tracker.finished_run(chash)
    if done is not None:  # tracking.skip_finished: this config already has a FINISHED run
        dataset = DatasetCard(card.name, card.version, "", card.licence, "", card.main_metric)
        result = BenchmarkResult(dict(done[1]), [], dataset, {"skipped": done[0]})
        url = tracker.run_url(done[0])
        ui = tracker.ui_command()
        return RunOutcome(done[0], result.metrics, card.main_metric, output_dir, ui, result, url, True, card.headline)
    tags = run_tags(cfg, card, components, used, chash)
    run_id = tracker.start(run_name_for(card.name, overrides, cfg), run_params(cfg, card.uses), tags, sweep_id=sweep_id)
    tracer = trace.start(cfg.get("trace"))
    if tracer is not None:
        trace.instrument(components, used)
    ledger = accounting.start(cfg, used)
    try:
        started = time.perf_counter()
        with trace.span("benchmark"):
            result = benchmark.run(components, seed)
        say_cached(time.perf_counter() - started)  # a cold cache: what it now holds, what the next run takes
        accounting.finish(ledger, result.metrics, tracker)  # LLM calls, tokens, failures; memlab.llm_used
        tracker.set_tags({"memlab.dataset_sha256": result.card.sha256, "memlab.dataset_licence": result.card.licence})
        write_outputs(output_dir, cfg, result)
        copy_strategy_artifacts(components, output_dir, used)
        trace.finish(output_dir, tracker, cfg.get("trace"), run_id)
        tracker.log_metrics(result.metrics)
        tracker.log_artifacts(output_dir)
    except BaseException:
        trace.stop()
        tracker.finish("FAILED")
        raise
    tracker.finish("FINISHED")
    url = tracker.run_url(run_id)
    metrics = dict(result.metrics)
    return RunOutcome(
        run_id, metrics, card.main_metric, output_dir, tracker.ui_command(), result, url, False, card.headline
    )
