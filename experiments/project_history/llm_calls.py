"""How many pairs the cascade would send to a language model, and how many gold supersessions are among them.

Usage: PYTHONPATH=. python experiments/project_history/llm_calls.py DATASET [OVERRIDE ...]
(``DATASET``: ``builtin_history``, ``ferrybook_history`` or ``project_history``; e.g. ``project_history
dataset.style=ticket seed=0``). Runs ``+experiment=project_history judge.fallback=dspy`` with a recording
stand-in for the language model that answers COEXIST to every pair (no LLM runs here, and no accuracy is read
from this), and prints, for ``judge.llm_min_probability`` 0.01 (the conf's) and 0.03:

* ``fallback`` — pairs the learned judge does not answer (distrusted store or unsure verdict);
* ``llm_calls`` — of those, pairs the fallback model's filter lets through to the language model;
* ``gold_in_fallback`` / ``gold_sent`` — gold supersessions (transitive closure, as the metric counts them)
  among the fallback's pairs and among the pairs sent: the share is the recall a perfect language model
  could reach on what the cascade hands it.
"""

from __future__ import annotations

import sys
from typing import Any

from memlab.build import build, build_components
from memlab.data.relations import transitive_closure
from memlab.strategies.judge.base import JudgeBase
from memlab.types import Relation, Verdict
from tests.support.compose import compose_cfg


class Recorder(JudgeBase):
    """Stands in for the language model: records each pair it is asked about and answers COEXIST."""

    name, version = "recorder", 1

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def judge(self, older: Any, newer: Any, similarity: float | None = None) -> Verdict:
        """COEXIST, after recording the pair."""
        self.asked.append((older.id, newer.id))
        return Verdict(Relation.COEXIST, 0.0, "recorded")


def main(argv: list[str]) -> None:
    """Run the experiment at two filter levels and print the counts."""
    from dataclasses import replace

    from memlab.benchmarks.project_history.evaluate import evaluate_history

    dataset, extra = argv[0], argv[1:]
    for level in (0.01, 0.03):
        overrides = ["+experiment=project_history", f"dataset={dataset}", *extra, "judge.fallback=dspy"]
        overrides += ["llm=local", "llm.model=openai/recorder", f"judge.llm_min_probability={level}"]
        cfg = compose_cfg(overrides)
        benchmark = build(cfg["dataset"], "dataset")
        data = benchmark.load(int(cfg.get("seed") or 0))
        history = data.history
        components = build_components(cfg)
        cascade = components.judge
        cascade._parts()
        recorder = Recorder()
        cascade.fallback_ = recorder
        reached: list[tuple[str, str]] = []
        fallback = cascade._fallback

        def counted(
            older: Any, newer: Any, similarity: Any, slot: Any, why: str, _f: Any = fallback, _r: list = reached
        ) -> Verdict:
            _r.append((older.id, newer.id))
            return _f(older, newer, similarity, slot, why)

        cascade._fallback = counted
        evaluate_history(history, replace(components, judge=cascade), data.card)
        gold = transitive_closure([(r.older, r.newer) for r in history.relations if r.relation is Relation.SUPERSEDE])
        in_fallback = gold & set(reached)
        sent = in_fallback & set(recorder.asked)
        print(
            f"{' '.join([dataset, *extra])} llm_min_probability={level}: fallback={len(reached)} "
            f"llm_calls={len(recorder.asked)} gold_in_fallback={len(in_fallback)} gold_sent={len(sent)}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
