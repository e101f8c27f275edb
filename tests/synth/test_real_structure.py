"""The generated structure matches the real LoCoMo file's (read in place, skipped when absent; nothing copied)."""

from __future__ import annotations

import json
import re

import pytest

from memlab.core.paths import default_data_dir
from memlab.data.locomo_synth.config import SynthConfig
from memlab.data.locomo_synth.generator import generate

from .helpers import DIA, SESSION_KEY, STAMP, parse_stamp

REAL = default_data_dir() / "locomo" / "locomo_dev.json"


@pytest.fixture(scope="module")
def real():
    if not REAL.is_file():
        pytest.skip(f"LoCoMo dev file not found at {REAL} (set MEMLAB_DATA_DIR to the shared datasets folder)")
    return json.loads(REAL.read_text(encoding="utf-8"))


def shapes(data):
    """Key sets and value types of conversations, sessions, turns and qa items (no content)."""
    top, conv_keys, turn_keys, qa_keys = set(), set(), set(), {}
    for conv in data:
        top |= set(conv)
        for key, value in conv["conversation"].items():
            conv_keys.add(re.sub(r"\d+", "N", key))
            if SESSION_KEY.match(key):
                for turn in value:
                    turn_keys |= set(turn)
        for qa in conv["qa"]:
            qa_keys.setdefault(qa["category"], set()).update(qa)
    return top, conv_keys, turn_keys, qa_keys


def test_generated_keys_are_a_subset_of_the_real_files(real):
    r_top, r_conv, r_turn, r_qa = shapes(real)
    g_top, g_conv, g_turn, g_qa = shapes(generate(SynthConfig(seed=0))[0])
    assert g_top <= r_top and {"qa", "conversation", "sample_id"} <= g_top
    assert g_conv == {"speaker_a", "speaker_b", "session_N", "session_N_date_time"} <= r_conv
    assert g_turn == {"speaker", "dia_id", "text"} <= r_turn
    for category, keys in g_qa.items():
        assert keys <= r_qa[category], category


def test_real_stamps_and_dia_ids_match_the_patterns_the_generator_writes(real):
    stamps = [v for c in real for k, v in c["conversation"].items() if k.endswith("_date_time")]
    assert stamps and all(STAMP.match(s) for s in stamps)
    assert all(parse_stamp(s).year >= 2000 for s in stamps)
    dia = [t["dia_id"] for c in real for k, v in c["conversation"].items() if SESSION_KEY.match(k) for t in v]
    assert sum(bool(DIA.match(d)) for d in dia) == len(dia)
