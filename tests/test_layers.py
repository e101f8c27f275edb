"""Imports go down the layers (DESIGN.md): text is a leaf, strategies never import the pipeline, the pipeline
never imports a strategy (only the kinds' bases), and run.py and the pipeline import neither Hydra nor MLflow."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "memlab"


def imports(path: Path) -> set[str]:
    """Every module a file imports (top level and inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def files(sub: str) -> list[Path]:
    return sorted((PKG / sub).rglob("*.py")) if (PKG / sub).is_dir() else [PKG / sub]


def memlab_imports(path: Path) -> set[str]:
    return {m for m in imports(path) if m == "memlab" or m.startswith("memlab.")}


#: package -> the memlab modules (prefixes) its files may import
ALLOWED: dict[str, tuple[str, ...]] = {
    "text": ("memlab.text", "memlab.core.types", "memlab.core.selection_types", "memlab.core.errors"),
    # memlab.core.sha is a leaf (imports nothing of memlab): SHA-256 and the one hash of a file (a model's pin)
    "models": ("memlab.models", "memlab.core.errors", "memlab.core.sha"),
    # generated and read data, shared by benchmarks and training (both may import it; it imports neither)
    "data": ("memlab.data", "memlab.core.types", "memlab.text", "memlab.core.errors"),
    "strategies": (
        "memlab.strategies",
        "memlab.core.types",
        "memlab.core.selection_types",
        "memlab.text",
        "memlab.embed",
        "memlab.llm",
        "memlab.models",
        "memlab.core.errors",
        "memlab.core.paths",
        "memlab.core.sha",
    ),
}


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_lower_layers_import_nothing_above_them(package):
    bad = []
    for path in files(package):
        for module in memlab_imports(path):
            if not module.startswith(ALLOWED[package]):
                bad.append(f"{path.relative_to(PKG)} imports {module}")
    assert bad == []


def test_a_strategy_imports_only_its_own_group_among_strategies():
    bad = []
    for path in files("strategies"):
        group = path.relative_to(PKG / "strategies").parts[0]
        for module in memlab_imports(path):
            if module.startswith("memlab.strategies.") and not module.startswith(f"memlab.strategies.{group}"):
                bad.append(f"{path.relative_to(PKG)} imports {module}")
    assert bad == []


#: A kind's definition (``memlab/strategies/<kind>/base.py``): what the pipeline may know of a strategy.
KIND_BASE = re.compile(r"memlab\.strategies\.\w+\.base")


def test_the_pipeline_never_imports_a_strategy_a_benchmark_or_training():
    bad = [
        f"{p.relative_to(PKG)} imports {m}"
        for p in files("pipeline")
        for m in memlab_imports(p)
        if m.startswith(("memlab.strategies", "memlab.benchmarks", "memlab.training", "memlab.adapter"))
        and not KIND_BASE.fullmatch(m)
    ]
    assert bad == []


@pytest.mark.parametrize("sub", ["run.py", "pipeline", "benchmarks", "strategies", "text", "wiring/build.py"])
def test_no_hydra_or_mlflow_below_the_entry_points(sub):
    bad = [
        f"{p.relative_to(PKG)} imports {m}"
        for p in files(sub)
        for m in imports(p)
        if m.split(".")[0] in ("hydra", "mlflow", "omegaconf")
    ]
    assert bad == []


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("reports", "memlab.commands"),
        ("reports", "memlab.run"),
        ("training", "memlab.benchmarks"),
        ("tracking", "memlab.commands"),
    ],
)
def test_no_upward_import(package, forbidden):
    """Reports and tracking never import a command, and a report runs nothing (it reads runs; ``memlab report
    --attribute`` runs the swaps); training takes its data from memlab.data, not a benchmark."""
    bad = [
        f"{p.relative_to(PKG)} imports {m}"
        for p in files(package)
        for m in memlab_imports(p)
        if m.startswith(forbidden)
    ]
    assert bad == []
