"""A day question is answered from the dates the text gives, and scored by day with a tolerance per question kind."""

from __future__ import annotations

from datetime import UTC, datetime

from memlab.benchmarks.project_history.reader_scoring import WHEN_TOLERANCE_DAYS, when_correct
from memlab.core.types import Memory
from memlab.strategies.reader.extractive import ExtractiveReader
from memlab.text.temporal.written import written_day

NOW = datetime(2025, 6, 1, tzinfo=UTC)
DOC = Memory(
    "doc",
    "progress",
    datetime(2025, 5, 30, tzinfo=UTC),  # the day the section was written, not the day of its events
    "## 2025-03-01 .. 2025-03-20 (3 messages)",
    "- [2025-03-01] Billing API uses Flask\n- [2025-03-12] Billing API moved from Flask to FastAPI\n"
    "- [2025-03-20] Docs updated",
)


def test_a_document_unit_answers_a_day_question_with_the_day_its_line_gives() -> None:
    answer = ExtractiveReader().answer("When did the billing API move to FastAPI?", [DOC], NOW)
    assert answer.text == "2025-03-12" and answer.unit_ids == ("doc",)
    plain = Memory("m", "decisions", datetime(2025, 3, 12, 15, tzinfo=UTC), "Billing API moved to FastAPI", "")
    assert ExtractiveReader().answer("When did the billing API move to FastAPI?", [plain], NOW).text == "2025-03-12"


def test_written_days_need_their_year_and_relative_words_are_not_read() -> None:
    assert written_day("moved on 4 March 2025", NOW) == written_day("moved March 4th, 2025", NOW)
    assert written_day("moved yesterday", NOW) is None and written_day("moved on March 4", NOW) is None
    assert str(written_day("moved on March 4", NOW, with_year=False)) == "2025-03-04"


def test_when_is_scored_by_day_after_normalisation_within_the_kinds_tolerance() -> None:
    assert WHEN_TOLERANCE_DAYS == {"recorded": 0, "mentioned": 0}
    assert when_correct("4 March 2025", "2025-03-04", NOW) and when_correct("on March 4th", "2025-03-04", NOW)
    assert not when_correct("2025-03-05", "2025-03-04", NOW, "recorded")
    assert not when_correct("2025-03-05", "2025-03-04", NOW, "mentioned")  # "since yesterday" read as the day said
    assert when_correct("2025-03-04", "2025-03-04", NOW, "mentioned") and not when_correct("", "2025-03-04", NOW)
