"""Benchmarks over project histories: generated in memory (``dataset=project_history``) or read from a
``memlab.project_history/1`` file (``dataset=project_history_file dataset.path=...``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import ClassVar

from memlab.benchmarks.base import BenchmarkResult, DatasetCard
from memlab.benchmarks.project_history.evaluate import evaluate_history
from memlab.benchmarks.project_history.generator import GENERATOR_VERSION, generate
from memlab.benchmarks.project_history.schema import read
from memlab.components import Components

MAIN_METRIC = "supersession_f1"


class ProjectHistoryBenchmark:
    """A generated history (see :mod:`memlab.benchmarks.project_history.generator`).

    Args:
        seed: Generator seed (conf default: the run's ``seed``).
        size: Number of memories (100 to 100,000).
        difficulty: ``easy``, ``default``, ``hard`` or a number in [0, 1].
        noise_ratio: Fraction of memories that are unrelated noise or distractors.
    """

    name: ClassVar[str] = "project_history"
    version: ClassVar[int] = GENERATOR_VERSION

    def __init__(self, seed: int = 0, size: int = 400, difficulty: str | float = "default", noise_ratio: float = 0.3):
        self.seed = seed
        self.size = size
        self.difficulty = difficulty
        self.noise_ratio = noise_ratio

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Generate the history and evaluate ``components`` on it."""
        history = generate(int(self.seed), int(self.size), self.difficulty, float(self.noise_ratio))
        card = DatasetCard(
            "project_history",
            str(self.version),
            history.sha256(),
            "generated (MIT)",
            f"generate(seed={self.seed}, size={self.size}, difficulty={self.difficulty!r}, "
            f"noise_ratio={self.noise_ratio})",
            MAIN_METRIC,
        )
        return evaluate_history(history, components, card)


class ProjectHistoryFileBenchmark:
    """A history read from a ``memlab.project_history/1`` JSON file.

    Args:
        path: The file (the generator's CLI writes one:
            ``python -m memlab.benchmarks.project_history --seed 0 --size 500 --out FILE``).
    """

    name: ClassVar[str] = "project_history_file"
    version: ClassVar[int] = 1

    def __init__(self, path: str = "") -> None:
        self.path = path

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Read, validate and evaluate."""
        history = read(self.path)
        digest = hashlib.sha256(Path(self.path).read_bytes()).hexdigest()
        licence = str(history.meta.get("licence", "as stated by the file's author"))
        card = DatasetCard("project_history_file", str(self.version), digest, licence, str(self.path), MAIN_METRIC)
        return evaluate_history(history, components, card)
