"""Freeze an MLflow run (or a resolved config) into a hook spec."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memlab.adapter.spec import GROUPS, HOOK_DEFAULTS, SPEC_FORMAT, config_hash
from memlab.core.errors import MemlabError


def parse_param(value: str) -> Any:
    """An MLflow param string back to its value (JSON, Python's True/False/None, else the string)."""
    text = str(value)
    if text in ("True", "False"):
        return text == "True"
    if text == "None":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def unflatten(params: Mapping[str, str]) -> dict[str, Any]:
    """Dotted MLflow params (the flattened resolved config) back into nested mappings."""
    out: dict[str, Any] = {}
    for key in sorted(params):
        node = out
        parts = key.split(".")
        for part in parts[:-1]:
            nxt = node.setdefault(part, {})
            if not isinstance(nxt, dict):
                raise MemlabError(f"param '{key}' clashes with a scalar param; the run's params are inconsistent")
            node = nxt
        node[parts[-1]] = parse_param(params[key])
    return out


def spec_from_config(cfg: Mapping[str, Any], source: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A spec from a nested resolved config (the strategy nodes, plus ``pipeline``).

    The hook needs every group; one the config lacks (a run whose resolved ``config.json`` could not be
    read: see :func:`spec_from_run`) gets the conf default (the built-in default spec's option), listed
    under ``source.defaulted`` so the spec says which strategies did not come from the run.

    Raises:
        MemlabError: The config holds no strategy at all (not a memlab benchmark run).
    """
    from memlab.adapter.spec import default_spec

    present = [g for g in GROUPS if isinstance(cfg.get(g), Mapping) and "_target_" in cfg[g]]
    if not present:
        raise MemlabError("the run has no strategy config at all; was it a memlab benchmark run?")
    defaults = default_spec()
    strategies = {g: dict(cfg[g]) if g in present else dict(defaults["strategies"][g]) for g in GROUPS}
    pipeline = dict(cfg.get("pipeline") or defaults["pipeline"])
    llm = dict(cfg.get("llm") or {})
    spec: dict[str, Any] = {
        "format": SPEC_FORMAT,
        "strategies": strategies,
        "pipeline": pipeline,
        "llm": llm,
        "hook": copy.deepcopy(HOOK_DEFAULTS),
        "source": {
            "config_hash": config_hash({"strategies": strategies, "pipeline": pipeline}),
            "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "defaulted": [g for g in GROUPS if g not in present] + ([] if cfg.get("pipeline") else ["pipeline"]),
            **dict(source or {}),
        },
    }
    return spec


def _model_file(files: list[Path]) -> Path | None:
    """The model among a run's ``models/<group>/`` files (its card, ``<name>.card.json``, is not the model)."""
    rest = [f for f in files if not f.name.endswith(".card.json")]
    return rest[0] if len(rest) == 1 else None


def pin_models(spec: dict[str, Any], run_id: str, out: Path, uri: str | None = None) -> list[Path]:
    """Download the model files a run logged (``models/<group>/``, see :func:`memlab.run.copy_strategy_artifacts`)
    into ``out/models/<group>/`` and pin each strategy's ``model_path`` to it — relative to the spec's folder
    ``out`` — with the file's ``model_sha256``, so the hook judges with exactly the run's model.

    A strategy whose model the run did not log keeps an existing local ``model_path`` (made absolute) and
    gets its sha256; so do the model files of the strategies nested in it (the cascade's stages). A nested model
    left unset is the package's shipped one, checked against the pin the run's conf gave it.

    Returns:
        The model files pinned.

    Raises:
        MemlabError: A model cannot be found.
    """
    from memlab.adapter.spec import model_refs
    from memlab.core.sha import file_sha256
    from memlab.tracking.query import download_artifact, list_artifacts

    pinned: list[Path] = []
    for group, node in spec["strategies"].items():
        for holder, key in model_refs(node):  # nested models (a cascade's stages): local files, pinned as they are
            if holder is node and key == "model_path":
                continue
            other = Path(str(holder[key])).expanduser().resolve()
            if not other.is_file():
                raise MemlabError(f"{group} model {other} of run {run_id} not found; export on the machine that ran it")
            holder[key], holder[key[: -len("path")] + "sha256"] = str(other), file_sha256(other)
            pinned.append(other)
        if not isinstance(node, dict) or "model_path" not in node:
            continue
        names = list_artifacts(run_id, f"models/{group}", uri)
        local = [download_artifact(run_id, name, out / "models" / group, uri) for name in names]
        model = _model_file(local)
        if model is None and node.get("model_path"):
            model = Path(str(node["model_path"])).expanduser().resolve()
            if not model.is_file():
                raise MemlabError(f"{group} model {model} of run {run_id} not found; export on the machine that ran it")
        if model is None:
            continue
        node["model_path"] = str(model.relative_to(out)) if model.is_relative_to(out) else str(model)
        node["model_sha256"] = file_sha256(model)
        pinned.append(model)
    return pinned


def spec_from_run(record: Any, uri: str | None = None) -> dict[str, Any]:
    """A spec from a :class:`memlab.tracking.query.RunRecord`.

    A run logs params for the strategy groups its benchmark uses; the others (a hook needs every group)
    come from the run's resolved ``config.json`` artifact, and the spec's ``source.unmeasured`` names them.
    """
    cfg = unflatten(record.params)
    unmeasured = [g for g in GROUPS if not isinstance(cfg.get(g), Mapping) or "_target_" not in cfg[g]]
    if unmeasured or not isinstance(cfg.get("pipeline"), Mapping):
        full = run_config(record.run_id, uri)
        for group in [*unmeasured, "pipeline"]:
            if isinstance(full.get(group), Mapping) and not isinstance(cfg.get(group), Mapping):
                cfg[group] = dict(full[group])
    return spec_from_config(
        cfg,
        {
            "run_id": record.run_id,
            "experiment": record.experiment,
            "status": record.status,
            "run_config_hash": record.tags.get("memlab.config_hash"),
            "dataset": record.tags.get("memlab.dataset"),
            "sweep": record.tags.get("memlab.sweep"),
            "metrics": dict(sorted(record.metrics.items())),
            "unmeasured": unmeasured,
        },
    )


def run_config(run_id: str, uri: str | None = None) -> dict[str, Any]:
    """The resolved config a run wrote (its ``config.json`` artifact); ``{}`` when it has none."""
    import tempfile

    from memlab.tracking.query import download_artifact, list_artifacts

    if "config.json" not in list_artifacts(run_id, None, uri):
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        data = json.loads(download_artifact(run_id, "config.json", tmp, uri).read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}
