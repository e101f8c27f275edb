"""What a newcomer hit on a fresh clone: each fixed, each checked here."""

from __future__ import annotations

import re

import pytest

from memlab.commands.catalog import dataset_card, describe, header_text, option_text
from memlab.wiring.build import available_groups, available_options
from tests.test_cli_errors import memlab_main

#: Words a description cut mid-sentence would end with.
DANGLING = {"the", "a", "an", "and", "or", "of", "to", "by", "with", "on", "in", "for", "at", "least", "redundant"}
DANGLING |= {"e.g", "i.e"}  # `memlab list temporal` cut dspy's description at "e.g."


def options():
    return [(g, o) for g in available_groups() if g != "hydra" for o in available_options(g)]


@pytest.mark.parametrize(("group", "option"), options())
def test_memlab_list_never_cuts_a_description_mid_sentence(group, option):
    card = dataset_card(option) if group == "dataset" else None
    text = option_text(group, option, card)
    assert text, f"{group}/{option} has no description"
    last = re.sub(r"[^\w]+$", "", text).rsplit(" ", 1)[-1].lower()
    assert last not in DANGLING and not text.rstrip().endswith((",", ";", ":", "—")), text
    if text != getattr(card, "description", None):
        body = header_text(group, option)
        core = re.sub(r"\s*\[[^\]]*\]$", "", text).rstrip(".?!")
        # the description is a whole sentence of the header: it ends where a sentence of the header ends
        assert core == "" or re.search(re.escape(core) + r"[.?!)]*(\s|$)", body), (text, body)


def test_options_that_share_a_benchmark_class_are_described_by_their_own_files():
    texts = {o: option_text("dataset", o, dataset_card(o)) for o in ("ferrybook_history", "project_history_file")}
    assert "ferry-booking app" in texts["ferrybook_history"] and "you bring" in texts["project_history_file"]


def test_time_window_is_described_by_its_sentence_not_its_selection_note():
    text = describe("clusterer", "time_window")
    note = "[`clusterer.mode=gap` for sessions, `clusterer.mode=archive` for squidbot's archived chunks]"
    assert text.startswith("Ablation: clusters by time only") and text.endswith(note)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["pipeline.knn=5"], "unknown key 'pipeline.knn' (conf/config.yaml) (did you mean 'pipeline.knn_k'?)"),
        (["judge=slot", "judge.min_similarty=0.3"], "(did you mean 'judge.min_similarity'?)"),
        (["+experiment=quickstrat"], "(did you mean 'quickstart'?); choose with +experiment=<option>"),
    ],
)
def test_unknown_keys_and_experiments_fail_in_one_line_with_a_fix_that_works(args, expected):
    proc = memlab_main(*args)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert expected in proc.stderr and "Traceback" not in proc.stderr


def test_report_helpers_are_not_listed_as_reports():
    from memlab.commands.report import available_reports

    assert available_reports() == [
        "adr",
        "budgets",
        "judge_families",
        "locomo",
        "memory_files",
        "presets",
        "project_history",
        "temporal",
    ]


def test_dspy_is_described_up_to_its_example():
    assert describe("temporal", "dspy").endswith("needs an llm option, e.g. `llm=local`.")


def test_the_readme_error_example_is_what_memlab_prints():
    from memlab.core.paths import PROJECT_ROOT

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    example = next(line for line in readme.splitlines() if line.startswith("memlab: error: unknown retention"))
    proc = memlab_main("retention=exponental")
    assert proc.stderr.strip() == example


@pytest.mark.parametrize("args", [["--help"], ["hook", "--help"]])
def test_help_names_every_hook_entry_point(args):
    import subprocess
    import sys

    from memlab.commands.hook import EVENTS

    proc = subprocess.run([sys.executable, "-m", "memlab.cli", *args], capture_output=True, text=True, timeout=60)
    flat = " ".join(proc.stdout.split())
    assert proc.returncode == 0 and all(event in flat for event in EVENTS), flat
    assert "sync-config, sync" in flat
