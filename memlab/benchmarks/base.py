"""What every benchmark (a ``dataset`` conf option) provides to :func:`memlab.run.run`.

A benchmark owns its data (loading, checksums, licence) and its evaluation; run.py only builds it,
calls :meth:`Benchmark.run` and hands the result to the tracker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from memlab.components import Components


@dataclass(frozen=True)
class DatasetCard:
    """Provenance of a benchmark's data, logged as MLflow tags.

    Attributes:
        name: Dataset name (``locomo``, ``builtin_history``, ...).
        version: Format or generator version.
        sha256: Checksum of the data file, or of the generated data's canonical JSON.
        licence: Licence of the data.
        source: Path or generator description.
        main_metric: The metric a sweep optimises.
    """

    name: str
    version: str
    sha256: str
    licence: str
    source: str
    main_metric: str


@dataclass
class BenchmarkResult:
    """Outcome of one benchmark run.

    Attributes:
        metrics: Flat metric name -> value (finite floats).
        predictions: One JSON-serialisable record per evaluated item (written to ``predictions.jsonl``).
        card: The data's provenance.
        info: Extra JSON-serialisable facts (counts, quirks, per-category tables) for ``result.json``.
        tier_counts: Memories per tier value at the end of the run (for the tier plot), if any.
        artifacts: Extra files to attach: artifact path -> bytes.
    """

    metrics: dict[str, float]
    predictions: list[dict[str, Any]]
    card: DatasetCard
    info: dict[str, Any] = field(default_factory=dict)
    tier_counts: Mapping[str, int] | None = None
    artifacts: dict[str, bytes] = field(default_factory=dict)


@runtime_checkable
class Benchmark(Protocol):
    """A dataset plus its evaluation.

    Contract: ``run`` is deterministic for the same components and seed; it never reads the wall clock
    for the benchmark's "now" (the data defines it); a missing or malformed data file raises
    :class:`~memlab.errors.MemlabError` naming the path or record and the fix.
    """

    name: ClassVar[str]
    version: ClassVar[int]

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Evaluate ``components`` on this benchmark."""
        ...
