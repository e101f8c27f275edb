"""``memlab list [group]``: the options of conf groups, read from ``conf/``."""

from __future__ import annotations

import argparse

from memlab.build import available_groups, available_options, unknown_option_message
from memlab.errors import MemlabError
from memlab.paths import CONF_DIR


def describe(group: str, option: str) -> str:
    """The option's one-line description from its header comment (without the ``select with`` part)."""
    lines = (CONF_DIR / group / f"{option}.yaml").read_text(encoding="utf-8").splitlines()
    comments = [line.lstrip("#").strip() for line in lines if line.startswith("#") and "@package" not in line]
    texts = []
    for text in comments[:2]:
        if "select with" in text:
            text = text.split("`", 2)[-1].lstrip(".").strip() if text.count("`") >= 2 else ""
        elif "—" in text:
            text = text.split("—", 1)[1].strip()
        if text:
            texts.append(text)
    return texts[0] if texts else ""


def dataset_card(option: str):
    """The benchmark card of a ``dataset`` option (the class is imported, not built), or ``None``."""
    import re

    from memlab.build import resolve_target

    text = (CONF_DIR / "dataset" / f"{option}.yaml").read_text(encoding="utf-8")
    match = re.search(r"^_target_:\s*(\S+)", text, re.MULTILINE)
    if not match:
        return None
    try:
        return getattr(resolve_target(match.group(1), "dataset"), "card", None)
    except MemlabError:
        return None


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
            print(f"  {option:<22} {card.description if card and card.description else describe(group, option)}")
            if card is not None:
                print(f"  {'':<22} main metric: {card.main_metric}; uses: {', '.join(card.uses)}")
    return 0
