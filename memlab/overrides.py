"""Check command-line overrides before Hydra sees them, so mistakes give one helpful line.

Catches malformed overrides, unknown options of a group (with the nearest match) and unknown top-level
keys. Anything it does not recognise is left for Hydra.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import yaml

from memlab.build import available_groups, available_options, unknown_option_message
from memlab.errors import MemlabError
from memlab.paths import CONF_DIR


def top_level_keys() -> set[str]:
    """Keys a plain override may set: groups, keys of config.yaml, and Hydra's own."""
    data = yaml.safe_load((CONF_DIR / "config.yaml").read_text()) or {}
    return set(available_groups()) | {k for k in data if k != "defaults"} | {"hydra"}


def check_overrides(args: Sequence[str]) -> None:
    """Raise :class:`MemlabError` for the first bad override in ``args`` (other arguments are skipped).

    A bare word (no ``=``, not a flag, not a flag's value, not a ``~key`` deletion) is neither an override
    nor a run: it is reported with the nearest ``memlab`` command.
    """
    for i, arg in enumerate(args):
        if "=" in arg or arg.startswith(("-", "~")) or (i > 0 and args[i - 1].startswith("-")):
            continue
        from memlab.cli import COMMANDS

        close = difflib.get_close_matches(arg, sorted(COMMANDS), n=1)
        hint = f"the command `memlab {close[0]}`" if close else "a command (`memlab --help`)"
        raise MemlabError(f"'{arg}' is not an override; write key=value (e.g. judge=slot), or did you mean {hint}?")
    candidates = [a for a in args if "=" in a and not a.startswith("-")]
    if not candidates:
        return
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import OverrideParseException

    parser = OverridesParser.create()
    groups = set(available_groups())
    roots = top_level_keys()
    for arg in candidates:
        try:
            (override,) = parser.parse_overrides([arg])
        except OverrideParseException as exc:
            detail = " ".join(str(exc.message).split())
            raise MemlabError(
                f"malformed override '{arg}': {detail}; write key=value, e.g. retention=none "
                "(quote values with spaces or special characters)"
            ) from None
        key = override.key_or_group
        if key.startswith("hydra/") or key.startswith("hydra."):
            continue
        if key in groups:
            if override.is_delete():
                continue
            valid = available_options(key)
            if override.is_sweep_override():
                values = [str(v) for v in override.sweep_string_iterator()]
            else:
                values = [override.get_value_element_as_str()]
            for value in values:
                if value not in valid:
                    raise MemlabError(unknown_option_message(key, value, valid) + f"; choose with {key}=<option>")
            continue
        root = key.split(".")[0].split("/")[0]
        if root not in roots and not override.is_add():
            close = difflib.get_close_matches(root, sorted(roots), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise MemlabError(
                f"unknown config key '{root}' in override '{arg}'{hint}; "
                "see `python -m memlab --cfg job` for the keys, or add a new key with +key=value"
            )
