"""dataset=temporal_norm on a tiny news-style file with sentences: context, gold spans, document-group split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlab.benchmarks.temporal_norm.scoring import choose
from memlab.core.errors import MemlabError
from memlab.core.types import TemporalRef
from memlab.data.temporal_norm.data import corpus_path, parse, split_of
from memlab.run import run
from tests.support.compose import compose_cfg


def rec(block: str, day: str, phrase: str, sentence: str, value: str, grain: str) -> dict:
    return {
        "block": block,
        "reference_time": f"{day}T12:00:00+00:00",
        "phrase": phrase,
        "sentence": sentence,
        "expected": {"kind": "datetime", "value": value, "grain": grain},
    }


TWICE = "Talks began Monday in Paris and resumed Monday in Rome."
RECORDS = [
    # 1998-08-07 is a Friday: "said Friday" in an article of that Friday is that day
    rec("A", "1998-08-07", "Friday", "Witnesses said Friday that two bombs exploded.", "1998-08-07T00:00:00", "Day"),
    # no cue; the day six days back beats next year's (6 x 8 < 359)
    rec("A", "1998-08-13", "Aug. 7", "The incidents of Aug. 7 underscore the danger.", "1998-08-07T00:00:00", "Day"),
    rec("B", "2000-01-07", "1996", "A 1996 law strengthened the embargo.", "1996-01-01T00:00:00", "Year"),
    # the quarter that ended 25 days before the article, not next year's
    rec(
        "B",
        "1989-10-26",
        "third-quarter",
        "Du Pont reported that third-quarter profit grew 19%.",
        "1989-07-01T00:00:00",
        "Quarter",
    ),
    # the same phrase twice in one sentence: the k-th record is the k-th occurrence (1999-05-03 is a Monday)
    rec("C", "1999-05-03", "Monday", TWICE, "1999-05-03T00:00:00", "Day"),
    rec("C", "1999-05-03", "Monday", TWICE, "1999-05-03T00:00:00", "Day"),
    rec("C", "1999-05-03", "the quarter", "Sales fell in the quarter.", "1999-01-01T00:00:00", "Quarter"),
    # TimeML annotates "a year ago" as the year; rules read it as the year-ago month (Duckling's convention)
    rec("D", "1989-10-26", "a year ago", "Profit fell from $95.9 million a year ago.", "1988-01-01T00:00:00", "Year"),
]


@pytest.fixture
def news_file(tmp_path: Path) -> Path:
    path = tmp_path / "news.json"
    path.write_text(json.dumps(RECORDS))
    return path


def _metrics(path: Path, tmp_path: Path, *extra: str):  # type: ignore[no-untyped-def]
    cfg = compose_cfg(["dataset=temporal_norm", "dataset.corpus=tbaq", f"dataset.path={path}", "temporal=rules",
                       "embedder=tfidf", "dataset.timing_passes=1", *extra])  # fmt: skip
    return run(cfg, tmp_path / "out")


def test_sentence_context_exact_scores(news_file: Path, tmp_path: Path) -> None:
    out = _metrics(news_file, tmp_path)
    m = out.metrics
    # correct: Friday, Aug. 7, 1996, third-quarter, Monday x2; wrong: a year ago; unsupported: the quarter
    assert (m["n_evaluated"], m["n_correct"], m["n_supported"]) == (8, 6, 7)
    assert m["resolver_acc"] == pytest.approx(6 / 8) and m["resolver_acc_supported"] == pytest.approx(6 / 7)
    assert m["resolver_acc_ci_low"] <= m["resolver_acc"] <= m["resolver_acc_ci_high"]
    assert m["n_evaluated_dev"] + m["n_evaluated_heldout"] == 8
    rows = [json.loads(line) for line in (out.output_dir / "predictions.jsonl").read_text().splitlines()]
    mondays = [r for r in rows if r["phrase"] == "Monday"]
    assert [r["span"] for r in mondays] == [[12, 18], [40, 46]]
    assert all(r["sentence"] == TWICE and r["status"] == "correct" for r in mondays)
    assert out.result.info["corpus"] == "tbaq" and out.result.info["context"] == "sentence"


def test_the_phrase_alone_loses_the_cues(news_file: Path, tmp_path: Path) -> None:
    m = _metrics(news_file, tmp_path, "dataset.context=phrase").metrics
    # without "said" / "began" the bare weekdays go to the next ones (prefer=future): Friday and both Mondays
    # turn wrong; Aug. 7, 1996 and third-quarter stay right
    assert (m["n_correct"], m["n_supported"]) == (3, 7)


def test_document_groups_stay_in_one_half() -> None:
    records, _ = parse(RECORDS)
    groups = {}
    for r in records:
        groups.setdefault(r.group, set()).add(r.split)
    assert all(len(halves) == 1 for halves in groups.values())
    assert records[0].group == "A|1998-08-07" and records[0].split == split_of("A|1998-08-07")
    # a record with a "document" field is grouped by it; one without a sentence by its phrase (Duckling)
    (doc,) = parse([{**RECORDS[0], "document": "wsj_0001"}])[0]
    (bare,) = parse([{k: v for k, v in RECORDS[0].items() if k != "sentence"}])[0]
    assert doc.group == "wsj_0001" and bare.group == "friday" and bare.text == "Friday" and bare.span == (0, 6)


def test_choose_takes_the_reference_over_the_gold_span() -> None:
    from datetime import datetime

    t0, t1 = datetime(2020, 1, 1), datetime(2020, 1, 2)
    left = TemporalRef("Monday", (12, 18), t0, t1, "day")
    right = TemporalRef("Monday in Rome", (40, 54), t0, t1, "day")
    assert choose([left, right], (40, 46)) is right
    assert choose([left, right], (0, 5)) is None
    wide = TemporalRef("10:35 a.m. (0735 GMT) Friday", (0, 28), t0, t1, "minute")
    exact = TemporalRef("Friday", (22, 28), t0, t1, "day")
    assert choose([wide, exact], (22, 28)) is exact  # fewer characters outside the span


def test_bad_corpus_and_context_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(MemlabError, match=r"dataset.corpus='nope' is not a known temporal set \(duckling, tbaq\)"):
        corpus_path("nope", tmp_path)
    cfg = compose_cfg(["dataset=temporal_norm", "dataset.context=words", "temporal=rules", "embedder=tfidf"])
    with pytest.raises(MemlabError, match=r"dataset\.context must be sentence or phrase"):
        run(cfg, tmp_path / "out")
