"""Nearest neighbours within blocks, kept between calls: adding items costs ``O(new × block)``.

:class:`BlockedKnn` remembers each item's ``k`` nearest neighbours within its block (cosine of
L2-normalised rows). :meth:`BlockedKnn.add` takes the items not seen before and returns the candidate pairs
they create: each new item with its ``k`` nearest in its block, and each earlier item with a new item that
enters its ``k`` nearest. A pair of two earlier items cannot newly become a candidate (adding items only
pushes neighbours out of a top-``k``), so across calls the pairs are those a full search would give after each
call, except where similarities tie exactly, and each pair is reported once. Vectors are not kept: each call
passes the current matrix and the row of every key it needs.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np


class BlockedKnn:
    """Each item's ``k`` nearest neighbours within its block (see the module docstring).

    Args:
        k: Neighbours per item.
        min_similarity: Pairs below this cosine are not returned (they still count as neighbours).
    """

    def __init__(self, k: int, min_similarity: float) -> None:
        self.k = k
        self.min_similarity = min_similarity
        self.members: dict[Hashable, list[str]] = {}
        self.top: dict[str, tuple[np.ndarray, list[str]]] = {}

    def __contains__(self, key: str) -> bool:
        return key in self.top

    def add(
        self,
        keys: Sequence[str],
        blocks: Sequence[Hashable],
        matrix: np.ndarray,
        rows: Mapping[str, int],
        chunk: int = 1024,
    ) -> list[tuple[str, str, float]]:
        """Add new items; returns the candidate pairs ``(key, key, cosine)`` they create.

        Args:
            keys: The new items (not added before), in a deterministic order.
            blocks: Each new item's block.
            matrix: L2-normalised vectors; ``rows`` maps every key of the index and every new key to its row.
            rows: Key -> row of ``matrix``.
            chunk: New items compared at once.
        """
        new_by_block: dict[Hashable, list[str]] = {}
        for key, block in zip(keys, blocks, strict=True):
            new_by_block.setdefault(block, []).append(key)
        pairs: dict[tuple[str, str], float] = {}
        mat = np.asarray(matrix, dtype=np.float32)
        for block, new in new_by_block.items():
            old = self.members.setdefault(block, [])
            everyone = old + new
            block_t = mat[[rows[key] for key in everyone]].T  # gathered once per block, not once per chunk
            k_eff = min(self.k, len(everyone) - 1)
            for lo in range(0, len(new), chunk):  # memory O(chunk · block)
                part = new[lo : lo + chunk]
                sims = mat[[rows[key] for key in part]] @ block_t
                sims[np.arange(len(part)), np.arange(len(part)) + len(old) + lo] = -np.inf
                if k_eff > 0:
                    self._new_rows(part, everyone, sims, k_eff, pairs)
                    if old:
                        self._old_rows(part, old, sims[:, : len(old)], pairs)
                else:
                    for key in part:
                        self.top[key] = (np.zeros(0, dtype=np.float32), [])
            old.extend(new)
        return [(a, b, s) for (a, b), s in pairs.items()]

    def _new_rows(self, new, everyone, sims, k_eff, pairs) -> None:
        part = top_columns(sims, k_eff)
        for r, key in enumerate(new):
            cols = part[r]
            values = sims[r, cols]
            self.top[key] = (values.astype(np.float32), [everyone[c] for c in cols])
            for c, v in zip(cols.tolist(), values.tolist(), strict=True):
                if v >= self.min_similarity:
                    pairs[_ordered(key, everyone[c])] = v

    def _old_rows(self, new, old, sims, pairs) -> None:
        """New items that enter an earlier item's top-``k``: pairs, and the earlier item's list updated."""
        kth = np.full(len(old), -np.inf, dtype=np.float32)
        for c, key in enumerate(old):
            values, _ = self.top[key]
            if len(values) >= self.k:
                kth[c] = values[-1]
        enter = sims > kth[None, :]
        for c in np.flatnonzero(enter.any(axis=0)).tolist():
            key = old[c]
            values, ids = self.top[key]
            rows_in = np.flatnonzero(enter[:, c])
            merged_v = np.concatenate([values, sims[rows_in, c].astype(np.float32)])
            merged_i = ids + [new[r] for r in rows_in.tolist()]
            order = np.argsort(-merged_v, kind="stable")[: self.k]
            kept = set(order.tolist())
            self.top[key] = (merged_v[order], [merged_i[o] for o in order.tolist()])
            for pos in range(len(values), len(merged_v)):
                if pos in kept and merged_v[pos] >= self.min_similarity:
                    pairs[_ordered(key, merged_i[pos])] = float(merged_v[pos])


def _ordered(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def top_columns(sims: np.ndarray, k: int) -> np.ndarray:
    """Per row, the columns of the ``k`` largest values, best first, ties by column: the first ``k`` columns of
    ``np.argsort(-sims, axis=1, kind="stable")``, found with a partial sort (``O(columns)`` per row, not
    ``O(columns log columns)``).

    Args:
        sims: A 2-d array (``rows × columns``).
        k: Columns per row, ``0 < k <= columns``.
    """
    n_rows, n_cols = sims.shape
    neg = -sims
    if k >= n_cols or n_rows == 0 or np.isnan(neg).any():
        return np.argsort(neg, axis=1, kind="stable")[:, :k]
    kth = np.partition(neg, k - 1, axis=1)[:, k - 1 : k]  # each row's k-th smallest of -sims
    r, c = np.nonzero(neg <= kth)  # at least k per row; more only where values tie with the k-th
    order = np.lexsort((c, neg[r, c], r))
    r, c = r[order], c[order]
    rank = np.arange(len(r)) - np.searchsorted(r, r)  # position within the row
    return c[rank < k].reshape(n_rows, k)
