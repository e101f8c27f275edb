"""LoCoMo's token F1, re-implemented (pure functions).

Upstream (``task_eval/evaluation.py`` of snap-research/locomo): drop commas, lowercase, remove
punctuation, remove the words ``a an the and``, collapse whitespace, Porter-stem each token, then the
SQuAD token F1 over the multiset of tokens; category 1 (multi-hop) answers are split on commas and each
gold part takes its best prediction part. Difference here: no Porter stemming (nltk is not a
dependency) — tokens that differ only by inflection do not match. For the date answers of category 2 this
changes nothing when prediction and gold use the same words.
"""

from __future__ import annotations

import re
import string
from collections import Counter

_PUNCT = set(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")


def normalize_answer(text: object) -> str:
    """LoCoMo's answer normalisation (without stemming)."""
    s = str(text).replace(",", "").lower()
    s = "".join(ch for ch in s if ch not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def token_f1(prediction: object, gold: object) -> float:
    """Token F1 of the normalised texts; 0.0 when either side is empty (as upstream)."""
    pred = normalize_answer(prediction).split()
    ref = normalize_answer(gold).split()
    common = Counter(pred) & Counter(ref)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: object, gold: object) -> float:
    """Category 1: split both on commas; mean over gold parts of the best F1 against any prediction part."""
    preds = [p.strip() for p in str(prediction).split(",")]
    golds = [g.strip() for g in str(gold).split(",")]
    return sum(max(token_f1(p, g) for p in preds) for g in golds) / len(golds)


def answer_f1(prediction: object, gold: object, category: int) -> float:
    """F1 as upstream scores a category: multi-answer for 1, the first ``;`` part of gold for 3, plain else."""
    if category == 1:
        return multi_answer_f1(prediction, gold)
    if category == 3:
        gold = str(gold).split(";")[0].strip()
    return token_f1(prediction, gold)
