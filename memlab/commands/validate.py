"""``memlab validate``: every experiment composes and every strategy it names builds."""

from __future__ import annotations

import argparse

from memlab.core.errors import MemlabError
from memlab.run import check_uses
from memlab.wiring.build import available_options, build, build_components


def experiment_groups(name: str) -> list[str]:
    """Strategy and settings groups an experiment file sets (``override /judge: x``, ``pipeline: {...}``), when it
    also chooses its dataset (a preset that leaves the dataset open may set groups some datasets do not use).
    """
    import yaml

    from memlab.core.paths import CONF_DIR
    from memlab.wiring.build import GROUPS, SETTINGS_GROUPS

    data = yaml.safe_load((CONF_DIR / "experiment" / f"{name}.yaml").read_text(encoding="utf-8")) or {}
    keys = [k for k in data if k != "defaults"]
    for entry in data.get("defaults") or []:
        if isinstance(entry, dict):
            keys += [str(k).removeprefix("override ").lstrip("/") for k in entry]
    if "dataset" not in keys:  # a policy preset, meant for any dataset: nothing to check against
        return []
    return [k for k in dict.fromkeys(keys) if k in (*GROUPS, *SETTINGS_GROUPS)]


def check_experiment(name: str | None) -> list[str]:
    """Compose ``+experiment=name`` (or the bare config for ``None``) and build it; returns problems."""
    from memlab.wiring.config import compose

    overrides = [f"+experiment={name}"] if name else []
    try:
        container = compose(overrides, tracking=None)  # the experiment's own tracking, as `python -m memlab` runs it
        benchmark = build(container["dataset"], "dataset")
        card = type(benchmark).card
        check_uses(card, experiment_groups(name) if name else [])
        build_components(container, groups=card.uses, benchmark=card.name)
        build(container["tracking"], "tracking")
    except MemlabError as exc:
        return [str(exc)]
    except Exception as exc:  # Hydra/OmegaConf raise many types; report each as one line
        return [" ".join(f"{type(exc).__name__}: {exc}".split())]
    return []


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab validate``."""
    parser.add_argument("experiments", nargs="*", help="experiments to check (default: all)")


def run(args: argparse.Namespace) -> int:
    """Print one line per experiment; exit 1 if any fails."""
    names = args.experiments or available_options("experiment")
    failed = 0
    for name in [None, *names]:
        problems = check_experiment(name)
        label = name or "(defaults)"
        if problems:
            failed += 1
            print(f"FAIL {label}: {problems[0]}")
        else:
            print(f"ok   {label}")
    print(f"{len(names) + 1 - failed} ok, {failed} failed")
    return 1 if failed else 0
