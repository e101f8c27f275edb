"""`import memlab` stays cheap: the core modules pull in no heavy library."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("torch", "mlflow", "hydra", "sklearn", "dspy", "sentence_transformers", "numpy", "omegaconf")


def test_core_imports_load_no_heavy_library():
    code = (
        "import sys, memlab, memlab.core.types, memlab.wiring.build, memlab.core.errors, memlab.cli, "
        "memlab.text.tokens\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_pipeline_imports_no_hydra_mlflow_torch_sklearn():
    code = (
        "import sys, memlab.run, memlab.pipeline.consolidate, memlab.pipeline.recall, memlab.pipeline.inject\n"
        "heavy = ('torch', 'mlflow', 'hydra', 'sklearn', 'sentence_transformers')\n"
        "print(','.join(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
