"""Format checks shared by the generator tests: what a LoCoMo-format file must look like."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

STAMP = re.compile(r"^(1[0-2]|[1-9]):[0-5]\d (am|pm) on ([1-9]|[12]\d|3[01]) [A-Z][a-z]+, \d{4}$")
DIA = re.compile(r"^D(\d+):(\d+)$")
SESSION_KEY = re.compile(r"^session_(\d+)$")
ANSWER_STYLES = (
    re.compile(r"^\d{1,2} [A-Z][a-z]+ \d{4}$"),  # 7 May 2023
    re.compile(r"^[A-Z][a-z]+ \d{4}$"),  # June 2023, Summer 2022
    re.compile(r"^\d{4}$"),  # 2022
    re.compile(r"^The (week|weekend|[A-Z][a-z]+day) before \d{1,2} [A-Z][a-z]+ \d{4}$"),
    re.compile(r"^The week of \d{1,2} [A-Z][a-z]+ \d{4}$"),
)


def parse_stamp(stamp: str) -> datetime:
    """Parse ``1:56 pm on 8 May, 2023`` independently of the generator."""
    return datetime.strptime(stamp, "%I:%M %p on %d %B, %Y")


def turns_by_id(conversation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """dia_id -> turn over all sessions."""
    out = {}
    for key, value in conversation.items():
        if SESSION_KEY.match(key):
            for turn in value:
                out[turn["dia_id"]] = turn
    return out


def check_file(data: Any) -> None:
    """Assert ``data`` is a valid LoCoMo-format list of conversations (raises AssertionError)."""
    assert isinstance(data, list) and data
    ids = [c["sample_id"] for c in data]
    assert len(set(ids)) == len(ids)
    for conv in data:
        assert set(conv) >= {"qa", "conversation", "sample_id"}
        assert isinstance(conv["sample_id"], str)
        c = conv["conversation"]
        speakers = {c["speaker_a"], c["speaker_b"]}
        assert len(speakers) == 2
        sessions = sorted(int(m.group(1)) for k in c if (m := SESSION_KEY.match(k)))
        assert sessions == list(range(1, len(sessions) + 1))
        previous = None
        for s in sessions:
            stamp = c[f"session_{s}_date_time"]
            assert STAMP.match(stamp), stamp
            when = parse_stamp(stamp)
            assert previous is None or when > previous
            previous = when
            for t, turn in enumerate(c[f"session_{s}"], start=1):
                assert set(turn) == {"speaker", "dia_id", "text"}
                assert turn["dia_id"] == f"D{s}:{t}"
                assert turn["speaker"] in speakers
                assert isinstance(turn["text"], str) and turn["text"].strip()
        turns = turns_by_id(c)
        for qa in conv["qa"]:
            assert isinstance(qa["question"], str) and qa["question"].endswith("?")
            assert qa["category"] in (1, 2, 3, 4, 5)
            assert qa["evidence"] and all(e in turns for e in qa["evidence"])
            if qa["category"] == 5:
                assert "answer" not in qa and isinstance(qa["adversarial_answer"], str)
            else:
                assert isinstance(qa["answer"], str) and qa["answer"]
            if qa["category"] == 2:
                assert any(p.match(qa["answer"]) for p in ANSWER_STYLES), qa["answer"]
