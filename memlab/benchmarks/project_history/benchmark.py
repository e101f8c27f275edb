"""Benchmarks over project histories: generated (``dataset=project_history``; ``dataset=consolidation_history``, whose
questions consolidation decides), read from a
``memlab.project_history/1`` file (``dataset=project_history_file dataset.path=...``), or the hand-written
built-in history (``dataset=builtin_history``, the data of ``+experiment=quickstart``). Each history is one episode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks.base import POLICY, BenchmarkCard, BenchmarkResult, DatasetCard, EpisodeBenchmark
from memlab.benchmarks.project_history.evaluate import history_episode, score_history, stale_since
from memlab.benchmarks.project_history.evaluate_queries import make_answerer
from memlab.core.errors import MemlabError
from memlab.core.sha import file_sha256
from memlab.data.project_history.builtin import generate as generate_builtin
from memlab.data.project_history.consolidation import VERSION as CONSOLIDATION_VERSION
from memlab.data.project_history.consolidation import generate_consolidation
from memlab.data.project_history.generator import GENERATOR_VERSION, generate
from memlab.data.project_history.schema import ProjectHistory, read
from memlab.wiring.components import Components

#: The reader's accuracy over the current, as-of and when questions: every design is scored on the same questions
#: from the context it built (``supersession_f1`` is 0 by construction for a design without a judge, so it stays a
#: diagnostic among the headline metrics).
MAIN_METRIC = "reader_acc"
#: What a comparison of history runs shows beside the main metric.
HEADLINE: tuple[str, ...] = (
    "reader_acc",
    "supersession_f1",
    "stale_rate_injected",
    "current_coverage_injected",
    "current_truth_at_1",
    "injected_tokens",
)
#: History benchmarks run the whole policy; ``temporal`` reads the dates ``when`` questions mention.
USES: tuple[str, ...] = (*POLICY, "temporal", "reader")


@dataclass(frozen=True)
class HistoryData:
    """One history, its episode and its provenance."""

    history: ProjectHistory
    card: DatasetCard

    @property
    def episodes(self) -> tuple[Any, ...]:
        """The history as one episode."""
        return (history_episode(self.history),)


class _HistoryBenchmark(EpisodeBenchmark):
    """Shared answerer and scorer of the history benchmarks."""

    def answerer(self, components: Components, data: HistoryData) -> Any:
        """Answers each gold query from its context (:mod:`evaluate_queries`)."""
        return make_answerer(data.history, components, stale_since(data.history))

    def score(self, data: HistoryData, outcomes: Sequence[Any], components: Components, seed: int) -> BenchmarkResult:
        """Score the history's one episode."""
        return score_history(data.history, outcomes[0], data.card)


@dataclass(eq=False)
class ProjectHistoryBenchmark(_HistoryBenchmark):
    """A generated history (see :mod:`memlab.data.project_history.generator`).

    Args:
        seed: Generator seed (conf default: the run's ``seed``).
        size: Number of memories (100 to 100,000).
        difficulty: ``easy``, ``default``, ``hard`` or a number in [0, 1].
        noise_ratio: Fraction of memories that are unrelated noise or distractors.
        style: Phrasing family or families joined by ``+`` (:mod:`~.generator_families`; ``classic``).
        hard_negatives: Share of events that are plans, mentions in passing or recaps (0 by default).
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "project_history",
        str(GENERATOR_VERSION),
        "generated (MIT)",
        MAIN_METRIC,
        USES,
        "generated project histories with exact gold: supersession, duplicates, current/as-of/when/history "
        "questions, the SessionStart block",
        headline=HEADLINE,
    )

    seed: int = 0
    size: int = 400
    difficulty: str | float = "default"
    noise_ratio: float = 0.3
    style: str = "classic"
    hard_negatives: float = 0.0

    def load(self, seed: int) -> HistoryData:
        """Generate the history."""
        history = generate(
            int(self.seed),
            int(self.size),
            self.difficulty,
            float(self.noise_ratio),
            str(self.style),
            float(self.hard_negatives),
        )
        extra = "" if str(self.style) == "classic" else f", style={self.style!r}"
        extra += f", hard_negatives={self.hard_negatives}" if self.hard_negatives else ""
        call = f"generate(seed={self.seed}, size={self.size}, difficulty={self.difficulty!r}, "
        return HistoryData(history, self.card.data(history.sha256(), f"{call}noise_ratio={self.noise_ratio}{extra})"))


class ProjectHistoryFileBenchmark(_HistoryBenchmark):
    """A history read from a ``memlab.project_history/1`` JSON file.

    Args:
        path: The file (the generator's CLI writes one:
            ``python -m memlab.benchmarks.project_history --seed 0 --size 500 --out FILE``).
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "project_history_file",
        "1",
        "as stated by the file's author",
        MAIN_METRIC,
        USES,
        "a project history you bring, in the memlab.project_history/1 format",
        headline=HEADLINE,
    )

    def __init__(self, path: str = "") -> None:
        self.path = path

    def check(self) -> None:
        """The file exists (read errors name the record)."""
        if not self.path or not Path(self.path).is_file():
            raise MemlabError(
                f"project history file not found: '{self.path}'; pass dataset.path=/abs/file.json "
                "(write one with `python -m memlab.benchmarks.project_history --out FILE`)"
            )

    def load(self, seed: int) -> HistoryData:
        """Read and validate the file."""
        self.check()
        history = read(self.path)
        digest = file_sha256(self.path)
        licence = str(history.meta.get("licence", self.card.licence))
        return HistoryData(history, self.card.data(digest, str(self.path), licence))


class BuiltinHistoryBenchmark(_HistoryBenchmark):
    """The hand-written built-in history (:mod:`memlab.data.project_history.builtin`; no files).

    Args:
        seed: Shuffles phrasings and noise (the gold follows).
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "builtin_history",
        "1",
        "generated (MIT)",
        MAIN_METRIC,
        (*POLICY, "reader"),  # no question asks for a date a note mentions: the temporal resolver is never read
        "a small hand-written project history (58 memories, four months) with exact gold (+experiment=quickstart's "
        "data)",
        headline=HEADLINE,
    )

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def load(self, seed: int) -> HistoryData:
        """Generate the history."""
        history = generate_builtin(self.seed)
        call = f"memlab.data.project_history.builtin.generate(seed={self.seed})"
        return HistoryData(history, self.card.data(history.sha256(), call))


@dataclass(eq=False)
class ConsolidationHistoryBenchmark(_HistoryBenchmark):
    """A generated history whose questions consolidation decides (:mod:`memlab.data.project_history.consolidation`):
    each question's trap (a stale statement, an old unimportant note, a value stated apart from the question's words)
    is removed only by the judge, by retention or by clustering.

    Args:
        seed: Generator seed (conf default: the run's ``seed``; develop on 1020 and up, report on 0-2).
        questions: Questions, one trapped topic instance each.
        noise_ratio: Fraction of memories that are unrelated noise.
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "consolidation_history",
        str(CONSOLIDATION_VERSION),
        "generated (MIT)",
        MAIN_METRIC,
        (*POLICY, "reader"),  # current questions only: the temporal resolver is never read
        "generated histories whose current questions are answered wrongly from stale, old or scattered notes and "
        "rightly from a consolidated store",
        headline=HEADLINE,
    )

    seed: int = 0
    questions: int = 300
    noise_ratio: float = 0.2

    def load(self, seed: int) -> HistoryData:
        """Generate the history."""
        history = generate_consolidation(int(self.seed), int(self.questions), float(self.noise_ratio))
        call = f"generate_consolidation(seed={self.seed}, questions={self.questions}, noise_ratio={self.noise_ratio})"
        return HistoryData(history, self.card.data(history.sha256(), call))
