"""What each seed preset's distinctive mechanism did on one history: counts read from the store after the episode.

Run ``python experiments/presets/mechanisms.py PRESET DATASET [OVERRIDE ...]`` (for example
``squidbot_nollm builtin_history`` or ``mycelic_nollm project_history seed=0``); prints one JSON object:
summaries, archived memories and those in no summary (squidbot), the Astra extras' metrics (narratives,
insights, anchor updates, warnings, drift), the review queue and the online operations (MycelicMemory), and the
SessionStart block's summaries with their key-fact, decision and superseded lines (the seed spec).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any


def mechanisms(preset: str, dataset: str, overrides: list[str]) -> dict[str, Any]:
    """Run the preset's episode on the history benchmark ``dataset`` and count what its mechanisms did."""
    from memlab.benchmarks.project_history.evaluate import history_episode, stale_since
    from memlab.benchmarks.project_history.evaluate_queries import make_answerer
    from memlab.core.types import Tier
    from memlab.pipeline.astra import extras_metrics
    from memlab.pipeline.episode import run_episode
    from memlab.pipeline.inject import store_block
    from memlab.strategies.summarizer.extract import line_of
    from memlab.text.slot_parse import content_tokens
    from memlab.wiring.build import build_components, build_node
    from memlab.wiring.config import compose

    cfg = compose([f"+experiment={preset}", f"dataset={dataset}", *overrides])
    components = build_components(cfg)
    history = build_node(cfg["dataset"], "dataset").load(int(cfg.get("seed", 0))).history
    answer = make_answerer(history, components, stale_since(history))
    outcome = run_episode(history_episode(history), components, answer)
    store = outcome.store
    archived = [m for m in store.memories if store.state(m).tier is Tier.ARCHIVED]
    cited = {i for s in store.summaries.values() for i in s.source_ids}
    section = {i: set(content_tokens(s.summary)) for s in store.summaries.values() for i in s.source_ids}
    coverage = []  # share of each archived message's statement words found in the section citing it
    for mid in archived:
        words = set(content_tokens(line_of(store.memories[mid])))
        coverage.append(len(words & section.get(mid, set())) / len(words) if words else 1.0)
    dissonant = [r for r in (store.anchor.log if store.anchor else []) if "dissonant" in r]
    block = store_block(store, components, history.now)
    lines = block.text.split("\n")
    return {
        "preset": preset,
        "dataset": dataset,
        "overrides": overrides,
        "n_memories": len(history.memories),
        "consolidations": len(outcome.runs),
        "summaries": len(store.summaries),
        "archived": len(archived),
        "archived_in_no_summary": sum(m not in cited for m in archived),
        "archived_quoted": round(sum(c >= 0.9 for c in coverage) / len(coverage), 3) if coverage else None,
        "archived_word_coverage": round(sum(coverage) / len(coverage), 3) if coverage else None,
        "dissonance_checks": [
            (r["now"][:10], round(r["drift_from_origin"], 3), len(r["dissonant"])) for r in dissonant
        ],
        "applied_confidences": dict(
            sorted(
                Counter(
                    f"{r['classification']}@{r['confidence']:.2f}"
                    for r in store.audit
                    if r.get("classification") and not r.get("review") and r["operation"] != "ADD"
                ).items()
            )
        ),
        "review_queue": len(store.review_queue),
        "operations": dict(sorted(Counter(r["operation"] for r in store.audit).items())),
        "merged_by_prompt": sum(m.meta.get("merged_by") == "merge_prompt" for m in store.memories.values()),
        "block_tokens": block.tokens,
        "block_summaries": sum(c.kind == "summary" for c in block.items),
        **{
            f"block_{k.lower().replace(' ', '_')}_lines": sum(x.startswith(f"  - {k}:") for x in lines)
            for k in ("Key fact", "Decision", "Superseded")
        },
        **extras_metrics(store),
    }


def main(argv: list[str]) -> int:
    """Print the counts of one preset on one history."""
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    print(json.dumps(mechanisms(argv[0], argv[1], argv[2:])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
