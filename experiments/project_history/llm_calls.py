"""How many pairs the cascade would send to a language model, and how many gold supersessions are among them.

Usage: PYTHONPATH=. python experiments/project_history/llm_calls.py DATASET [OVERRIDE ...]
(``DATASET``: ``builtin_history``, ``ferrybook_history`` or ``project_history``; e.g. ``project_history
dataset.style=ticket seed=0``). Runs ``+experiment=project_history judge=cascade_llm`` with ``llm=local``
pointed at a port where no server listens (``UNSERVED``), so every call the cascade makes fails at once and the
DSPy judge answers COEXIST with confidence 0, as its contract says (no LLM runs here, and no accuracy is read from
this). Each verdict's reason says which judge gave it; the script prints, for ``judge.screen_min_probability`` 0.01
(the conf's) and 0.03:

* ``fallback`` — pairs the learned judge does not answer (distrusted store or unsure verdict);
* ``llm_calls`` — of those, pairs model v11's screen lets through to the language model;
* ``gold_in_fallback`` / ``gold_sent`` — gold supersessions (transitive closure, as the metric counts them)
  among the fallback's pairs and among the pairs sent: the share is the recall a perfect language model
  could reach on what the cascade hands it.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from memlab.benchmarks.project_history.evaluate import evaluate_history
from memlab.core.types import Relation, Verdict
from memlab.data.relations import transitive_closure
from memlab.strategies.judge.base import JudgeBase
from memlab.wiring.build import build, build_components
from memlab.wiring.config import compose

#: An OpenAI-compatible address nothing serves (port 9, discard): each call is refused at once.
UNSERVED = "http://127.0.0.1:9/v1"
#: How the cascade's reasons begin for a pair handed to the fallback, and for one of those sent to the LLM.
FALLBACK, SENT = "fallback ", "fallback dspy "


class Counted(JudgeBase):
    """The cascade, with each pair it answers and the verdict's reason recorded (its public judge interface)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name, self.version = inner.name, inner.version
        self.reasons: list[tuple[tuple[str, str], str]] = []

    observes = True  # it shows the cascade the store

    def observe(self, memories: Any) -> None:
        """Show the cascade the store."""
        self.inner.observe(memories)

    def judge(self, older: Any, newer: Any, similarity: float | None = None) -> Verdict:
        """The cascade's verdict, after recording its reason."""
        verdict = self.inner.judge(older, newer, similarity)
        self.reasons.append(((older.id, newer.id), verdict.reason))
        return verdict

    def pairs(self, prefix: str) -> list[tuple[str, str]]:
        """The pairs whose verdict's reason starts with ``prefix``, once per judgement."""
        return [pair for pair, reason in self.reasons if reason.startswith(prefix)]


def main(argv: list[str]) -> None:
    """Run the experiment at two screen levels and print the counts."""
    dataset, extra = argv[0], argv[1:]
    for level in (0.01, 0.03):
        overrides = ["+experiment=project_history", f"dataset={dataset}", *extra, "judge=cascade_llm"]
        overrides += ["llm=local", "llm.model=openai/unserved", f"llm.api_base={UNSERVED}", "llm.num_retries=0"]
        overrides += ["llm.cache=false", f"judge.screen_min_probability={level}"]
        cfg = compose(overrides)
        data = build(cfg["dataset"], "dataset").load(int(cfg.get("seed") or 0))
        history = data.history
        components = build_components(cfg)
        judge = Counted(components.judge)
        evaluate_history(history, replace(components, judge=judge), data.card)
        reached, asked = judge.pairs(FALLBACK), judge.pairs(SENT)
        gold = transitive_closure([(r.older, r.newer) for r in history.relations if r.relation is Relation.SUPERSEDE])
        in_fallback = gold & set(reached)
        sent = in_fallback & set(asked)
        print(
            f"{' '.join([dataset, *extra])} screen_min_probability={level}: fallback={len(reached)} "
            f"llm_calls={len(asked)} gold_in_fallback={len(in_fallback)} gold_sent={len(sent)}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
