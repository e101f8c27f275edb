"""Freeze an MLflow run (or a resolved config) into a hook spec."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memlab.adapter.spec import GROUPS, HOOK_DEFAULTS, SPEC_FORMAT, config_hash
from memlab.errors import MemlabError


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
    """A spec from a nested resolved config (``strategies`` = the seven strategy nodes, plus ``pipeline``)."""
    missing = [g for g in GROUPS if not isinstance(cfg.get(g), Mapping) or "_target_" not in cfg[g]]
    if missing:
        raise MemlabError(f"the run has no strategy config for {', '.join(missing)}; was it a memlab benchmark run?")
    strategies = {g: dict(cfg[g]) for g in GROUPS}
    pipeline = dict(cfg.get("pipeline") or {})
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
            **dict(source or {}),
        },
    }
    return spec


def pin_models(spec: dict[str, Any], run_id: str, out: Path, uri: str | None = None) -> list[Path]:
    """Download the model files a run logged (``models/<group>/<name>.json`` and its ``.card.json``, see
    :func:`memlab.run.copy_strategy_artifacts`) into ``out/models/<group>/``, point the strategy's
    ``model_path`` at the model and pin its SHA-256 (``model_sha256``), so the hook judges with exactly the
    run's model and refuses any other file.

    Returns:
        The downloaded model files.
    """
    from memlab.tracking.query import download_artifact, list_artifacts

    pinned: list[Path] = []
    for group, node in spec["strategies"].items():
        if "model_path" not in node:
            continue
        files = list_artifacts(run_id, f"models/{group}", uri)
        for name in files:
            local = download_artifact(run_id, name, out / "models" / group, uri)
            if local.suffix == ".json" and not local.name.endswith(".card.json"):
                from memlab.models.trees import sha256_of

                node["model_path"] = str(local.resolve())
                node["model_sha256"] = sha256_of(local)
                pinned.append(local)
    return pinned


def spec_from_run(record: Any, uri: str | None = None) -> dict[str, Any]:
    """A spec from a :class:`memlab.tracking.query.RunRecord`.

    A run logs params for the strategy groups its benchmark uses; the others (a hook needs every group)
    come from the run's resolved ``config.json`` artifact, and the spec's ``source.unmeasured`` names them.
    """
    cfg = unflatten(record.params)
    unmeasured = [g for g in GROUPS if not isinstance(cfg.get(g), Mapping) or "_target_" not in cfg[g]]
    if unmeasured:
        full = run_config(record.run_id, uri)
        for group in unmeasured:
            if isinstance(full.get(group), Mapping):
                cfg[group] = dict(full[group])
    return spec_from_config(
        cfg,
        {
            "run_id": record.run_id,
            "experiment": record.experiment,
            "status": record.status,
            "run_config_hash": record.tags.get("memlab.config_hash"),
            "dataset": record.tags.get("memlab.dataset"),
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
