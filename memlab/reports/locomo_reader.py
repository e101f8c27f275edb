"""The headline section of ``memlab report locomo``: the field's LLM protocol (J, F1, BLEU-1) beside published J.

A run of the protocol is a finished run of the experiment that logged ``j_score`` (``dataset.llm_reader=true``);
its J stands beside the published J only when the run is complete and its model is not a test double
(:func:`why_not_published`); otherwise the section says why not. Without
one the section says so plainly and gives the command.
"""

from __future__ import annotations

from collections.abc import Sequence

from memlab.reports.locomo_sweep import pct
from memlab.tracking.query import RunRecord

#: Column order of the tables: LoCoMo category number and its true meaning (../shared/REFERENCE.md).
CATS = ((1, "multi-hop"), (2, "temporal"), (3, "open-domain"), (4, "single-hop"))
#: Mem0 paper (arXiv 2504.19413), GPT-4o-mini answers, 10-conversation locomo10.json, true category semantics
#: (../shared/REFERENCE.md), in %: system -> F1, BLEU-1, J of categories 1, 2, 3, 4 in turn, then overall J.
PUBLISHED: dict[str, tuple[float | None, ...]] = {
    "A-Mem": (27.02, 20.09, None, 45.85, 36.67, None, 12.14, 12.00, None, 44.65, 37.06, None, 48.38),
    "LangMem": (35.51, 26.86, 62.23, 30.75, 25.84, 23.43, 26.04, 22.32, 47.92, 40.91, 33.63, 71.12, 58.10),
    "Zep": (35.74, 23.30, 61.70, 42.00, 34.53, 49.31, 19.37, 14.82, 41.35, 49.56, 38.92, 76.60, 65.99),
    "OpenAI memory": (34.30, 23.72, 63.79, 14.04, 11.25, 21.71, 20.09, 15.42, 42.92, 39.31, 31.16, 62.29, 52.90),
    "Mem0": (38.72, 27.13, 67.13, 48.93, 40.51, 55.51, 28.64, 21.58, 51.15, 47.65, 38.72, 72.93, 66.88),
    "Mem0g": (38.09, 26.03, 65.71, 51.55, 40.28, 58.13, 24.32, 18.82, 47.19, 49.27, 40.30, 75.71, 68.44),
    "full context (~26k tokens)": (*[None] * 12, 72.90),
}


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


#: Words that mark a test double in the configured model's name or in what its server said it serves (the test
#: suite's stub server serves ``stub-model`` owned by ``memlab-test``; DSPy's ``DummyLM``).
TEST_DOUBLES: tuple[str, ...] = ("stub", "dummy", "memlab-test")
_UNSET = ("", "None", "null")


def why_not_published(run: RunRecord) -> str | None:
    """Why ``run``'s J may not stand beside the published figures, or ``None`` when it may: a complete run (every
    conversation of the file, no question cap, a judged question in each of categories 1-4) of a model that is
    not a test double.
    """
    who = f"{run.params.get('llm.model', '')} {run.tags.get('memlab.llm_served', '')}".lower()
    if double := next((word for word in TEST_DOUBLES if word in who), None):
        return f"its model is a test double ('{double}' in the model or in what its server serves)"
    for key, why in (
        ("conversations", "it read only conversations {}"),
        ("max_reader_questions", "it answered at most {} questions"),
    ):
        if run.params.get(f"dataset.{key}", "None") not in _UNSET:
            return why.format(run.params[f"dataset.{key}"])
    missing = [str(c) for c, _ in CATS if not run.metrics.get(f"n_j_score.cat{c}")]
    return f"category {', '.join(missing)} has no judged question" if missing else None


def reader_run(runs: Sequence[RunRecord]) -> RunRecord | None:
    """The newest finished run that logged ``j_score``."""
    found = [r for r in runs if "j_score" in r.metrics]
    return max(found, key=lambda r: r.start_time) if found else None


def _cell(m: dict[str, float], suffix: str) -> str:
    j, f1, b = m.get(f"j_score{suffix}"), m.get(f"answer_f1{suffix}"), m.get(f"bleu1{suffix}")
    n = m.get(f"n_j_score{suffix}", m.get(f"n_answer_f1{suffix}"))
    return f"{pct(f1)} / {pct(b)} / {pct(j)} (n {'–' if n is None else f'{n:.0f}'})"


def reader_section(runs: Sequence[RunRecord]) -> list[str]:
    """Markdown lines: the protocol's figures beside the published ones, or a plain statement that none exist."""
    out = ["## Headline: the LLM reader protocol (J, F1, BLEU-1)", ""]
    run = reader_run(runs)
    if run is None:
        return [
            *out,
            "**No run with the LLM reader protocol exists in this experiment**, so memlab has no J, F1 or BLEU-1 "
            "on LoCoMo to print beside the published systems. The protocol: an LLM reads the context the policy "
            "selected and answers each category 1–4 question, an LLM judge grades the answer CORRECT/WRONG against "
            "the gold (J), with token F1 and BLEU-1 (`memlab/llm/qa_signatures.py`, "
            "`memlab/benchmarks/qa_reader.py`). Run it with "
            "`python -m memlab +experiment=locomo_temporal dataset.llm_reader=true llm=openai` "
            "(or `llm=local llm.api_base=http://127.0.0.1:1234/v1 llm.model=openai/<served name>`). Until then "
            "the no-LLM figures below are the only LoCoMo answers measured here.",
            "",
        ]
    m = run.metrics
    if (why := why_not_published(run)) is not None:
        return [
            *out,
            f"Run `{run.run_id}` (model `{run.params.get('llm.model', '?')}`) logged J {pct(m.get('j_score'))} % "
            f"(n {m.get('n_j_score', 0):.0f}), **not put beside the published figures: {why}**. Only a complete "
            "run (every conversation, every question of categories 1–4) of a real model stands beside them.",
            "",
        ]
    out += [
        f"Run `{run.run_id}`: reader and judge `{run.params.get('llm.model', '?')}`, context selected by the "
        f"policy (mean {m.get('context_tokens', 0):.0f} tokens). Cells: F1 / BLEU-1 / J (%), n = questions judged. "
        "Published figures: Mem0 paper (arXiv 2504.19413) as restated in `../shared/REFERENCE.md`, GPT-4o-mini "
        "as reader and judge over the 10-conversation locomo10.json, in true category semantics. Same protocol, "
        "not the same data or necessarily the same model: the dev file here holds 5 conversations; an independent "
        "audit puts the ceiling near 93.6% (wrong gold answers) and finds the judge prompt lenient.",
        "",
        "| system | " + " | ".join(f"{name} (cat {c})" for c, name in CATS) + " | overall J (cats 1–4) |",
        "|---|" + "---|" * (len(CATS) + 1),
        "| memlab (this run) | "
        + " | ".join(_cell(m, f".cat{c}") for c, _ in CATS)
        + f" | {pct(m.get('j_score'))} (n {m.get('n_j_score', 0):.0f}) |",
    ]
    for name, values in PUBLISHED.items():
        cells = [" / ".join(_num(v) for v in values[3 * i : 3 * i + 3]) for i in range(len(CATS))]
        out.append(f"| {name} (Mem0 paper) | " + " | ".join(cells) + f" | {_num(values[-1])} |")
    out += [
        "",
        f"Overall over categories 1–4: F1 {pct(m.get('answer_f1'))} %, BLEU-1 {pct(m.get('bleu1'))} %, "
        f"J {pct(m.get('j_score'))} % (n {m.get('n_j_score', 0):.0f}; reader output unreadable "
        f"{m.get('n_reader_malformed', 0):.0f}, judge output unreadable {m.get('n_judge_malformed', 0):.0f}).",
        "",
        "| cost per question | memory side | reader | judge |",
        "|---|---|---|---|",
        f"| latency p50 / p95 (s) | {_num(m.get('memory_latency_s_per_question'))} (mean) | "
        f"{_num(m.get('reader_latency_s_p50'))} / {_num(m.get('reader_latency_s_p95'))} | "
        f"{_num(m.get('judge_latency_s_p50'))} / {_num(m.get('judge_latency_s_p95'))} |",
        f"| tokens (prompt / completion; calls made in this run) | {m.get('context_tokens', 0):.0f} context | "
        f"{_num(m.get('reader_prompt_tokens_mean'))} / {_num(m.get('reader_completion_tokens_mean'))} | "
        f"{_num(m.get('judge_prompt_tokens_mean'))} / {_num(m.get('judge_completion_tokens_mean'))} |",
        "",
        "Mem0 paper latency for scale (s, p50 / p95): Mem0 search 0.148 / 0.200, total 0.708 / 1.440; full "
        "context total 9.87 / 17.12. Responses served from the cache take no time and report no tokens.",
        "",
    ]
    return out
