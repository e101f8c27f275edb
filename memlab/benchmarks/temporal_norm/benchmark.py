"""``dataset=temporal_norm``: the configured ``temporal`` resolver on a set of time expressions with gold values.

Sets (``dataset.corpus``): ``duckling`` (Duckling's 1,008 English time phrases, assistant-style, no sentence)
and ``tbaq`` (TempEval-3 TBAQ-cleaned: 1,167 news time expressions with their document dates and sentences);
``dataset.path=<file>`` reads any file of the same format instead (the corpus name then only labels the run).
The corpus name is a tracked param, so every figure says which set it comes from.

Context: where a record has a sentence the resolver reads the sentence (``dataset.context=sentence``, the
default; ``phrase`` passes the phrase alone) and the reference overlapping the phrase's span is scored
(:mod:`.scoring`); memories are resolved the same way, in their own text.

Which records are evaluated (the main metrics, no suffix): by default every record except Duckling's
``latentCorpus`` block (inputs such as ``7`` or ``morning`` that Duckling itself only resolves with latent
parsing on) and except holiday records (``datetimeHoliday``/``datetimeIntervalHoliday``: Christmas, Diwali,
Ramadan 2050 ... — calendar tables, not language understanding). Both are switchable
(``dataset.include_latent=true``, ``dataset.include_holidays=true``) and every run also logs the figures over
all records (suffix ``_all``) so both ways are always reported. Points, intervals and open intervals are all
evaluated (open intervals on their boundary point; see :mod:`.data`).

Every run also splits the evaluated records into two fixed hash halves, ``dev`` and ``heldout`` (suffixes
``_dev``, ``_heldout``; Duckling by phrase, news by document group, see :mod:`.data`): rules are tuned by
looking at dev only, held-out keeps the figures honest. ``split=dev|heldout`` restricts the main metrics to one
half.

Metrics: ``resolver_acc`` (correct / evaluated), ``resolver_acc_supported`` (correct / supported),
``resolver_coverage`` (supported / evaluated), each of acc and acc_supported with a 95% bootstrap interval
(``_ci_low`` / ``_ci_high``, also per half), ``resolver_us_per_expr`` (mean CPU microseconds of the
calling thread per record, ``time.thread_time_ns`` around each call after one warm-up call, so neither
other load on a shared machine nor the tracker's background threads inflate it; the fastest of
``timing_passes`` passes over all records, the usual guard against a pass slowed by the machine),
``resolver_acc_<grain>`` and ``n_<grain>`` per expected grain, ``resolver_acc_kind_<point|interval|open>``
with ``n_kind_<point|interval|open>``. A rate over no phrase (or no supported phrase) is absent.
Scoring rules: :mod:`.scoring`.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks.base import Benchmark, BenchmarkCard, BenchmarkResult
from memlab.benchmarks.temporal_norm.scoring import choose, intervals, local, metrics_for, status
from memlab.core.errors import MemlabError
from memlab.data.temporal_norm.data import Record, corpus_path, load
from memlab.wiring.components import Components

GRAINS = ("second", "minute", "hour", "day", "week", "month", "quarter", "year")
LICENCES = {
    "duckling": "BSD-3-Clause (Duckling corpus, derived JSON)",
    "tbaq": "research and evaluation only (TempEval-3 TBAQ-cleaned, derived JSON; see its LICENSE)",
}


def _iso(t: Any) -> str:
    return t.isoformat()


@dataclass(eq=False)
class TemporalNormBenchmark(Benchmark):
    """Resolver accuracy, coverage and speed on Duckling-format records (see the module docstring).

    Args:
        corpus: Which set: ``duckling`` or ``tbaq`` (its file under ``data_dir``), or a label for ``path``.
        path: A Duckling-format JSON file to read instead of the corpus's own (None: the corpus's file).
        data_dir: The shared data directory (None: :func:`memlab.core.paths.default_data_dir`).
        context: ``sentence`` (resolve each record in its sentence where it has one) or ``phrase``.
        include_latent: Evaluate ``latentCorpus`` records in the main metrics.
        include_holidays: Evaluate holiday records in the main metrics.
        split: ``all``, ``dev`` or ``heldout``: which hash half the main metrics cover.
        timing_passes: Passes over all phrases for ``resolver_us_per_expr`` (the fastest counts; results come
            from the first pass). Keep 1 for ``temporal=dspy``: its later passes would time DSPy's cache.
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "temporal_norm",
        "2",
        "duckling: BSD-3-Clause (derived JSON); tbaq: research and evaluation only (derived JSON)",
        "resolver_acc",
        ("temporal",),
        "the temporal resolver alone on annotated time expressions (each set: dataset.corpus), read in their "
        "sentences: accuracy, coverage, µs per expression",
    )

    corpus: str = "duckling"
    path: str | None = None
    data_dir: str | None = None
    context: str = "sentence"
    include_latent: bool = False
    include_holidays: bool = False
    split: str = "all"
    timing_passes: int = 1

    def _file(self) -> Path:
        if self.path:
            return Path(self.path)
        from memlab.core.paths import default_data_dir

        return corpus_path(self.corpus, self.data_dir or default_data_dir())

    def _default(self, r: Record) -> bool:
        return (self.include_latent or not r.latent) and (self.include_holidays or not r.holiday)

    @staticmethod
    def _timed_pass(resolver: Any, records: list[Record]) -> int:
        """Thread CPU nanoseconds of one more pass over ``records`` (results discarded)."""
        total = 0
        for r in records:
            t0 = time.thread_time_ns()
            with contextlib.suppress(Exception):  # already counted by the first pass
                resolver.resolve(r.text, r.reference_time)
            total += time.thread_time_ns() - t0
        return total

    def _row(self, r: Record, refs: list[Any], error: str | None) -> dict[str, Any]:
        """One prediction record: the expression, its gold interval, the chosen reference and its status."""
        ref = choose(refs, r.span)
        return {
            "index": r.index,
            "phrase": r.phrase,
            **({"sentence": r.text, "span": list(r.span)} if r.text != r.phrase else {}),
            "block": r.block,
            "kind": r.kind,
            "split": r.split,
            "evaluated": self._default(r) and (self.split == "all" or r.split == self.split),
            "reference_time": _iso(r.reference_time),
            "expected": {"start": _iso(r.start), "end": _iso(r.end), "grain": r.grain},
            "predicted": None
            if ref is None
            else {
                "text": ref.text,
                "start": _iso(local(ref.start, r.reference_time)),
                "end": _iso(local(ref.end, r.reference_time)),
                "grain": ref.grain,
                "kind": ref.kind,
                "confidence": ref.confidence,
            },
            "n_refs": len(refs),
            "status": status(ref, r.start, r.end, r.reference_time),
            **({"error": error} if error else {}),
        }

    def _metrics(
        self, rows: list[dict[str, Any]], records: list[Record], seed: int, total_ns: int, skipped: int
    ) -> dict[str, float]:
        """Accuracy on the evaluated rows, on all, per half, per grain and per kind group; speed and counts."""
        main = [row for row in rows if row["evaluated"]]
        default_set = [row for row, r in zip(rows, records, strict=True) if self._default(r)]
        metrics = metrics_for(main) | intervals(main, seed=seed)
        metrics |= metrics_for(rows, "_all")
        for half in ("dev", "heldout"):
            part = [row for row in default_set if row["split"] == half]
            metrics |= metrics_for(part, f"_{half}") | intervals(part, f"_{half}", seed=seed)
        for grain in GRAINS:
            sub = [row for row in main if row["expected"]["grain"] == grain]
            metrics.update({f"resolver_acc_{grain}": v for k, v in metrics_for(sub).items() if k == "resolver_acc"})
            metrics[f"n_{grain}"] = float(len(sub))
        for group in ("point", "interval", "open"):
            sub = [row for row, r in zip(rows, records, strict=True) if row["evaluated"] and r.kind_group == group]
            metrics.update(
                {f"resolver_acc_kind_{group}": v for k, v in metrics_for(sub).items() if k == "resolver_acc"}
            )
            metrics[f"n_kind_{group}"] = float(len(sub))
        if records:
            metrics["resolver_us_per_expr"] = total_ns / 1000 / len(records)
        metrics["n_records"] = float(len(records))
        metrics["n_skipped_unrepresentable"] = float(skipped)
        metrics["n_resolver_errors"] = float(sum("error" in row for row in rows))
        return metrics

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Resolve every phrase, time it, score it."""
        if self.split not in ("all", "dev", "heldout"):
            raise MemlabError(f"dataset.split must be all, dev or heldout, not {self.split!r}")
        if self.context not in ("sentence", "phrase"):
            raise MemlabError(f"dataset.context must be sentence or phrase, not {self.context!r}")
        path = self._file()
        records, skipped, sha = load(path, context=self.context == "sentence")
        resolver = components.temporal
        if records:
            resolver.resolve(records[0].text, records[0].reference_time)  # warm-up (lazy imports)
        rows: list[dict[str, Any]] = []
        total_ns = 0
        from memlab.observability.progress import progress

        for r in progress(records, desc="resolving expressions", unit="expr"):
            t0 = time.thread_time_ns()
            try:
                refs = resolver.resolve(r.text, r.reference_time)
            except Exception as exc:  # a resolver that raises breaks its contract: count it, do not crash
                refs = []
                error = repr(exc)
            else:
                error = None
            total_ns += time.thread_time_ns() - t0
            rows.append(self._row(r, refs, error))
        for _ in range(max(0, self.timing_passes - 1)):
            total_ns = min(total_ns, self._timed_pass(resolver, records))
        main = [row for row in rows if row["evaluated"]]
        metrics = self._metrics(rows, records, seed, total_ns, skipped)
        card = self.card.data(sha, str(path), LICENCES.get(self.corpus, "see the data file's LICENSE"))
        info = {
            "corpus": self.corpus,
            "context": self.context,
            "evaluated": {
                "include_latent": self.include_latent,
                "include_holidays": self.include_holidays,
                "split": self.split,
            },
            "status_counts": dict(Counter(row["status"] for row in main)),
            "blocks": dict(Counter(r.block for r in records)),
            "resolver": f"{resolver.name}@{resolver.version}",
        }
        return BenchmarkResult(metrics, rows, card, info)
