"""``dataset=memory_files``: agents' memory files (CLAUDE.md, AGENTS.md, memory banks), commit by commit.

One episode per (repository, memory file): each fact is a memory recorded at its commit's time, in commit order
(:mod:`memlab.data.memory_files.memories`); the policy never sees a removal (an agent's notes do not announce
them). Each commit is a session and a checkpoint: the SessionStart block right after it is scored against the file
at that time (:mod:`.scoring`).
Rates (:data:`RATES`) are ratios of counts summed over files and repositories, with bootstrap intervals over
repositories; per file (``file.<owner__name>/<path>.<rate>``), kind (``kind.<kind>.<rate>``) and repository
(``repo.<owner__name>.<rate>``), with the counts that are reported, not scored, beside them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks import metrics
from memlab.benchmarks import pooled as pool
from memlab.benchmarks.base import POLICY, BenchmarkCard, BenchmarkResult, DatasetCard, EpisodeBenchmark, files_sha256
from memlab.benchmarks.memory_files.scoring import COUNTS, file_score
from memlab.core.errors import MemlabError
from memlab.data.memory_files.corpus import MemoryFile, read_repo, repo_files
from memlab.data.memory_files.memories import file_memories
from memlab.data.splits import SPLITS
from memlab.pipeline.episode import Episode
from memlab.wiring.components import Components

log = logging.getLogger(__name__)

MAIN_METRIC = "block_current_precision"
HEADLINE = ("block_current_precision", "stale_inferable_in_block", "current_coverage", "replacement_f1",
            "candidate_recall")  # fmt: skip
RATES: pool.RateTable = {
    "block_current_precision": (((1, "n_block_current"),), ((1, "n_block_facts"),)),
    "stale_inferable_in_block": (((1, "n_block_stale_inferable"),), ((1, "n_block_facts"),)),
    "gone_other_in_block": (((1, "n_block_gone_other"),), ((1, "n_block_facts"),)),
    "current_coverage": (((1, "n_current_in_block"),), ((1, "n_coverage_slots"),)),
    "replacement_precision": (((1, "rep_tp"),), ((1, "rep_tp"), (1, "rep_fp"))),
    "replacement_recall": (((1, "rep_tp"),), ((1, "rep_tp"), (1, "rep_fn"))),
    "replacement_f1": (((2, "rep_tp"),), ((2, "rep_tp"), (1, "rep_fp"), (1, "rep_fn"))),
    "candidate_recall": (((1, "n_kept_candidates"),), ((1, "n_kept_pairs"),)),
}


def file_episode(mfile: MemoryFile) -> tuple[Episode, dict[str, str]]:
    """The file as an episode (:func:`~memlab.data.memory_files.memories.file_memories`, a checkpoint per commit)
    and its fact id -> memory id map.
    """
    memories, times, ids = file_memories(mfile)
    return Episode(f"{mfile.repo}:{mfile.path}", memories, checkpoints=times), ids


@dataclass(frozen=True)
class MemoryFilesData:
    """The chosen memory files and the data's provenance."""

    files: tuple[MemoryFile, ...]
    card: DatasetCard


@dataclass(eq=False)
class MemoryFilesBenchmark(EpisodeBenchmark):
    """Memory files of public repositories, scored at every commit against the file at that time.

    Args:
        path: Folder of ``owner__name.json`` files (format: the folder's ``SOURCE.md``).
        repos: Only these repositories (``owner/name`` or ``owner__name``); ``None``: all of the split.
        split: ``all``, ``dev`` or ``sealed`` (:mod:`memlab.data.splits`).
        kinds: Only files of these kinds (``CLAUDE.md``, ``memory-bank/progress.md``, or a kind's file name,
            any case); ``None``: every kind.
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "memory_files",
        "1",
        "per repository (the data folder's LICENSES.md)",
        MAIN_METRIC,
        POLICY,
        "agents' memory files of public repositories, fact by fact in commit order, the SessionStart block after "
        "every commit scored against the file at that time",
        headline=HEADLINE,
    )

    path: str = ""
    repos: Sequence[str] | None = None
    split: str = "all"
    kinds: Sequence[str] | None = None

    def _files(self) -> list[Path]:
        if self.split not in SPLITS:
            raise MemlabError(f"unknown split {self.split!r}; use dataset.split=one of {', '.join(SPLITS)}")
        return repo_files(self.path, self.repos, self.split)

    def check(self) -> None:
        """The folder exists and holds repository files of the split (and the named ones)."""
        self._files()

    def _wanted(self, mfile: MemoryFile) -> bool:
        if self.kinds is None:
            return True
        kinds = [self.kinds] if isinstance(self.kinds, str) else list(self.kinds)
        names = {mfile.kind.lower(), mfile.kind.rsplit("/", 1)[-1].lower()}
        return any(str(k).lower() in names for k in kinds)

    def load(self, seed: int) -> MemoryFilesData:
        """Read every chosen repository file (validated: a malformed one is a one-line error naming it)."""
        paths = self._files()
        repos = [read_repo(p) for p in paths]
        files = tuple(f for r in repos for f in r.files if self._wanted(f))
        if not files:
            raise MemlabError(f"no memory file of kinds {list(self.kinds or [])} in the chosen repositories; "
                              "pass dataset.kinds=null or other kinds")  # fmt: skip
        licences = ", ".join(sorted({r.license for r in repos}))
        source = f"{self.path} (split={self.split}, repos={len(paths)}, files={len(files)}, kinds={self.kinds})"
        return MemoryFilesData(files, self.card.data(files_sha256(paths), source, licences))

    def run(self, components: Components, seed: int) -> BenchmarkResult:
        """Each file's episode in turn (files come grouped by repository), a log line per repository."""
        from memlab.observability.progress import progress
        from memlab.pipeline.episode import run_episode

        data = self.load(seed)
        outcomes = []
        repos = list(dict.fromkeys(f.repo for f in data.files))
        for k, repo in enumerate(progress(repos, desc="repository", unit="repository", label=str), 1):
            t0, mine = time.perf_counter(), [f for f in data.files if f.repo == repo]
            for mfile in mine:
                episode, ids = file_episode(mfile)
                outcomes.append((run_episode(episode, components), ids))
            log.info("memory_files: %s (%d of %d repositories): %d files, %.1f s",
                     repo, k, len(repos), len(mine), time.perf_counter() - t0)  # fmt: skip
        return self.score(data, outcomes, components, seed)

    def score(
        self, data: MemoryFilesData, outcomes: Sequence[Any], components: Components, seed: int
    ) -> BenchmarkResult:
        """Per file, kind, repository and pooled; ``outcomes``: ``(outcome, fact id -> memory id)`` per file."""
        by_repo: dict[str, list[dict[str, float]]] = {}
        by_kind: dict[str, dict[str, list[dict[str, float]]]] = {}
        files: dict[str, Any] = {}
        predictions: list[dict[str, Any]] = []
        out: dict[str, float] = {}
        for mfile, (outcome, ids) in zip(data.files, outcomes, strict=True):
            counts, records, info = file_score(mfile, ids, outcome, components)
            name = f"{mfile.repo.replace('/', '__')}/{mfile.path}"
            by_repo.setdefault(mfile.repo.replace("/", "__"), []).append(counts)
            by_kind.setdefault(mfile.kind, {}).setdefault(mfile.repo, []).append(counts)
            rates = pool.rates(counts, RATES)
            files[name] = {"kind": mfile.kind, **rates, "counts": counts, **info}
            out.update({f"file.{name}.{k}": v for k, v in rates.items()})
            predictions.extend({"repo": mfile.repo, "path": mfile.path, **r} for r in records)
        repo_counts = {repo: pool.summed(c, COUNTS) for repo, c in by_repo.items()}
        for repo, counts in repo_counts.items():
            out.update({f"repo.{repo}.{k}": v for k, v in pool.rates(counts, RATES).items()})
        for kind, repos in by_kind.items():
            kind_counts = [pool.summed(c, COUNTS) for c in repos.values()]
            total = pool.summed(kind_counts, COUNTS)
            out.update({f"kind.{kind}.{k}": v for k, v in pool.rates(total, RATES).items()})
            out[f"kind.{kind}.n_files"] = float(sum(len(c) for c in repos.values()))
            out[f"kind.{kind}.n_block_facts"] = total["n_block_facts"]
            out.update({f"kind.{kind}.{k}": v for k, v in pool.bootstrap(kind_counts, RATES, [MAIN_METRIC]).items()})
        total = pool.summed(list(repo_counts.values()), COUNTS)
        out.update(pool.rates(total, RATES))
        out.update(pool.bootstrap(list(repo_counts.values()), RATES, seed=0))
        out.update(total)
        out["n_repos"] = float(len(repo_counts))
        out["n_files"] = float(len(data.files))
        out.update(metrics.latency_metrics([o.seconds for o, _ in outcomes]))
        out["n_consolidations"] = float(sum(len(o.runs) for o, _ in outcomes))
        info = {"split": self.split, "kinds": self.kinds, "files": dict(sorted(files.items()))}
        return BenchmarkResult(out, predictions, data.card, info)
