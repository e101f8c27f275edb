"""``memlab list [group]``: the options of conf groups, read from ``conf/``."""

from __future__ import annotations

import argparse
import re
import textwrap

from memlab.core.errors import MemlabError
from memlab.core.paths import CONF_DIR
from memlab.wiring.build import available_groups, available_options, unknown_option_message

#: A sentence ends at . ? or ! followed by a space and a capital, a backtick or a parenthesis (not after e.g./i.e.).
_SENTENCE_END = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.?!])\s+(?=[A-Z`(])")
_SELECT = re.compile(r"^select with `[^`]*`(?:\s*\((?P<note>[^)]*(?:\([^)]*\)[^)]*)*)\))?[.:]?\s*")


def header_text(group: str, option: str) -> str:
    """The option file's header comment as one paragraph (path prefix and ``@package`` line removed)."""
    lines = (CONF_DIR / group / f"{option}.yaml").read_text(encoding="utf-8").splitlines()
    comments = []
    for line in lines:
        if not line.startswith("#"):
            break
        text = line.lstrip("#").strip()
        if text and not text.startswith("@package"):
            comments.append(text)
    text = " ".join(comments)
    if "—" in text.split(" ", 1)[0] + " " or text.startswith(f"conf/{group}/"):
        text = text.split("—", 1)[1].strip() if "—" in text else ""
    return text


def describe(group: str, option: str) -> str:
    """The option's description: the first whole sentence of its header comment after the ``select with``
    clause, then the clause's note in brackets (``[clusterer.mode=gap for sessions]``). Never cut mid-sentence.
    """
    text = header_text(group, option)
    note = ""
    match = _SELECT.match(text)
    if match:
        note = (match.group("note") or "").strip()
        text = text[match.end() :].strip()
    first = _SENTENCE_END.split(text, maxsplit=1)[0].strip() if text else ""
    if first.startswith("Run:"):
        first = ""
    if note:
        first = f"{first} [{note}]".strip()
    return first


def option_text(group: str, option: str, card=None) -> str:
    """What ``memlab list`` says of an option: its benchmark card's description when the card is the option's own
    (named like it), else the option file's header (a class several options share, such as
    ``ProjectHistoryFileBenchmark`` behind ``project_history_file`` and ``ferrybook_history``, describes none).
    """
    own = card is not None and card.description and card.name == option
    return card.description if own else describe(group, option)


def dataset_card(option: str):
    """The benchmark card of a ``dataset`` option (the class is imported, not built), or ``None``."""
    import re

    from memlab.wiring.build import resolve_target

    text = (CONF_DIR / "dataset" / f"{option}.yaml").read_text(encoding="utf-8")
    match = re.search(r"^_target_:\s*(\S+)", text, re.MULTILINE)
    if not match:
        return None
    try:
        return getattr(resolve_target(match.group(1), "dataset"), "card", None)
    except MemlabError:
        return None


def wrap(line: str, width: int = 118) -> str:
    """``line`` indented by two, wrapped at word boundaries with continuation lines under the text column."""
    return textwrap.fill(line, width=width, initial_indent="  ", subsequent_indent=" " * 25, break_on_hyphens=False)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab list``."""
    parser.add_argument("group", nargs="?", help="a conf group (retention, judge, ...); all groups when omitted")


def run(args: argparse.Namespace) -> int:
    """Print options, one per line, with the description from each file's header comment."""
    groups = available_groups()
    if args.group:
        if args.group not in groups:
            raise MemlabError(unknown_option_message("group", args.group, groups))
        groups = [args.group]
    for group in groups:
        if group == "hydra":
            continue
        print(f"{group}:")
        for option in available_options(group):
            card = dataset_card(option) if group == "dataset" else None
            print(wrap(f"{option:<22} {option_text(group, option, card)}"))
            if card is not None:
                print(wrap(f"{'':<22} main metric: {card.main_metric}; uses: {', '.join(card.uses)}"))
    return 0
