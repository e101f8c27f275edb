"""``python -m memlab +experiment=...``: the only ``@hydra.main``.

``python -m memlab <command> ...`` with a command of the ``memlab`` console script (``report``,
``export``, ...) runs that command instead, so both spellings work. Overrides are checked first (one-line
errors for typos); the run itself is :func:`memlab.run.run`. The process prints a table of metrics (the main
metric first, then the headline metrics; every metric with ``--all``), the MLflow run id and the command that
opens the MLflow UI, and returns the main metric to sweepers.

It ends with :func:`gc.freeze`: the interpreter's exit collects garbage over every object it tears down, and after
MiniLM's imports (~4,100 modules, ~470,000 objects) that was 2-34 s of silence after the last line (load 6-9;
atexit handlers took 0.02 s of it). Frozen objects are left out of those collections (1-2 s); the exit is
otherwise the normal one: threads joined, atexit handlers run (MLflow ends its runs), streams flushed, same status.
"""

from __future__ import annotations

import gc
import os
import sys

from memlab.core.errors import MemlabError

_OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "TOKENIZERS_PARALLELISM": "false",
    "MLFLOW_DISABLE_TELEMETRY": "true",
}


def fail(message: str, code: int = 2) -> None:
    """Print one line on stderr and exit (a traceback only with HYDRA_FULL_ERROR=1)."""
    if os.environ.get("HYDRA_FULL_ERROR") == "1":
        raise
    print(f"memlab: error: {message}", file=sys.stderr)
    raise SystemExit(code)


def print_outcome(outcome, *, compact: bool = False, show_all: bool = False) -> None:
    """The run's metrics, main metric first (with its count ``n`` and 95% interval), then the benchmark's headline
    metrics, then the rest only with ``show_all`` (``--all``; every metric is in the run's ``result.json``);
    then the run id, the UI command and the run's address.

    ``compact`` (a job of a sweep): one line with the main metric and the run id; the sweep ends with a
    comparison table of all its jobs.
    """
    from rich.console import Console
    from rich.table import Table

    from memlab.benchmarks.metrics import INTERVAL_SUFFIXES, count_of
    from memlab.sweeps.table import fmt, fmt_n

    console = Console()
    metrics, main = outcome.metrics, outcome.main_metric
    if outcome.skipped:
        console.print(f"skipped: configuration already has FINISHED run {outcome.run_id} (tracking.skip_finished)")
    if compact:
        print(f"{main}={fmt(metrics.get(main))}  run {outcome.run_id or '–'}  {outcome.output_dir}", flush=True)
        return
    first = [m for m in dict.fromkeys([main, *outcome.headline]) if m in metrics]
    # an interval is shown in its metric's row, not as two rows of its own
    bounds = {f"{m}{s}" for m in metrics for s in INTERVAL_SUFFIXES}
    rest = sorted(set(metrics) - set(first) - bounds)
    table = Table(title=f"memlab — {outcome.result.card.name}")
    for column in ("metric", "value", "n", "95% interval"):
        table.add_column(column, justify="left" if column == "metric" else "right")
    for name in first + (rest if show_all else []):
        low, high = metrics.get(f"{name}_ci_low"), metrics.get(f"{name}_ci_high")
        interval = "–" if low is None or high is None else f"[{fmt(low)}, {fmt(high)}]"
        shown = f"{name} (main)" if name == main else name
        table.add_row(shown, fmt(metrics[name]), fmt_n(count_of(name, metrics)), interval)
    console.print(table)
    if rest and not show_all:
        console.print(f"{len(rest)} more metrics: add --all, or read {outcome.output_dir}/result.json", soft_wrap=True)
    console.print(f"output dir: {outcome.output_dir}")
    if outcome.run_id:
        console.print(f"MLflow run id: {outcome.run_id}")
    if outcome.ui_command:
        console.print(f"MLflow UI: {outcome.ui_command}", soft_wrap=True)
    if outcome.run_url:
        console.print(f"run in the UI: {outcome.run_url}", soft_wrap=True)


def main() -> None:
    """Entry point."""
    for key, value in _OFFLINE.items():
        os.environ.setdefault(key, value)
    from memlab.cli import COMMANDS
    from memlab.observability.progress import set_quiet

    sys.argv[1:] = set_quiet(sys.argv[1:])

    if len(sys.argv) > 1 and sys.argv[1] in COMMANDS:
        from memlab.cli import main as cli_main

        raise SystemExit(cli_main(sys.argv[1:]))
    show_all = "--all" in sys.argv[1:]  # every metric in the run's table, not only the main and headline ones
    sys.argv[1:] = [a for a in sys.argv[1:] if a != "--all"]
    try:
        from memlab.wiring.overrides import check_overrides

        check_overrides(sys.argv[1:], COMMANDS)
    except MemlabError as exc:
        fail(str(exc))

    import hydra
    from hydra.core.hydra_config import HydraConfig
    from omegaconf import DictConfig, OmegaConf

    from memlab.core.paths import CONF_DIR
    from memlab.sweeps.plugins import register as register_plugins
    from memlab.wiring.conf_resolvers import register

    register()
    register_plugins()

    @hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")
    def _task(cfg: DictConfig) -> float:
        import logging

        from memlab.observability.logs import configure
        from memlab.run import run

        register()
        log = logging.getLogger("memlab.run")
        try:
            container = OmegaConf.to_container(cfg, resolve=True)
            configure(container.get("logging"))
            hc = HydraConfig.get()
            sweep_id = None
            multirun = hc.mode is not None and hc.mode.name == "MULTIRUN"
            if multirun:
                from memlab.tracking.base import sweep_id_for

                sweep_id = sweep_id_for(hc.sweep.dir)
            overrides = list(hc.overrides.task)
            log.info("run started", extra={"overrides": overrides, "output_dir": hc.runtime.output_dir})
            outcome = run(container, hc.runtime.output_dir, sweep_id=sweep_id, overrides=overrides)
        except MemlabError as exc:
            fail(str(exc))
        log.info(
            "run finished",
            extra={
                "run_id": outcome.run_id,
                "main_metric": outcome.main_metric,
                "value": outcome.main_value,
                "skipped": outcome.skipped,
                "sweep": sweep_id,
            },
        )
        print_outcome(outcome, compact=multirun, show_all=show_all)
        return outcome.main_value

    _task()


if __name__ == "__main__":
    try:
        main()
    finally:
        gc.freeze()  # a fast exit: see the module's docstring
