"""``memlab train judge``: fit the learned supersession judge on generated histories and write it as JSON trees;
``memlab train record-judge`` and ``memlab train admission`` fit the logistic models (memlab/training/).

The run never trains anything: learned strategies load a shipped or given model. This command is how a
model is made (training seeds must be >= 1000; evaluation seeds stay below). It writes the model file
(``.json``, gradient-boosted trees as plain JSON, loaded without pickle) and its card beside it
(``.card.json``: training seeds, features, class counts, grouped cross-validation, SHA-256, the command).
Use it with ``judge=learned judge.model_path=FILE``. The shipped default's card names the command that
wrote it (``memlab/models/judge/learned_v10.card.json``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from memlab.core.errors import MemlabError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab train``."""
    parser.add_argument(
        "what",
        choices=["judge", "record-judge", "edit-judge", "admission"],
        help="what to train: judge (the learned supersession judge), record-judge (decision records, ADR corpus), "
        "edit-judge (memory files' edits, memory-files corpus) or admission (which captured records may enter the "
        "block, hand-labelled real notes)",
    )
    parser.add_argument("--notes", default=None, help="admission: notes.jsonl (default: the shared real notes)")
    parser.add_argument("--labels", default=None, help="admission: labels file (default: the developers' labels)")
    parser.add_argument("--c", type=float, default=1.0, help="admission: inverse L2 regularisation strength")
    parser.add_argument("--precision", type=float, default=0.96, help="admission: memories among the kept")
    parser.add_argument(
        "--path", default=None, help="record-/edit-judge: folder of JSON files (default: shared folder)"
    )
    parser.add_argument("--split", default="dev", help="record-/edit-judge: all | dev | sealed (train on dev only)")
    parser.add_argument(
        "--repos", default=None, help="record-/edit-judge: comma-separated repositories (default: split)"
    )
    parser.add_argument("--exclude", default="", help="record-/edit-judge: comma-separated repositories left out")
    parser.add_argument(
        "--seeds",
        default="1000-1019,1030-1059,1070-1169",
        help="training seeds (all >= 1000), each range optionally with @STYLE[@HARD_NEGATIVE_SHARE], "
        "e.g. 1000-1019,1200-1259@terse+narrative@0.2",
    )
    parser.add_argument("--size", type=int, default=400, help="memories per generated history")
    parser.add_argument("--dataset", default="generator", choices=["generator", "builtin"])
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "tfidf"])
    parser.add_argument("--k", type=int, default=20, help="nearest neighbours per memory (as pipeline.knn_k)")
    parser.add_argument(
        "--min-similarity", type=float, default=0.2, help="cosine floor of a pair (as pipeline.min_pair_similarity)"
    )
    parser.add_argument("--k-namespace", type=int, default=0, help="neighbours within the namespace")
    parser.add_argument(
        "--profiles",
        default="store",
        choices=["store", "session"],
        help="store a pair's slot profiles come from: the whole history (store, as under pipeline.schedule=end) "
        "or the memories up to the end of the newer memory's session (session, as the session schedule and the hook)",
    )
    parser.add_argument("--out", required=True, type=Path, help="model file to write (.json)")


def run(args: argparse.Namespace) -> int:
    """Train, write the model and its card, print where they are and the cross-validated scores."""
    from memlab.training.judge import parse_training_seeds, save, train

    if args.out.suffix != ".json":
        raise MemlabError(f"--out must be a .json file (JSON trees); got {args.out}")
    if args.what == "admission":
        from memlab.core.paths import PROJECT_ROOT, default_data_dir

        args.notes = args.notes or str(Path(default_data_dir()) / "git-notes-memory-notes" / "notes.jsonl")
        args.labels = args.labels or str(PROJECT_ROOT / "datasets" / "gitnotes_labels" / "dev.json")
    if args.what != "judge":  # memlab/training/<record_judge|edit_judge|admission>.py: train_to(args)
        import importlib

        return int(importlib.import_module(f"memlab.training.{args.what.replace('-', '_')}").train_to(args))
    seeds, styles, hard = parse_training_seeds(args.seeds)
    model, card = train(
        seeds,
        dataset=args.dataset,
        size=args.size,
        embedder=args.embedder,
        k=args.k,
        min_similarity=args.min_similarity,
        k_namespace=args.k_namespace,
        styles=styles,
        hard_negatives=hard,
        profiles=args.profiles,
    )
    model_path, card_path = save(model, card, args.out)
    print(json.dumps({"model": str(model_path), "card": str(card_path), "cv": card["cv"]}, indent=2))
    return 0
