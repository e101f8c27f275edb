"""``memlab.wiring.config.compose`` is the one way to compose a config in code, and experiments reach memlab only
through public names: no Hydra compose elsewhere, no imports from ``tests``, no private attributes, no monkeypatching,
no ``exec``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hydra.errors import HydraException

from memlab.wiring.config import compose, compose_node, initialized

ROOT = Path(__file__).resolve().parents[1]
HYDRA_COMPOSE = {"compose", "initialize", "initialize_config_dir", "initialize_config_module"}


def sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def hydra_compose_uses(path: Path) -> list[str]:
    """Where a file imports or calls Hydra's compose API (``from hydra import compose``, ``hydra.initialize(...)``)."""
    found = []
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module in ("hydra", "hydra.compose", "hydra.initialize"):
            names = {a.name for a in node.names}
            if node.module != "hydra" or names & HYDRA_COMPOSE:
                found.append(f"{name}:{node.lineno} from {node.module} import {sorted(names)}")
        elif isinstance(node, ast.Attribute) and node.attr in HYDRA_COMPOSE and ast.unparse(node.value) == "hydra":
            found.append(f"{name}:{node.lineno} hydra.{node.attr}")
    return found


def test_only_memlab_config_composes_through_hydra():
    found = [u for p in sources("memlab", "tests", "experiments") for u in hydra_compose_uses(p)]
    assert [u for u in found if not u.startswith("memlab/wiring/config.py:")] == []
    assert any(u.startswith("memlab/wiring/config.py:") for u in found)  # the check sees the one place that does


def test_the_check_finds_a_direct_compose(tmp_path):
    path = tmp_path / "x.py"
    path.write_text("import hydra\nfrom hydra import compose, initialize_config_dir\nhydra.initialize()\n")
    assert len(hydra_compose_uses(path)) == 2


def private_or_patched(path: Path) -> list[str]:
    """Private names of other objects or modules read or imported, attributes of imported modules assigned,
    ``exec``/``eval``/``setattr`` called, and imports from ``tests``, in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
    out = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            if any(m == "tests" or m.startswith("tests.") for m in modules):
                out.append(f"{where} imports from tests")
            if isinstance(node, ast.ImportFrom) and any(a.name.startswith("_") for a in node.names):
                out.append(f"{where} imports a private name")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                out.append(f"{where} reads {ast.unparse(node)}")
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in imported:
                    out.append(f"{where} assigns {ast.unparse(t)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("exec", "eval"):
            out.append(f"{where} calls {node.func.id}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            out.append(f"{where} calls setattr")
    return out


def test_experiments_use_only_public_memlab():
    assert [u for p in sources("experiments") for u in private_or_patched(p)] == []


def test_the_experiment_check_finds_each_kind(tmp_path):
    path = tmp_path / "x.py"
    path.write_text(
        "import memlab.pipeline.episode as episode\nfrom tests.support.compose import compose_cfg\n"
        "from memlab.x import _y\nepisode.consolidate = None\ncascade._fallback = 1\nexec('1')\n"
    )
    assert len(private_or_patched(path)) == 5


def test_tracking_defaults_to_none_and_an_override_wins():
    assert compose(["+experiment=quickstart"])["tracking"]["_target_"] == "memlab.tracking.base.NullTracker"
    chosen = compose(["+experiment=quickstart", "tracking=mlflow", "tracking.uri=sqlite:////tmp/x.db"])["tracking"]
    assert chosen["_target_"].endswith("MlflowTracker") and chosen["uri"] == "sqlite:////tmp/x.db"
    own = compose(["+experiment=quickstart"], tracking=None)["tracking"]
    assert own["_target_"].endswith("MlflowTracker") and own["experiment"] == "quickstart"


def test_compose_returns_plain_containers_resolved_or_not():
    cfg = compose(["judge=slot", "pipeline.knn_k=13"])
    assert type(cfg) is dict and cfg["pipeline"]["knn_k"] == 13 and cfg["judge"]["_target_"].endswith("SlotJudge")
    raw = compose(["dataset=builtin_history"], resolve=False)
    assert "${" in str(raw) and "${" not in str(compose(["dataset=builtin_history"]))


def test_an_unknown_option_fails_with_hydras_message():
    with pytest.raises(HydraException, match="no_such_judge"):
        compose(["judge=no_such_judge"])


def test_the_node_carries_hydras_config_on_request():
    with initialized():
        node = compose_node(["seed=3"], return_hydra_config=True)
        assert list(node.hydra.overrides.task) == ["seed=3", "tracking=none"]
    assert "hydra" not in compose_node()
