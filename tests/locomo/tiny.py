"""Tiny LoCoMo-format conversations written by the tests (no LoCoMo data is copied)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

TINY: list[dict[str, Any]] = [
    {
        "sample_id": "conv-a",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bob! How are you?"},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Great. I went to the pottery class yesterday."},
                {
                    "speaker": "Ann",
                    "dia_id": "D1:3",
                    "text": "Look at my garden.",
                    "img_url": ["http://example.invalid/x.jpg"],
                    "blip_caption": "a photo of red tulips",
                },
            ],
            "session_2_date_time": "10:00 am on 9 June, 2023",
            "session_2": [
                {"speaker": "Bob", "dia_id": "D2:1", "text": "I adopted a puppy named Rex last week."},
                {"speaker": "Ann", "dia_id": "D2:2", "text": "I painted a sunrise over the lake."},
            ],
            "session_3_date_time": "9:00 am on 1 July, 2023",
        },
        "qa": [
            {
                "question": "When did Bob go to the pottery class?",
                "answer": "7 May 2023",
                "evidence": ["D1:2"],
                "category": 2,
            },
            {
                "question": "When did Bob adopt the puppy Rex?",
                "answer": "The week before 9 June 2023",
                "evidence": ["D2:1"],
                "category": 2,
            },
            {"question": "What flowers grow in Ann's garden?", "answer": "tulips", "evidence": ["D1:3"], "category": 4},
            {"question": "What did Ann paint?", "answer": 2022, "evidence": ["D2:2; D1:3"], "category": 1},
            {"question": "Is Ann an artist?", "answer": "Likely yes", "evidence": [], "category": 3},
            {
                "question": "What is the puppy's name?",
                "answer": "Rex",
                "evidence": ["D02:01", "D:2:1", "D"],
                "category": 4,
            },
            {"question": "What did Bob paint?", "adversarial_answer": "a sunrise", "evidence": ["D2:2"], "category": 5},
        ],
    }
]


def tiny(**changes: Any) -> list[dict[str, Any]]:
    """A deep copy of :data:`TINY` (callers mutate it)."""
    data = copy.deepcopy(TINY)
    for key, value in changes.items():
        data[0][key] = value
    return data


def write(path: Path, data: Any) -> Path:
    """Write ``data`` as JSON to ``path`` and return it."""
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
