"""Check command-line overrides before Hydra sees them, so mistakes give one helpful line.

Catches malformed overrides, unknown options of a group (with the nearest match), unknown top-level
keys and values of the wrong type (``pipeline.budget_tokens=abc``: the type of the key's value in
``config.yaml`` or in the group's option is the type it takes). Anything it does not recognise is left for Hydra.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence

import yaml

from memlab.core.errors import MemlabError
from memlab.core.paths import CONF_DIR
from memlab.wiring.build import available_groups, available_options, unknown_option_message


def top_level_keys() -> set[str]:
    """Keys a plain override may set: groups, keys of config.yaml (and ``pipeline``), and Hydra's own."""
    return set(available_groups()) | set(settings_tree()) | {"hydra"}


def settings_tree() -> dict:
    """``config.yaml`` without its defaults list, with the ``pipeline`` settings it composes (the keys plain
    overrides may set under a settings root).
    """
    from memlab.wiring.conf_resolvers import pipeline_defaults

    data = yaml.safe_load((CONF_DIR / "config.yaml").read_text()) or {}
    return {"pipeline": pipeline_defaults(), **{k: v for k, v in data.items() if k != "defaults"}}


def option_tree(group: str, option: str) -> dict:
    """An option's keys as Hydra composes them: its file merged over the options its defaults list names (another
    option of the group, in place; ``/<group>@<key>: <option>``, at ``key``: the cascade's stages).
    """
    data = yaml.safe_load((CONF_DIR / group / f"{option}.yaml").read_text()) or {}
    tree: dict = {}
    for entry in data.pop("defaults", None) or []:
        if isinstance(entry, str) and entry != "_self_":
            merge(tree, option_tree(group, entry))
        elif isinstance(entry, dict):
            ((where, chosen),) = entry.items()
            other, _, key = where.removeprefix("override ").strip().lstrip("/").partition("@")
            tree[key] = option_tree(other, chosen) if chosen else None
    return merge(tree, data)


def merge(tree: dict, other: dict) -> dict:
    """``other`` merged into ``tree`` (mappings key by key, anything else replaced); returns ``tree``."""
    for key, value in other.items():
        if isinstance(value, dict) and isinstance(tree.get(key), dict):
            merge(tree[key], value)
        else:
            tree[key] = value
    return tree


def default_options() -> dict[str, str]:
    """Group -> option chosen by ``config.yaml``'s defaults list."""
    data = yaml.safe_load((CONF_DIR / "config.yaml").read_text()) or {}
    out: dict[str, str] = {}
    for entry in data.get("defaults") or []:
        if isinstance(entry, dict):
            out.update({str(k): str(v) for k, v in entry.items()})
    return out


def chosen_option(group: str, args: Sequence[str]) -> str | None:
    """The one option of ``group`` the command line composes (``config.yaml``'s unless chosen); ``None`` when that
    cannot be known before composition (an overlay may choose it, a sweep chooses several, a stage is swapped).
    """
    if any(a.lstrip("+").startswith(("experiment=", "search=", f"{group}@")) for a in args):
        return None
    chosen = default_options().get(group)
    for arg in args:
        name, _, value = arg.lstrip("+").partition("=")
        if name == group:
            chosen = value
    if not chosen or "," in chosen or not (CONF_DIR / group / f"{chosen}.yaml").is_file():
        return None
    return chosen


def unknown_key(key: str, tree: object, where: str, prefix: str = "") -> str | None:
    """One-line message when the dotted ``key`` does not exist in ``tree`` (``None`` when it does).

    ``prefix`` is prepended to key names in the message (``judge.`` for a key inside a group's option).
    """
    node = tree
    parts = key.split(".")
    for depth, part in enumerate(parts):
        if not isinstance(node, dict):
            return None  # below a leaf or a list: Hydra decides
        if part not in node:
            parent = prefix + ".".join(parts[:depth])
            parent = parent.rstrip(".")
            close = difflib.get_close_matches(part, sorted(map(str, node)), n=1, cutoff=0.5)
            hint = f" (did you mean '{parent}.{close[0]}'?)" if close else ""
            valid = ", ".join(sorted(str(k) for k in node if not str(k).startswith("_")))
            return (
                f"unknown key '{prefix}{key}' ({where}){hint}; keys of {parent}: {valid}; "
                f"add a new key with +{prefix}{key}=VALUE"
            )
        node = node[part]
    return None


#: Python type of a default value -> how the message names what the key expects.
TYPE_NAMES: dict[type, str] = {bool: "true or false", int: "an integer", float: "a number"}


def default_value(key: str, args: Sequence[str], groups: set[str]) -> tuple[bool, object]:
    """``(True, value)`` of the dotted ``key`` in ``config.yaml`` or in the group option the command line
    chooses; ``(False, None)`` when it cannot be known before composition (an overlay may choose the option).
    """
    root, _, rest = key.partition(".")
    if root in groups:
        chosen = chosen_option(root, args)
        if not rest or chosen is None:
            return False, None
        node: object = option_tree(root, chosen)
        parts = rest.split(".")
    else:
        node = settings_tree()
        parts = key.split(".")
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node


def yaml_text(value: object) -> str:
    """A value as the config files spell it (``true``, ``2000``)."""
    return str(value).lower() if isinstance(value, bool) else repr(value)


def wrong_type(value: object, default: object) -> bool:
    """Whether ``value`` cannot stand for a key whose default is ``default`` (numbers and booleans only;
    ``null`` is left to the strategy, which may accept it; ``${...}`` interpolations are resolved later).
    """
    if value is None or type(default) not in TYPE_NAMES or (isinstance(value, str) and "${" in value):
        return False  # an interpolation is resolved (and checked) later
    if isinstance(default, bool):
        return not isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, bool) or not isinstance(value, int)
    return isinstance(value, bool) or not isinstance(value, int | float)


def check_value_type(arg: str, key: str, override: object, args: Sequence[str], groups: set[str]) -> str | None:
    """One-line message when a value of ``override`` has the wrong type for ``key``; ``None`` when it fits."""
    known, default = default_value(key, args, groups)
    if not known or type(default) not in TYPE_NAMES:
        return None
    try:
        values = list(override.sweep_iterator()) if override.is_sweep_override() else [override.value()]  # type: ignore[attr-defined]
    except Exception:
        return None
    for value in values:
        if wrong_type(value, default):
            shown = f"'{value}'" if isinstance(value, str) else repr(value)
            expected = TYPE_NAMES[type(default)]
            return (
                f"{key} must be {expected} (its default is {yaml_text(default)}), got {shown} in '{arg}'; "
                f"write {key}=<{expected.removeprefix('an ').removeprefix('a ')}>"
            )
    return None


def check_nested_key(key: str, args: Sequence[str], groups: set[str]) -> str | None:
    """Message for an unknown dotted key under a settings root (``pipeline.knn``) or a group's option."""
    root, _, rest = key.partition(".")
    if not rest:
        return None
    if root not in groups:
        tree = settings_tree()
        return unknown_key(key, tree, "conf/config.yaml") if isinstance(tree.get(root), dict) else None
    chosen = chosen_option(root, args)
    if chosen is None:
        return None
    return unknown_key(rest, option_tree(root, chosen), f"option {root}={chosen}", prefix=f"{root}.")


def check_overrides(args: Sequence[str], commands: Collection[str] = ()) -> None:
    """Raise :class:`MemlabError` for the first bad override in ``args`` (other arguments are skipped).

    A bare word (no ``=``, not a flag, not a flag's value, not a ``~key`` deletion) is neither an override
    nor a run: it is reported with the nearest of ``commands`` (``python -m memlab`` passes
    :data:`memlab.cli.COMMANDS`: the config wiring imports nothing of the entry points above it).
    """
    for i, arg in enumerate(args):
        if "=" in arg or arg.startswith(("-", "~")) or (i > 0 and args[i - 1].startswith("-")):
            continue
        close = difflib.get_close_matches(arg, sorted(commands), n=1)
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
            prefix = arg[: len(arg) - len(arg.lstrip("+"))]
            for value in values:
                if value not in valid:
                    raise MemlabError(
                        unknown_option_message(key, value, valid) + f"; choose with {prefix}{key}=<option>"
                    )
            continue
        root = key.split(".")[0].split("/")[0]
        if root not in roots and not override.is_add():
            close = difflib.get_close_matches(root, sorted(roots), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise MemlabError(
                f"unknown config key '{root}' in override '{arg}'{hint}; "
                "see `python -m memlab --cfg job` for the keys, or add a new key with +key=value"
            )
        if not override.is_add() and not override.is_delete():
            message = check_nested_key(key, args, groups) or check_value_type(arg, key, override, args, groups)
            if message:
                raise MemlabError(message)
