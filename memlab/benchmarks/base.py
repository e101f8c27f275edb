"""What every benchmark (a ``dataset`` conf option) provides to :func:`memlab.run.run`.

A benchmark owns its data (loading, checksums, licence), its gold and its pure scorers, and declares in a
static :class:`BenchmarkCard` which strategy groups it exercises. :mod:`memlab.run` builds only those
groups (any other is an :class:`~memlab.wiring.build.Unused` stand-in that raises when touched) and refuses an
override of a group the card does not declare.

History-like benchmarks are :class:`EpisodeBenchmark` subclasses: they turn their data into episodes
(memories and the queries asked along the way), say how a query is answered from its selected context,
and score the outcomes; :func:`memlab.pipeline.episode.run_episode` runs the policy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from memlab.core.groups import EPISODE_GROUPS, SETTINGS_GROUPS
from memlab.wiring.components import Components

#: The strategy and settings groups an episode exercises: the whole policy (memlab/core/groups.py).
POLICY: tuple[str, ...] = (*EPISODE_GROUPS, *SETTINGS_GROUPS)


@dataclass(frozen=True)
class BenchmarkCard:
    """The static description of a benchmark (``memlab list`` shows it; runs log it).

    Attributes:
        name: Benchmark name (the ``dataset`` option's public name).
        version: Format or generator version.
        licence: Licence of the data.
        main_metric: The metric a sweep optimises and reports lead with.
        uses: The strategy groups (and ``pipeline``) it exercises; the run builds only these.
        description: One sentence: what it measures.
        headline: Further metrics a comparison shows beside the main one (a sweep's table, the quickstart).
    """

    name: str
    version: str
    licence: str
    main_metric: str
    uses: tuple[str, ...]
    description: str = ""
    headline: tuple[str, ...] = ()

    def data(self, sha256: str, source: str, licence: str | None = None) -> DatasetCard:
        """The card of the data one run read: this benchmark's name, version and main metric, ``licence`` (default
        the benchmark's), the data's checksum and where it came from.
        """
        licence = self.licence if licence is None else licence
        return DatasetCard(self.name, self.version, sha256, licence, source, self.main_metric)


@dataclass(frozen=True)
class DatasetCard:
    """Provenance of the data one run read, logged as MLflow tags.

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


def files_sha256(paths: Iterable[Path]) -> str:
    """The checksum of a selection of repository files: SHA-256 over each file's name, a NUL, its SHA-256, a newline."""
    import hashlib

    from memlab.core.sha import file_sha256

    return hashlib.sha256("".join(f"{p.name}\0{file_sha256(p)}\n" for p in paths).encode()).hexdigest()


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


class Benchmark:
    """A dataset plus its evaluation: the base of every ``dataset`` option.

    Contract: ``card`` declares every strategy group ``run`` touches (and no other); ``run`` is
    deterministic for the same components and seed; it never reads the wall clock for the benchmark's
    "now" (the data defines it); a missing or malformed data file raises
    :class:`~memlab.core.errors.MemlabError` naming the path or record and the fix.
    """

    card: ClassVar[BenchmarkCard]

    def check(self) -> None:
        """Fail fast (before a run starts) when the data cannot be read; default: nothing to check."""

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Evaluate ``components`` on this benchmark."""
        raise NotImplementedError


class EpisodeBenchmark(Benchmark):
    """Base of the history-like benchmarks: data -> episodes -> :func:`run_episode` -> scores.

    Subclasses implement :meth:`load` (the episodes and whatever gold the scorer needs), :meth:`answerer`
    (how a query is answered from its selected context) and :meth:`score` (pure scoring of the outcomes).
    """

    def load(self, seed: int) -> Any:
        """The data: an object with ``episodes`` (a sequence of :class:`memlab.pipeline.episode.Episode`)."""
        raise NotImplementedError

    def answerer(self, components: Components, data: Any) -> Any:
        """``answer(query, context, store) -> record`` for this benchmark (``None``: no queries)."""
        return None

    def score(self, data: Any, outcomes: Sequence[Any], components: Components, seed: int) -> BenchmarkResult:
        """Metrics and predictions from the episodes' outcomes."""
        raise NotImplementedError

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Load, run every episode through the policy (its progress: the episode, its memories and queries), score."""
        from memlab.observability.progress import progress, task
        from memlab.pipeline.episode import run_episode

        data = self.load(seed)
        answer = self.answerer(components, data)
        outcomes = []
        for episode in progress(data.episodes, desc="episode", unit="episode", label=lambda e: e.id):
            with task("memories and queries", len(episode.memories) + len(episode.queries), "item") as work:
                outcomes.append(run_episode(episode, components, answer, tick=work.advance))
        return self.score(data, outcomes, components, seed)
