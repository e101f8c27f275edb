"""Answer metrics of the reader protocol (pure functions): token F1, BLEU-1, and their aggregation with J.

Definitions follow the evaluation that published LoCoMo figures come from (Mem0's ``metrics/utils.py``,
itself from A-Mem): text is lowercased, ``. , ! ?`` become spaces, and it is split on whitespace.

* ``answer_f1``: F1 of the *sets* of tokens of the answer and the gold answer.
* ``bleu1``: clipped unigram precision times the brevity penalty ``exp(1 - r/c)`` when the answer (``c``
  tokens) is not longer than the gold (``r`` tokens). Differences from the published code: tokens are the
  ones above (NLTK's tokenizer also splits other punctuation off as tokens) and there is no smoothing (an
  answer sharing no token scores 0, where NLTK's smoothing gives a small positive value).

An empty answer to a question with a gold answer scores 0 (nothing matched). A gold answer without a token
leaves both metrics undefined (``None``): such a question is left out of the mean and out of its ``n_``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

_SPACED = re.compile(r"[.,!?]")


def qa_tokens(text: object) -> list[str]:
    """Lowercased whitespace tokens after replacing ``. , ! ?`` by spaces."""
    return _SPACED.sub(" ", str(text).lower()).split()


def qa_f1(prediction: object, gold: object) -> float | None:
    """F1 of the token sets; ``None`` when the gold has no token, 0.0 when the answer has none."""
    ref = set(qa_tokens(gold))
    if not ref:
        return None
    pred = set(qa_tokens(prediction))
    common = len(pred & ref)
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def bleu1(prediction: object, gold: object) -> float | None:
    """BLEU-1 against one reference; ``None`` when the gold has no token, 0.0 when the answer has none."""
    ref = qa_tokens(gold)
    if not ref:
        return None
    pred = qa_tokens(prediction)
    if not pred:
        return 0.0
    clipped = sum((Counter(pred) & Counter(ref)).values())
    penalty = 1.0 if len(pred) > len(ref) else math.exp(1 - len(ref) / len(pred))
    return penalty * clipped / len(pred)


def _quantile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated quantile of non-empty ``values``."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _rate(out: dict[str, float], name: str, values: Sequence[float | None]) -> None:
    """``name`` = mean of the defined values and ``n_<name>`` = their count (nothing when none is defined)."""
    defined = [float(v) for v in values if v is not None]
    if defined:
        out[name] = sum(defined) / len(defined)
        out[f"n_{name}"] = float(len(defined))


def _cost(out: dict[str, float], prefix: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Latency (p50, p95, mean of the calls timed) and tokens (mean over calls that reported usage)."""
    seconds = [float(r[f"{prefix}_seconds"]) for r in rows if r.get(f"{prefix}_seconds") is not None]
    if seconds:
        out[f"{prefix}_latency_s_p50"] = _quantile(seconds, 0.5)
        out[f"{prefix}_latency_s_p95"] = _quantile(seconds, 0.95)
        out[f"{prefix}_latency_s_mean"] = sum(seconds) / len(seconds)
    usage = [r for r in rows if r.get(f"{prefix}_prompt_tokens") is not None]
    if usage:
        out[f"{prefix}_prompt_tokens_mean"] = sum(float(r[f"{prefix}_prompt_tokens"]) for r in usage) / len(usage)
        out[f"{prefix}_completion_tokens_mean"] = sum(float(r[f"{prefix}_completion_tokens"]) for r in usage) / len(
            usage
        )
        out[f"n_{prefix}_usage"] = float(len(usage))


def reader_metrics(rows: Iterable[Mapping[str, Any]], group: Callable[[Mapping[str, Any]], str]) -> dict[str, float]:
    """``j_score``, ``answer_f1``, ``bleu1`` (each with ``n_``), per group as ``<metric>.<group>``, and costs.

    Only rows the reader answered (``reader_answer`` present) count; nothing is returned when there are none.

    Args:
        rows: Prediction rows with ``reader_answer``, ``j_correct`` (1.0, 0.0 or ``None`` when the judge gave
            no label or was off), ``reader_f1``, ``reader_bleu1`` and the ``reader_*`` / ``judge_*`` costs.
        group: The group of a row (``cat2``, a question type ...).
    """
    read = [r for r in rows if "reader_answer" in r]
    if not read:
        return {}
    out: dict[str, float] = {"n_reader": float(len(read))}
    out["n_reader_malformed"] = float(sum(1 for r in read if r.get("reader_malformed")))
    judged = [r for r in read if "judge_label" in r]
    if judged:
        out["n_judge_malformed"] = float(sum(1 for r in judged if r["judge_label"] is None))
    fields = (("j_score", "j_correct"), ("answer_f1", "reader_f1"), ("bleu1", "reader_bleu1"))
    for name, key in fields:
        _rate(out, name, [r.get(key) for r in read])
    for g in sorted({group(r) for r in read}):
        sub = [r for r in read if group(r) == g]
        for name, key in fields:
            _rate(out, f"{name}.{g}", [r.get(key) for r in sub])
    _cost(out, "reader", read)
    _cost(out, "judge", judged)
    return out


def memory_side(metrics: Mapping[str, float], n_questions: int) -> dict[str, float]:
    """``memory_latency_s_per_question``: the policy's recall and selection seconds per question asked."""
    if n_questions <= 0 or "latency_recall_s" not in metrics:
        return {}
    seconds = metrics["latency_recall_s"] + metrics.get("latency_select_s", 0.0)
    return {"memory_latency_s_per_question": seconds / n_questions}
