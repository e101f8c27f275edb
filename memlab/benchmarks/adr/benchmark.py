"""``dataset=adr_decisions``: public architecture decision records, one episode per repository.

Each repository file of ``path`` becomes a :class:`ProjectHistory` (:mod:`memlab.data.adr.history`),
run through the whole policy as one episode and scored with the same query answerer as the project
histories. Per repository: ``info["repos"][name]`` (its rates, counts, gold pairs with candidate /
predicted / verdict, skipped links) and the MLflow metrics ``repo.<owner__name>.<rate>`` for the main
rates, with their counts ``repo.<owner__name>.n_...`` (:data:`memlab.benchmarks.adr.pooled.RATE_COUNTS`).
Pooled over repositories (:mod:`memlab.benchmarks.adr.pooled`): ``supersession_{precision,recall,f1}`` (micro),
``supersession_f1_macro``, ``candidate_recall``, ``stale_rate_injected``, ``current_truth_at_1``,
``current_coverage_injected``, ``as_of_acc`` with bootstrap intervals over repositories and the ``n_``
counts, the consolidation phases' ``latency_*_s`` summed over repositories, and ``injected_tokens`` (mean
per repository). An undefined rate (no gold, no query, empty block) is absent. An empty repository is
reported in ``info`` and not run; a repository without links is run (its edges are false positives).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks import metrics
from memlab.benchmarks.adr.pooled import CI_RATES, RATE_COUNTS, pooled_metrics, rate_counts, rates
from memlab.benchmarks.adr.scoring import repo_score
from memlab.benchmarks.base import POLICY, BenchmarkCard, BenchmarkResult, DatasetCard, EpisodeBenchmark, files_sha256
from memlab.benchmarks.project_history.evaluate import history_episode, stale_since
from memlab.benchmarks.project_history.evaluate_queries import make_answerer
from memlab.core.errors import MemlabError
from memlab.data.adr.corpus import SPLITS, read_repo, repo_files
from memlab.data.adr.history import repo_history
from memlab.data.adr.strip import REFS
from memlab.data.project_history.schema import ProjectHistory
from memlab.wiring.components import Components

MAIN_METRIC = "supersession_f1"
HEADLINE: tuple[str, ...] = (
    "supersession_f1",
    "candidate_recall",
    "stale_rate_injected",
    "current_coverage_injected",
    "current_truth_at_1",
    "injected_tokens",
)
#: Per-repository rates also logged as ``repo.<owner__name>.<rate>``.
REPO_METRICS: tuple[str, ...] = CI_RATES


@dataclass(frozen=True)
class AdrData:
    """The repositories' histories (empty ones kept for the report, not run) and the data's provenance."""

    histories: tuple[ProjectHistory, ...]
    card: DatasetCard

    @property
    def runnable(self) -> tuple[ProjectHistory, ...]:
        """Histories with at least one record."""
        return tuple(h for h in self.histories if h.memories)

    @property
    def episodes(self) -> tuple[Any, ...]:
        """One episode per non-empty repository."""
        return tuple(history_episode(h) for h in self.runnable)


@dataclass(eq=False)
class AdrDecisionsBenchmark(EpisodeBenchmark):
    """Architecture decision records of public repositories with gold supersessions.

    Args:
        path: Folder of ``owner__name.json`` files (format: the folder's ``SOURCE.md``).
        repos: Only these repositories (``owner/name`` or ``owner__name``); ``None``: all of the split.
        split: ``all``, ``dev`` or ``sealed`` (:func:`memlab.data.splits.sealed_names`, the ADR salt).
        refs: ``strip`` or ``keep`` (:mod:`memlab.data.adr.strip`).
        max_chars: Cap of each memory's content.
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "adr_decisions",
        "1",
        "per repository (the data folder's LICENSES.md)",
        MAIN_METRIC,
        POLICY,  # no question asks for a date a record mentions: the temporal resolver is never read
        "public architecture decision records, one episode per repository, gold supersessions and amendments "
        "read from the records, status marks and references stripped",
        headline=HEADLINE,
    )

    path: str = ""
    repos: Sequence[str] | None = None
    split: str = "all"
    refs: str = "strip"
    max_chars: int = 1500

    def _files(self) -> list[Path]:
        if self.refs not in REFS:
            raise MemlabError(f"unknown refs {self.refs!r}; use dataset.refs=strip or dataset.refs=keep")
        if self.split not in SPLITS:
            raise MemlabError(f"unknown split {self.split!r}; use dataset.split=one of {', '.join(SPLITS)}")
        repos = self.repos
        if repos is not None:
            repos = [repos] if isinstance(repos, str) else [str(r) for r in repos]
        return repo_files(self.path, repos, self.split)

    def check(self) -> None:
        """The folder exists and holds repository files of the split (and the named ones)."""
        self._files()

    def load(self, seed: int) -> AdrData:
        """Read every chosen repository file and build its history."""
        files = self._files()
        histories = tuple(repo_history(read_repo(f), self.refs, int(self.max_chars)) for f in files)
        licences = sorted({str(h.meta.get("licence")) for h in histories})
        source = f"{self.path} (split={self.split}, repos={len(files)}, refs={self.refs}, max_chars={self.max_chars})"
        return AdrData(histories, self.card.data(files_sha256(files), source, ", ".join(licences)))

    def answerer(self, components: Components, data: AdrData) -> Any:
        """Each query answered by its repository's answerer (query ids are unique across repositories)."""
        by_query = {}
        for history in data.runnable:
            answer = make_answerer(history, components, stale_since(history), read=False)
            by_query.update({q.id: answer for q in history.queries})

        def answer(query, context, store):
            return by_query[query.id](query, context, store)

        return answer

    def score(self, data: AdrData, outcomes: Sequence[Any], components: Components, seed: int) -> BenchmarkResult:
        """Per-repository and pooled figures (see the module docstring)."""
        repos: dict[str, Any] = {}
        counts: list[dict[str, float]] = []
        predictions: list[dict[str, Any]] = []
        out: dict[str, float] = {}
        artifacts: dict[str, bytes] = {}
        for history in data.histories:
            if not history.memories:
                repos[history.name] = {"empty": True, "n_records": 0, "skipped_links": history.meta["skipped_links"]}
        for history, outcome in zip(data.runnable, outcomes, strict=True):
            repo_counts, info, records = repo_score(history, outcome)
            repo_rates = rates(repo_counts)
            counts.append(repo_counts)
            predictions.extend(records)
            repos[history.name] = {"empty": False, **repo_rates, "counts": repo_counts, **info}
            out.update({f"repo.{history.name}.{k}": v for k, v in repo_rates.items() if k in REPO_METRICS})
            shown = {RATE_COUNTS[k] for k in REPO_METRICS}  # every per-repository rate's count, defined or not
            out.update({f"repo.{history.name}.{k}": v for k, v in rate_counts(repo_counts).items() if k in shown})
            artifacts[f"injected_blocks/{history.name}.md"] = outcome.block.text.encode("utf-8")
        out.update(pooled_metrics(counts, seed=0))
        if counts:
            out["injected_tokens"] = metrics.mean(c["injected_tokens"] for c in counts)
            out.update(metrics.latency_metrics([o.seconds for o in outcomes]))
            out["n_consolidations"] = float(sum(len(o.runs) for o in outcomes))
        out["n_records"] = float(sum(len(h.memories) for h in data.histories))
        out["n_skipped_links"] = float(sum(len(h.meta["skipped_links"]) for h in data.histories))
        out["n_empty_repos"] = float(sum(1 for h in data.histories if not h.memories))
        out["n_repos_without_links"] = float(sum(1 for h in data.histories if h.meta["no_links"]))
        info = {"refs": self.refs, "split": self.split, "repos": dict(sorted(repos.items()))}
        return BenchmarkResult(out, predictions, data.card, info, artifacts=artifacts)
