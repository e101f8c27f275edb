"""Ablation: cluster by time alone (fixed windows or activity sessions), ignoring what memories say."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import ClassVar

import numpy as np

from memlab.core.errors import MemlabError
from memlab.strategies.clusterer.base import ClustererBase
from memlab.strategies.clusterer.canonical import canonical_order, relabel

MODES: tuple[str, ...] = ("fixed", "gap", "archive")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class TimeWindowClusterer(ClustererBase):
    """Groups memories by their timestamps only; the embeddings are ignored.

    * ``mode: fixed`` — calendar windows of ``window_hours`` aligned to the Unix epoch (UTC): two memories
      share a cluster when they fall in the same window.
    * ``mode: gap`` — activity sessions: in time order, a new cluster starts whenever the gap to the
      previous memory exceeds ``gap_minutes`` (Astra ends a session after 30 minutes of inactivity).
    * ``mode: archive`` — squidbot's archived chunks (pair with ``retention=sliding_window`` and the same
      ``trigger``/``keep``): with at most ``trigger`` memories nothing is clustered; beyond, every memory but
      the newest ``keep`` falls, in time order, into consecutive chunks of ``trigger + 1 − keep`` (the
      messages one squidbot consolidation archives), the last chunk holding what is left. Every memory the
      window archives is in a chunk whatever its size (``min_cluster_size`` and ``max_cluster_size`` do not
      apply), so no archived memory goes unsummarised; a memory tied in time with an archived one is chunked
      too (the retention breaks ties by id, which the clusterer does not see).

    The git-notes-memory consolidation design clusters "by embedding similarity only — time is NOT a
    factor"; running the same policy with ``clusterer=time_window`` instead of ``agglomerative`` measures
    what that choice is worth (if time-only clusters score as well, meaning was not what mattered). With
    ``mode: gap`` it is also the session grouping Astra's narratives need (``summarizer=session_narrative``).

    A group larger than ``max_cluster_size`` is split into consecutive chunks of at most that size in time
    order (``split_oversize``; otherwise it is dropped, as the seed drops oversize clusters); groups below
    ``min_cluster_size`` get label -1. Rows are ordered canonically (timestamp, then vector bytes), so the
    same rows in any order give the same partition.

    Args:
        mode: ``fixed`` or ``gap``.
        window_hours: Window length for ``fixed`` (default one day).
        gap_minutes: Inactivity that ends a session for ``gap`` (Astra: 30).
        min_cluster_size: Smallest cluster (seed: 3).
        max_cluster_size: Largest cluster (seed: 20; Astra caps a narrative at 50 experiences).
        split_oversize: Split oversize groups into chunks instead of dropping them.
        trigger: ``archive``: memories above this count are archived (squidbot: 100).
        keep: ``archive``: newest memories never archived (squidbot: 20).
    """

    name: ClassVar[str] = "time_window"
    version: ClassVar[int] = 1

    def __init__(
        self,
        mode: str = "fixed",
        window_hours: float = 24.0,
        gap_minutes: float = 30.0,
        min_cluster_size: int = 3,
        max_cluster_size: int = 20,
        split_oversize: bool = True,
        trigger: int = 100,
        keep: int = 20,
    ) -> None:
        self.mode = mode
        self.window_hours = window_hours
        self.gap_minutes = gap_minutes
        self.min_cluster_size = min_cluster_size
        self.max_cluster_size = max_cluster_size
        self.split_oversize = split_oversize
        self.trigger = trigger
        self.keep = keep

    def groups(self, ordered: Sequence[datetime]) -> list[int]:
        """Group index of each timestamp in ``ordered`` (ascending) before size filtering."""
        if self.mode not in MODES:
            raise MemlabError(f"unknown time_window mode '{self.mode}'; valid: {', '.join(MODES)}")
        if self.mode == "fixed":
            if self.window_hours <= 0:
                raise MemlabError(f"time_window needs window_hours > 0, got {self.window_hours}")
            width = self.window_hours * 3600.0
            return [int((t - _EPOCH).total_seconds() // width) for t in ordered]
        out, group = [], 0
        for i, t in enumerate(ordered):
            if i and (t - ordered[i - 1]).total_seconds() > self.gap_minutes * 60.0:
                group += 1
            out.append(group)
        return out

    def archive_chunks(self, ordered: Sequence[datetime]) -> list[int]:
        """``archive`` mode: chunk index of each timestamp in ``ordered`` (ascending), -1 for the live ones."""
        if not 0 <= self.keep <= self.trigger:
            raise MemlabError(
                f"time_window archive mode needs 0 <= keep <= trigger, got keep={self.keep}, trigger={self.trigger}; "
                "fix clusterer.keep or clusterer.trigger"
            )
        n = len(ordered)
        if n <= self.trigger:
            return [-1] * n
        archived = n - self.keep
        while archived < n and ordered[archived] == ordered[archived - 1]:
            archived += 1  # a live memory tied in time with an archived one: chunk it too
        size = self.trigger + 1 - self.keep
        return [i // size if i < archived else -1 for i in range(n)]

    def _split(self, groups: list[int]) -> list[int]:
        if not self.split_oversize or self.max_cluster_size <= 0:
            return groups
        out, seen, chunk, prev = [], 0, 0, None
        for g in groups:  # groups are contiguous runs in time order
            if g != prev:
                prev, seen = g, 0
                chunk += 1
            elif seen % self.max_cluster_size == 0:
                chunk += 1
            seen += 1
            out.append(chunk)
        return out

    def fit_predict(self, embeddings: np.ndarray, timestamps: Sequence[datetime]) -> np.ndarray:
        """Label rows; see the class docstring."""
        n = len(timestamps)
        if n == 0:
            return np.zeros(0, dtype=int)
        rows = np.asarray(embeddings) if len(embeddings) == n else np.zeros((n, 1))
        perm = canonical_order(rows, timestamps)
        ordered = [timestamps[i] for i in perm]
        if self.mode == "archive":
            labels = np.empty(n, dtype=int)
            labels[perm] = np.array(self.archive_chunks(ordered), dtype=int)
            return labels
        labels_sorted = relabel(
            np.array(self._split(self.groups(ordered))), self.min_cluster_size, self.max_cluster_size
        )
        labels = np.empty(n, dtype=int)
        labels[perm] = labels_sorted
        return labels
