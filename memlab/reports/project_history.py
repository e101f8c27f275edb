"""``memlab report project_history``: judges × difficulties on generated histories, and the real notes.

Reads the MLflow runs of the experiments ``project_history`` and ``gitnotes_real`` (via
:mod:`memlab.tracking.query`) and writes ``reports/project_history.md`` plus a PNG of supersession F1 by
difficulty. For each (judge, difficulty, size) the newest run per seed is kept and metrics are averaged over
seeds (± standard deviation). Nothing in the output is typed by hand.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path

from memlab.reports.common import defined_values, newest, table, with_count
from memlab.reports.history_figure import DIFFICULTY_ORDER, Summary, plot_f1

HISTORY_METRICS: tuple[str, ...] = (
    "supersession_f1",
    "relation_f1_supersede",
    "relation_f1_duplicate",
    "relation_f1_merge",
    "relation_f1_coexist",
    "stale_rate_injected",
    "current_coverage_injected",
    "current_truth_at_1",
    "stale_rate_top5",
    "as_of_acc",
    "when_acc",
    "history_acc",
    "injected_tokens",
)
GITNOTES_METRICS: tuple[str, ...] = (
    "dup_collapsed_exact",
    "dup_redundant_exact",
    "dup_edges_non_exact",
    "near_dup_clusters",
    "compression_ratio",
    "supersede_edges",
    "tier_frac_hot",
    "tier_frac_warm",
    "tier_frac_cold",
    "latency_scan_s",
    "latency_consolidate_s",
)


def _judge(run) -> str:
    return run.tags.get("memlab.strategy.judge", run.params.get("judge._target_", "?")).split("@")[0]


def _seed_order(run) -> tuple[int, int, str]:
    """Numeric seeds in numeric order (2 before 10), anything else after them."""
    seed = run.params.get("seed", "0")
    return (0, int(seed), "") if seed.isdigit() else (1, 0, seed)


def newest_per_seed(runs: Sequence, key) -> dict[tuple, list]:
    """Group runs by ``key(run)``; inside a group keep the newest run per seed (groups in seed order)."""
    groups: dict[tuple, dict[str, object]] = {}
    for run in sorted(runs, key=lambda r: r.start_time):
        groups.setdefault(key(run), {})[run.params.get("seed", "0")] = run
    return {k: sorted(v.values(), key=_seed_order) for k, v in groups.items()}


def code_label(group: Sequence) -> str:
    """Judge version, model file and commit(s) of a group's runs (``learned@8 learned_v10 353b053``)."""
    versions = sorted({" ".join(filter(None, (r.tags.get("memlab.strategy.judge", "?"),
                                              r.tags.get("memlab.model.judge", "").removesuffix(".json"))))
                       for r in group})  # fmt: skip
    shas = sorted({r.tags.get("memlab.git_sha", "?")[:7] + ("+" if r.tags.get("memlab.git_dirty") == "true" else "")
                   for r in group})  # fmt: skip
    return " ".join(versions + shas)


def mean_sd(values: Sequence[float]) -> str:
    """``mean ± sd`` (sd omitted for one value)."""
    if not values:
        return "–"
    if len(values) == 1:
        return f"{values[0]:.3f}"
    return f"{statistics.fmean(values):.3f} ± {statistics.stdev(values):.3f}"


def common_seeds(groups: dict[tuple, list]) -> dict[str, set[str]]:
    """Per history size (``key[2]``), the seeds every group of that size was run on."""
    out: dict[str, set[str]] = {}
    for key, group in groups.items():
        seeds = {r.params.get("seed", "0") for r in group}
        out[key[2]] = out[key[2]] & seeds if key[2] in out else seeds
    return out


def _row(k: tuple, group: Sequence) -> str:
    cells = [with_count(mean_sd(defined_values(group, m)), group, m) for m in HISTORY_METRICS]
    seeds = ",".join(r.params.get("seed", "?") for r in group)
    return f"| {k[0]} | {k[1]} | {k[2]} | {seeds} | " + " | ".join(cells) + f" | {code_label(group)} |"


def _history_section(runs: Sequence) -> tuple[list[str], dict]:
    """Judges × difficulties on the seeds all of them share, then any group's runs on further seeds."""
    key = lambda r: (_judge(r), r.params.get("dataset.difficulty", "?"), r.params.get("dataset.size", "?"))  # noqa: E731
    groups = newest_per_seed(runs, key)
    common = common_seeds(groups)
    order = sorted(
        groups,
        key=lambda k: (k[2].zfill(8), k[0], DIFFICULTY_ORDER.index(k[1]) if k[1] in DIFFICULTY_ORDER else 9),
    )
    header = [
        "| judge | difficulty | size | seeds | supersession_f1 | rel_sup | rel_dup | rel_merge | rel_coexist | "
        "stale_inj | cov_inj | current@1 | stale_top5 | as_of | when | history | tokens | code |",
        "|---|---|---|---|" + "---|" * 14,
    ]
    lines = [
        "## Judges × difficulties on generated histories",
        "",
        "Mean ± sd over the seeds every judge and difficulty of a size was run on (newest run per seed); runs on "
        "further seeds are in the next table. `stale_inj` = stale_rate_injected, `cov_inj` = "
        "current_coverage_injected, `rel_*` = relation_f1_* over candidate pairs; `code` = judge version and "
        "commit of the runs (`+`: uncommitted changes).",
        "",
        *header,
    ]
    summary = Summary()
    shown: list = []
    extended: list[tuple] = []
    for k in order:
        group = [r for r in groups[k] if r.params.get("seed", "0") in common[k[2]]] or groups[k]
        if len(group) < len(groups[k]):
            extended.append(k)
        shown += group
        lines.append(_row(k, group))
        values = defined_values(group, "supersession_f1")  # undefined (no gold, no prediction): left out
        if values:
            summary[k] = statistics.fmean(values)
            summary.spread[k] = statistics.stdev(values) if len(values) > 1 else 0.0
    if extended:
        lines += ["", "### On all seeds run", "", "Groups run on more seeds than the table above shares.", "", *header]
        lines += [_row(k, groups[k]) for k in extended]
        shown += [r for k in extended for r in groups[k] if r not in shown]
    lines += [
        "",
        "### From default to hard (supersession_f1)",
        "",
        "`change` = hard − default: negative when the judge drops on hard histories.",
        "",
        "| judge | size | default | hard | change |",
    ]
    lines.append("|---|---|---|---|---|")
    for judge, size in sorted({(k[0], k[2]) for k in summary}):
        d, h = summary.get((judge, "default", size)), summary.get((judge, "hard", size))
        if d is not None and h is not None:
            lines.append(f"| {judge} | {size} | {d:.3f} | {h:.3f} | {h - d:+.3f} |")
    lines += ["", "Run ids: " + ", ".join(f"`{r.run_id[:8]}`" for r in shown), ""]
    return lines, summary


def _latest_table(runs: Sequence, key, head: Sequence[str], metrics: Sequence[str]) -> list[str]:
    """The newest run per ``key(run)`` (rows sorted by key): the key's fields, ``metrics`` and the run id."""

    def cell(run, m: str) -> str:  # type: ignore[no-untyped-def]
        return with_count(f"{run.metrics[m]:.3f}", [run], m) if m in run.metrics else "–"

    latest = sorted(newest(runs, key).items())
    rows = [[*map(str, k), *(cell(run, m) for m in metrics), f"`{run.run_id[:8]}`"] for k, run in latest]
    return [*table([*head, *metrics, "run"], rows), ""]


def _gitnotes_section(runs: Sequence) -> list[str]:
    def key(run) -> tuple:  # type: ignore[no-untyped-def]
        t, p = run.tags, run.params
        embedder = t.get("memlab.strategy.embedder", p.get("embedder._target_", "?"))
        knobs = (p.get("pipeline.knn_k", "?"), p.get("dataset.limit", "None"))
        return t.get("memlab.experiment", "?"), embedder, _judge(run), t.get("memlab.strategy.clusterer", "?"), *knobs

    head = ["experiment", "embedder", "judge", "clusterer", "knn_k", "limit"]
    return [
        "## Real git-notes-memory notes (gitnotes_real)",
        "",
        "Newest run per (experiment, embedder, judge, clusterer, knn_k, limit). Latencies are wall seconds on this "
        "shared 2-core machine; `latency_scan_s` includes embedding: MiniLM reads its on-disk cache when warm, "
        "and experiment `gitnotes_real_cold` runs with an empty cache (`embedder.cache_dir=$(mktemp -d)`), so it "
        "loads the model and embeds every distinct text.",
        "",
        *_latest_table(runs, key, head, GITNOTES_METRICS),
    ]


SCALING_METRICS: tuple[str, ...] = (
    "n_memories",
    "n_judged_pairs",
    "supersession_f1",
    "stale_rate_injected",
    "current_coverage_injected",
    "latency_scan_s",
    "latency_cluster_s",
    "latency_supersession_s",
    "latency_recall_s",
    "latency_total_s",
)


def _scaling_section(runs: Sequence) -> list[str]:
    if not runs:
        return []
    key = lambda r: (int(r.params.get("dataset.size", "0")), _judge(r), r.params.get("seed", "0"))  # noqa: E731
    return [
        "## Scaling (project_history_large)",
        "",
        "Newest run per (size, judge, seed); lexical embedder, no clustering. Wall seconds on this shared machine.",
        "",
        *_latest_table(runs, key, ["size", "judge", "seed"], SCALING_METRICS),
    ]


def main(argv: list[str] | None = None) -> int:
    """Write the report from the runs that exist (none: one-line error, nothing written); returns 0."""
    from memlab.reports import common

    parser = common.report_parser("project_history", __doc__)
    parser.add_argument("--experiment", default="project_history")
    parser.add_argument(
        "--gitnotes-experiment",
        default="gitnotes_real,gitnotes_real_cold",
        help="comma-separated experiments on the real notes",
    )
    parser.add_argument("--scaling-experiment", default="project_history_large")
    args = parser.parse_args(argv)

    history_runs = common.finished_runs(args.experiment, args.uri)
    names = [args.experiment, *args.gitnotes_experiment.split(","), args.scaling_experiment]
    gitnotes_runs = [r for name in names[1:-1] if name for r in common.finished_runs(name, args.uri)]
    scaling_runs = common.finished_runs(args.scaling_experiment, args.uri)
    common.require_runs([*history_runs, *gitnotes_runs, *scaling_runs], names, args.uri)
    out = Path(args.out)
    common.check_output([out, out.with_name("project_history_f1.png")], args.force)
    lines = [
        "# Project histories: supersession judges, injected context, real notes",
        "",
        "Generated by `memlab report project_history` from MLflow runs "
        f"(experiments `{args.experiment}`, `{args.gitnotes_experiment}`); do not edit by hand.",
        "",
    ]
    history_lines, summary = _history_section(history_runs)
    lines += history_lines
    png = out.with_name("project_history_f1.png")
    with common.kept_on_error([png]):
        if plot_f1(summary, png):
            lines += [f"![supersession_f1 by difficulty]({png.name})", ""]
        lines += _gitnotes_section(gitnotes_runs)
        lines += _scaling_section(scaling_runs)
        ids = [r.run_id for r in (*history_runs, *gitnotes_runs, *scaling_runs)]
        common.write_report(out, "\n".join(lines), ids, partial=args.partial, uri=args.uri)
    print(f"wrote {out} ({len(history_runs)} history runs, {len(gitnotes_runs)} gitnotes runs)")
    return 0
