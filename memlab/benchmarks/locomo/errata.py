"""The LoCoMo audit file (``locomo_dev_audit_errors.json``): question ids whose gold answers are flagged."""

from __future__ import annotations

import json
from pathlib import Path

from memlab.benchmarks.locomo.loader import require_field
from memlab.core.errors import MemlabError


def load_errata(path: str | Path) -> dict[str, str]:
    """Read the audit file (a list of ``{question_id, error_type, ...}``) -> question_id -> error_type."""
    path = Path(path)
    if not path.is_file():
        raise MemlabError(f"errata file not found: {path}; pass dataset.errata=<locomo_dev_audit_errors.json>")
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MemlabError(f"{path}: not valid JSON ({exc}); expected the LoCoMo audit errors list") from None
    if not isinstance(records, list):
        raise MemlabError(f"{path}: expected a JSON list of audit records with 'question_id'")
    out: dict[str, str] = {}
    for i, rec in enumerate(records):
        qid = require_field(rec, "question_id", str, f"errata record #{i}", str(path))
        out[qid] = str(rec.get("error_type", "FLAGGED"))
    return out
