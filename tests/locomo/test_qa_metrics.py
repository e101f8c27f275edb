"""Token F1, BLEU-1 and their aggregation with J: exact values, edge cases, undefined metrics absent."""

from __future__ import annotations

import math

import pytest

from memlab.benchmarks.qa_metrics import bleu1, memory_side, qa_f1, qa_tokens, reader_metrics


def test_tokens_lowercase_and_split_on_sentence_punctuation() -> None:
    assert qa_tokens("May 7, 2023. Yes!") == ["may", "7", "2023", "yes"]
    assert qa_tokens(2022) == ["2022"]


@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("7 May 2023", "7 May 2023", 1.0),
        ("May 7, 2023", "7 May 2023", 1.0),  # sets: the order does not count
        ("a red bike", "red road bike", 2 / 3),
        ("red tulips", "tulips", 2 / 3),
        ("bike bike", "bike", 1.0),  # sets: repeats do not count
        ("June 2023", "The week before 9 June 2023", 0.5),
        ("dog", "cat", 0.0),
        ("", "tulips", 0.0),  # an empty answer matches nothing
    ],
)
def test_f1_exact_values(prediction: str, gold: str, expected: float) -> None:
    assert qa_f1(prediction, gold) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("cat", "cat", 1.0),
        ("the cat sat", "the cat sat on the mat", math.exp(-1)),  # precision 1, brevity penalty exp(1 - 6/3)
        ("the the the the", "the cat", 0.25),  # clipped: "the" counts once; longer than the gold: no penalty
        ("June 2023", "The week before 9 June 2023", math.exp(-2)),
        ("Yes", "Likely yes", math.exp(-1)),
        ("dog", "cat", 0.0),  # no smoothing
        ("", "tulips", 0.0),
    ],
)
def test_bleu1_exact_values(prediction: str, gold: str, expected: float) -> None:
    assert bleu1(prediction, gold) == pytest.approx(expected)


@pytest.mark.parametrize("gold", ["", "  ", "?!.", ","])
def test_a_gold_without_tokens_leaves_both_undefined(gold: str) -> None:
    assert qa_f1("anything", gold) is None and bleu1("anything", gold) is None
    assert qa_f1("", gold) is None and bleu1("", gold) is None


def _row(cat: int, j: float | None, f1: float | None, b: float | None, **extra) -> dict:
    return {"category": cat, "reader_answer": "x", "j_correct": j, "reader_f1": f1, "reader_bleu1": b, **extra}


def test_aggregation_skips_undefined_values_and_counts_the_rest() -> None:
    rows = [
        _row(1, 1.0, 1.0, 1.0, reader_seconds=1.0, reader_prompt_tokens=10, reader_completion_tokens=2),
        _row(1, 0.0, 0.5, None, reader_seconds=3.0, reader_prompt_tokens=20, reader_completion_tokens=4),
        _row(2, None, None, None, judge_label=None, reader_seconds=2.0),
        {"category": 5, "question": "not read"},
    ]
    m = reader_metrics(rows, lambda r: f"cat{r['category']}")
    assert m["n_reader"] == 3 and m["n_judge_malformed"] == 1
    assert m["j_score"] == 0.5 and m["n_j_score"] == 2
    assert m["answer_f1"] == 0.75 and m["n_answer_f1"] == 2
    assert m["bleu1"] == 1.0 and m["n_bleu1"] == 1
    assert m["j_score.cat1"] == 0.5 and m["n_j_score.cat1"] == 2
    assert not any(k.endswith(".cat2") for k in m)  # nothing defined in category 2: absent, not 0.0
    assert "j_score.cat5" not in m and "n_j_score.cat5" not in m
    assert m["reader_latency_s_p50"] == 2.0 and m["reader_latency_s_mean"] == 2.0
    assert m["reader_latency_s_p95"] == pytest.approx(2.9)
    assert m["reader_prompt_tokens_mean"] == 15.0 and m["reader_completion_tokens_mean"] == 3.0
    assert m["n_reader_usage"] == 2
    assert "judge_latency_s_p50" not in m  # the judge was never timed


def test_no_reader_rows_no_metrics() -> None:
    assert reader_metrics([{"category": 1}], lambda r: "x") == {}
    assert memory_side({"latency_recall_s": 2.0, "latency_select_s": 1.0}, 4) == {"memory_latency_s_per_question": 0.75}
    assert memory_side({"latency_recall_s": 2.0}, 0) == {}
