"""``reports/perf.md`` and ``reports/perf.png`` from the JSON that ``memlab bench`` writes (``reports/perf.json``).

The JSON holds one section per benchmark (``episode``, ``temporal``, ``hook``); each ``memlab bench``
subcommand replaces its own section, so the report can be rebuilt from any mix of runs
(``memlab bench report``). Nothing here measures anything.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TARGETS = (
    "Targets (issue 19): episode with the experiment's judge, embeddings cached: 1k < 1 s, 100k < 60 s, "
    "peak RSS < 4 GiB; incremental consolidation of 1% new memories on 100k < 5 s; growth exponent of "
    "the whole episode <= 1.2 between 10k and 100k; supersession_f1 at 100k within 0.05 of 1k; "
    "SessionStart hook p50 < 60 ms at 10k."
)


def load(path: Path) -> dict[str, Any]:
    """The results file (empty when absent)."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def save_section(path: Path, name: str, section: dict[str, Any]) -> dict[str, Any]:
    """Replace one section of the results file; returns the whole file."""
    data = load(path)
    data[name] = section
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return data


def _f(value: Any, digits: int = 2) -> str:
    if value is None:
        return "–"
    if isinstance(value, dict):
        return f"{value['median']:.{digits}f} ({value['min']:.{digits}f}–{value['max']:.{digits}f})"
    return f"{float(value):.{digits}f}"


def episode_lines(section: dict[str, Any]) -> list[str]:
    """The episode tables: whole episode, quality, phases, exponents, incremental consolidation."""
    lines = [f"## Episode: `+experiment={section['experiment']}` {' '.join(section.get('overrides', []))}", ""]
    lines += [
        "Median (min–max) over repeats; wall seconds unless marked CPU; RSS = peak resident set of the point's "
        "process; load = 1-minute load average on this 2-core machine during the points.",
        "",
        "| size | cache | episode CPU s | episode wall s | peak RSS MiB | runs | pairs judged | "
        "supersession_f1 | stale_rate_injected | current_coverage_injected | recall p50 ms | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for kind in ("cached", "cold"):
        for p in section.get(kind, []):
            q = p["quality"]
            lines.append(
                f"| {p['size']:,} | {kind} | {_f(p['episode_cpu_s'])} | {_f(p['episode_wall_s'])} | "
                f"{p['peak_rss_mib']:.0f} | {p['runs']} | {p['pairs_judged']:,} | "
                f"{_f(q.get('supersession_f1'), 3)} | {_f(q.get('stale_rate_injected'), 3)} | "
                f"{_f(q.get('current_coverage_injected'), 3)} | {_f(p.get('recall_p50_ms'), 1)} | "
                f"{_f(p['loadavg'], 1)} |"
            )
    cached = section.get("cached", [])
    if cached:
        phases = list(cached[0]["phases"])
        lines += ["", "Per phase (wall s, cached embeddings):", ""]
        sizes = " | ".join(f"{p['size']:,}" for p in cached)
        lines += [f"| phase | {sizes} | exponent (all) | exponent (last two) |"]
        lines += ["|---" * (len(cached) + 3) + "|"]
        exps = section.get("exponents", {})
        for phase in ["episode_cpu", "episode_wall", *phases]:
            if phase.startswith("episode"):
                key = "episode_cpu_s" if phase == "episode_cpu" else "episode_wall_s"
                cells = [_f(p[key]) for p in cached]
            else:
                cells = [_f(p["phases"].get(phase)) for p in cached]
            e = exps.get(phase, {})
            lines.append(f"| {phase} | " + " | ".join(cells) + f" | {_f(e.get('all'))} | {_f(e.get('last_two'))} |")
    deltas = [p for p in cached if "delta_wall_s" in p]
    if deltas:
        lines += ["", "Incremental consolidation (the newest memories added to a consolidated store):", ""]
        lines += [
            "| size | new memories | wall s | CPU s | pairs judged (delta) | pairs judged (base) |",
            "|---|---|---|---|---|---|",
        ]
        for p in deltas:
            lines.append(
                f"| {p['size']:,} | {p['delta_memories']:.0f} | {_f(p['delta_wall_s'])} | {_f(p['delta_cpu_s'])} | "
                f"{p['delta_pairs_judged']:,.0f} | {p['base_pairs_judged']:,.0f} |"
            )
    return lines


def temporal_lines(section: dict[str, Any]) -> list[str]:
    """Temporal resolvers: time per expression."""
    lines = ["## Temporal resolvers (per expression, generated history seed 0)", ""]
    lines += ["| resolver | expressions | p50 µs | p95 µs | CPU µs / expression |", "|---|---|---|---|---|"]
    for name, r in sorted(section.get("resolvers", {}).items()):
        if "error" in r:
            lines.append(f"| {name} | – | {r['error']} | | |")
            continue
        lines.append(
            f"| {name} | {r['expressions']:.0f} | {r['p50_us']:.0f} | {r['p95_us']:.0f} | "
            f"{r['cpu_us_per_expression']:.0f} |"
        )
    return lines


def hook_lines(section: dict[str, Any]) -> list[str]:
    """SessionStart hook: cold processes per store size, beside the interpreter's own start."""
    lines = ["## SessionStart hook (cold processes)", ""]
    floor = section.get("floor")
    if floor:
        lines.append(f"Floor: `python -S -c pass` p50 {floor['p50_ms']:.1f} ms, CPU p50 {floor['cpu_p50_ms']:.1f} ms.")
        lines.append("")
    lines += ["| dataset | memories | p50 ms | p95 ms | CPU p50 ms | peak RSS MiB |", "|---|---|---|---|---|---|"]
    for d in section.get("datasets", []):
        s = d["session_start"]
        lines.append(
            f"| {d['dataset']} | {d['distinct_memories']} | {s['p50_ms']} | {s['p95_ms']} | {s['cpu_p50_ms']} | "
            f"{s['max_rss_mib']} |"
        )
    if "loadavg" in section:
        lines += ["", f"Load average during the run: {section['loadavg']:.2f}."]
    return lines


def write_png(section: dict[str, Any], path: Path) -> Path | None:
    """Log-log plot of each phase and the whole episode against size (cached embeddings)."""
    cached = sorted(section.get("cached", []), key=lambda p: p["size"])
    if len(cached) < 2:
        return None
    from memlab.observability.plots import pyplot

    plt = pyplot()
    sizes = [p["size"] for p in cached]
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    ax.plot(sizes, [p["episode_cpu_s"]["median"] for p in cached], "k-o", lw=2, label="episode (CPU)")
    for phase in cached[0]["phases"]:
        ys = [p["phases"].get(phase, {}).get("median", 0.0) for p in cached]
        if max(ys) >= 0.01:
            ax.plot(sizes, [max(y, 1e-3) for y in ys], "-o", ms=3, label=phase)
    ref = cached[0]["episode_cpu_s"]["median"]
    ax.plot(sizes, [ref * s / sizes[0] for s in sizes], "k:", lw=1, label="linear")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("memories")
    ax.set_ylabel("seconds (median)")
    ax.set_title(f"memlab bench episode: {section['experiment']}")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def write_report(data: dict[str, Any], out_md: Path, out_png: Path) -> Path:
    """Write ``perf.md`` (and the PNG when the episode section has two sizes or more)."""
    out_md.parent.mkdir(parents=True, exist_ok=True)
    out_png.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# Performance (`memlab bench`)", "", "Generated by `memlab bench report` from `reports/perf.json`.", ""]
    lines += [TARGETS, ""]
    if "environment" in data:
        env = data["environment"]
        lines += [f"Machine: {env.get('cpus')} CPUs; python {env.get('python')}; git {env.get('git_sha')}.", ""]
    for name in sorted(k for k in data if k == "episode" or k.startswith("episode_")):
        lines += [*episode_lines(data[name]), ""]
        png = out_png if name == "episode" else out_png.with_name(f"perf_{name}.png")
        if write_png(data[name], png):
            lines += [f"![phases against size, log-log]({png.name})", ""]
    if "temporal" in data:
        lines += [*temporal_lines(data["temporal"]), ""]
    if "hook" in data:
        lines += [*hook_lines(data["hook"]), ""]
    lines += data.get("notes", [])
    out_md.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    return out_md
