"""Where the judge loses under the ``session`` schedule what it finds under ``end`` (a diagnosis, not a policy).

Usage: PYTHONPATH=. python experiments/project_history/session_gap.py SEED [STYLE] [OVERRIDE ...]
(e.g. ``1020 classic``; validation and development seeds only). Runs ``+experiment=project_history`` on one
generated history four ways and prints ``supersession_f1`` and ``stale_rate_injected`` of each:

* ``session`` — the experiment as it is (a consolidation after every session);
* ``end`` — one consolidation after the last memory (``pipeline.schedule=end``);
* ``session, whole-history profiles`` — the session schedule, but every time the judge is shown the store it is
  shown the whole history instead (its slot profiles then hold notes not yet written: an upper bound on what
  richer store context could give, never a policy);
* ``session, last run re-judges`` — the session schedule, with the last consolidation judging every candidate pair
  again over the whole store (verdicts only add edges, as in any run).

The differences say whether the gap comes from what the judge can know when it judges (store context) or from
what is asked of it (candidate pairs, the order of judgement).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from memlab.benchmarks.base import DatasetCard
from memlab.benchmarks.project_history.evaluate import history_episode, score_history, stale_since
from memlab.benchmarks.project_history.evaluate_queries import make_answerer
from memlab.data.project_history.generator import generate
from memlab.pipeline.episode import run_episode
from memlab.strategies.judge.base import JudgeBase
from memlab.wiring.build import build_components
from memlab.wiring.config import compose

CARD = DatasetCard("project_history", "1", "0", "-", "-", "supersession_f1")


class WholeHistory(JudgeBase):
    """A judge that is shown the whole history whenever the pipeline shows it the store (diagnosis only)."""

    def __init__(self, inner: Any, memories: list) -> None:
        self.inner, self.memories = inner, memories
        self.name, self.version = inner.name, inner.version

    observes = True  # it shows the inner judge the whole history

    def observe(self, memories: Any) -> None:
        """Show the inner judge every memory of the history."""
        self.inner.observe(self.memories)

    def judge(self, older: Any, newer: Any, similarity: float | None = None) -> Any:
        """The inner judge's verdict."""
        return self.inner.judge(older, newer, similarity)


def main(argv: list[str]) -> None:
    """Run the four variants and print their scores."""
    seed = int(argv[0])
    style = argv[1] if len(argv) > 1 else "classic"
    overrides = ["+experiment=project_history", f"seed={seed}", f"dataset.style={style}", *argv[2:]]
    history = generate(seed, 400, style=style)

    def score(name: str, components: Any, rejudge_last: bool = False) -> None:
        answer = make_answerer(history, components, stale_since(history))
        outcome = run_episode(history_episode(history), components, answer, rejudge_last=rejudge_last)
        metrics = score_history(history, outcome, CARD).metrics
        print(f"{name:36s} f1={metrics['supersession_f1']:.3f} stale={metrics['stale_rate_injected']:.3f}")

    built = build_components(compose(overrides))
    score("session", built)
    score("end", build_components(compose([*overrides, "pipeline.schedule=end"])))
    built = build_components(compose(overrides))
    score("session, whole-history profiles", replace(built, judge=WholeHistory(built.judge, list(history.memories))))
    score("session, last run re-judges", build_components(compose(overrides)), rejudge_last=True)


if __name__ == "__main__":
    main(sys.argv[1:])
