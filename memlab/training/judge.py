"""Training data and training for the learned judge (scikit-learn, deterministic).

Candidate pairs are made the way the pipeline makes them (each memory's ``k`` nearest neighbours above a
cosine floor, :func:`memlab.embed.knn.knn_pairs`), plus every gold pair; a pair's label is its
gold relation, SUPERSEDE also for pairs in the transitive closure of the gold SUPERSEDE chains (the metric
compares closures), and COEXIST for pairs absent from the gold.

The seed rule: models are trained on seeds 1000 and above; evaluation runs use seeds below 1000. A model
records its training seeds in its card, and :class:`~memlab.strategies.judge.learned.LearnedJudge`
refuses to run on an evaluation seed it was trained on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError
from memlab.core.types import Relation
from memlab.observability.progress import progress
from memlab.strategies.judge.pair_features import FEATURES, FEATURES_VERSION, pair_features


def parse_seeds(spec: str | int | Sequence[int]) -> list[int]:
    """``"1000-1019"``, ``"1,2,5-7"``, an int or a list → sorted unique seeds.

    Raises:
        MemlabError: The spec is not a seed list.
    """
    if isinstance(spec, int):
        return [spec]
    if not isinstance(spec, str):
        return sorted({int(s) for s in spec})
    seeds: set[int] = set()
    try:
        for part in spec.replace(" ", "").split(","):
            if not part:
                continue
            if "-" in part:
                lo, hi = part.split("-", 1)
                seeds.update(range(int(lo), int(hi) + 1))
            else:
                seeds.add(int(part))
    except ValueError:
        raise MemlabError(f"bad seed list '{spec}'; use e.g. 1000-1019 or 1,2,3") from None
    return sorted(seeds)


def parse_training_seeds(spec: str) -> tuple[list[int], dict[int, str], dict[int, float]]:
    """``"1000-1019,1200-1259@terse+narrative@0.2"`` → seeds, each seed's phrasing family, its hard-negative share.

    A comma-separated part is a seed range with an optional ``@STYLE`` (the generator's ``style``: one family
    or several joined by ``+``; default ``classic``) and an optional second ``@SHARE`` (``hard_negatives``,
    default 0). A seed named twice keeps its last part.

    Raises:
        MemlabError: A part that is not ``RANGE[@STYLE[@SHARE]]``.
    """
    seeds: list[int] = []
    styles: dict[int, str] = {}
    hard: dict[int, float] = {}
    for part in str(spec).replace(" ", "").split(","):
        if not part:
            continue
        rng, *rest = part.split("@")
        if len(rest) > 2:
            raise MemlabError(f"bad training part '{part}'; use RANGE[@STYLE[@SHARE]], e.g. 1200-1259@terse@0.2")
        style = rest[0] if rest and rest[0] else "classic"
        try:
            share = float(rest[1]) if len(rest) == 2 else 0.0
        except ValueError:
            raise MemlabError(f"bad hard-negative share in '{part}'; use a number in [0, 1]") from None
        for seed in parse_seeds(rng):
            seeds.append(seed)
            styles[seed], hard[seed] = style, share
    return sorted(set(seeds)), styles, hard


def make_history(dataset: str, seed: int, size: int, style: str = "classic", hard_negatives: float = 0.0) -> Any:
    """One training history: ``builtin`` (memlab.data.project_history.builtin) or ``generator`` (with
    its phrasing family ``style`` and share of ``hard_negatives``).
    """
    if dataset == "builtin":
        from memlab.data.project_history.builtin import generate

        return generate(seed)
    if dataset == "generator":
        try:
            from memlab.data.project_history.generator import generate as gen
        except ImportError:
            raise MemlabError("the project-history generator is not available; use --dataset builtin") from None
        return gen(seed, size, style=style, hard_negatives=hard_negatives)
    raise MemlabError(f"unknown training dataset '{dataset}'; valid: builtin, generator")


def make_embedder(name: str) -> Any:
    """The embedder used for the cosine feature: ``minilm`` (as in runs) or ``tfidf`` (fast, for tests)."""
    if name == "minilm":
        from memlab.core.paths import PROJECT_ROOT
        from memlab.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder(cache_dir=str(PROJECT_ROOT / ".cache"))
    if name == "tfidf":
        from memlab.embed.tfidf import TfidfEmbedder

        return TfidfEmbedder()
    raise MemlabError(f"unknown embedder '{name}'; valid: minilm, tfidf")


#: Which store the slot profiles of a training pair come from (``--profiles``): ``store``, every memory of the
#: history (what a judge observes under ``pipeline.schedule=end``); ``session``, the memories recorded up to the
#: end of the newer memory's session (what it observes when that session is consolidated under the default
#: ``session`` schedule and in the git-notes hook, which consolidates the notes so far at each session start).
PROFILE_STORES: tuple[str, ...] = ("store", "session")


def history_pairs(
    history: Any,
    embedder: Any,
    k: int = 8,
    min_similarity: float = 0.3,
    k_namespace: int = 0,
    profiles: str = "store",
) -> tuple[list, list[str]]:
    """Feature rows and labels of one history's candidate pairs, with the slot profiles of the store the judge
    would observe (``profiles``, one of :data:`PROFILE_STORES`).

    Raises:
        MemlabError: An unknown ``profiles``.
    """
    from memlab.strategies.judge.slot_profiles import SlotProfiles

    if profiles not in PROFILE_STORES:
        raise MemlabError(f"unknown profiles '{profiles}'; valid: {', '.join(PROFILE_STORES)}")
    pairs = candidate_pairs(history, embedder, k, min_similarity, k_namespace)
    if profiles == "store":
        whole = SlotProfiles.from_memories(history.memories)
        return [pair_features(o, n, s, whole) for o, n, s, _ in pairs], [label for *_, label in pairs]
    ends = session_ends(history.memories)
    ordered = sorted(history.memories, key=lambda m: (m.timestamp, m.id))
    cache: dict[Any, Any] = {}
    rows = []
    for older, newer, sim, _ in pairs:
        end = ends[newer.id]
        if end not in cache:
            cache[end] = SlotProfiles.from_memories([m for m in ordered if m.timestamp <= end])
        rows.append(pair_features(older, newer, sim, cache[end]))
    return rows, [label for *_, label in pairs]


def session_ends(memories: Sequence[Any]) -> dict[str, Any]:
    """Each memory's id → the time of the last memory of its session (:func:`memlab.pipeline.episode.session_of`)."""
    from memlab.pipeline.episode import session_of

    last: dict[str, Any] = {}
    for m in memories:
        key = session_of(m)
        last[key] = max(last.get(key, m.timestamp), m.timestamp)
    return {m.id: last[session_of(m)] for m in memories}


def candidate_pairs(
    history: Any, embedder: Any, k: int = 8, min_similarity: float = 0.3, k_namespace: int = 0
) -> list[tuple]:
    """``(older, newer, cosine, gold label)`` for the kNN candidate pairs and the gold pairs of a history.

    The kNN pairs are those of the pipeline's ``knn_k`` (``k``) and ``knn_k_namespace`` (``k_namespace``)
    at ``min_similarity``.
    """
    from memlab.data.relations import transitive_closure
    from memlab.embed.knn import knn_pairs, knn_pairs_within

    memories = list(history.memories)
    index = {m.id: i for i, m in enumerate(memories)}
    matrix = embedder.encode([m.text for m in memories])
    gold = {(r.older, r.newer): r.relation.value for r in history.relations}
    closure = transitive_closure([p for p, rel in gold.items() if rel == Relation.SUPERSEDE.value])
    pairs: dict[tuple[int, int], float] = {(i, j): s for i, j, s in knn_pairs(matrix, k, min_similarity)}
    if k_namespace > 0:
        within = knn_pairs_within(matrix, [m.namespace for m in memories], k_namespace, min_similarity)
        pairs.update({(i, j): s for i, j, s in within})
    for older, newer in gold:
        if older in index and newer in index:
            i, j = sorted((index[older], index[newer]))
            pairs.setdefault((i, j), float(matrix[i] @ matrix[j]))
    out: list[tuple] = []
    for (i, j), sim in sorted(pairs.items()):
        a, b = memories[i], memories[j]
        older, newer = (a, b) if (a.timestamp, a.id) <= (b.timestamp, b.id) else (b, a)
        label = gold.get((older.id, newer.id))
        if label is None:
            label = Relation.SUPERSEDE.value if (older.id, newer.id) in closure else Relation.COEXIST.value
        out.append((older, newer, float(sim), label))
    return out


def build_model(random_state: int = 0) -> Any:
    """The classifier: gradient-boosted trees of depth 4 with at least 40 pairs per leaf (fixed seed).

    Model v4 used depth 6 and no leaf minimum. Deep trees fit the last bits of the features: before the
    slot-profile features were made identical in every process, models trained on the same pairs in
    different processes gave validation seed 1020 a supersession_f1 of 0.871, 0.897 or 0.915. On
    validation seeds 1020-1029 (the run's pipeline, mean of 10 seeds) the depth-6 model scored 0.898 and
    0.913 in two draws (stale 0.044 / 0.038), this one 0.939 / 0.033; a slower-learning variant (400
    rounds at 0.05, 50 per leaf, L2 1.0) 0.934 / 0.033 and an average of five depth-6 models on 70% of the
    features each 0.936 / 0.031 (experiments/judges/README.md, "Model v5").
    """
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(
        max_iter=300,
        max_depth=4,
        learning_rate=0.1,
        min_samples_leaf=40,
        early_stopping=False,
        random_state=random_state,
    )


def train(
    seeds: Sequence[int],
    *,
    dataset: str = "builtin",
    size: int = 400,
    embedder: str = "minilm",
    k: int = 8,
    min_similarity: float = 0.3,
    k_namespace: int = 0,
    styles: Mapping[int, str] | None = None,
    hard_negatives: Mapping[int, float] | None = None,
    profiles: str = "store",
) -> tuple[Any, dict[str, Any]]:
    """Train on ``seeds``; returns ``(model, card)``. Cross-validation groups folds by seed (history).

    ``styles`` and ``hard_negatives`` give a generated seed's phrasing family and hard-negative share
    (:func:`parse_training_seeds`; default ``classic`` and 0). ``profiles`` says which store a pair's slot
    profiles come from (:data:`PROFILE_STORES`; the card records it). Training on some families and evaluating on the
    others measures how far the model carries to phrasings it has not seen.

    ``k``, ``min_similarity`` and ``k_namespace`` should equal the pipeline's ``knn_k``,
    ``min_pair_similarity`` and ``knn_k_namespace`` of the runs
    the model will judge: the classifier learns the class balance of the candidate pairs, and a model trained
    on k = 8 pairs loses most of its precision on k = 20 pairs (measured: supersession_f1 0.88 → 0.54,
    experiments/judges/README.md).

    Raises:
        MemlabError: A seed below 1000 (reserved for evaluation), no training pairs or unknown ``profiles``.
    """
    import numpy as np

    seeds = sorted(set(int(s) for s in seeds))
    if not seeds or min(seeds) < 1000:
        raise MemlabError(f"training seeds must be >= 1000 (seeds below 1000 are for evaluation); got {seeds[:5]}")
    emb = make_embedder(embedder)
    rows: list[list[float]] = []
    labels: list[str] = []
    groups: list[int] = []
    styles, hard = dict(styles or {}), dict(hard_negatives or {})
    for seed in progress(seeds, desc="training histories", unit="history"):
        history = make_history(dataset, seed, size, styles.get(seed, "classic"), hard.get(seed, 0.0))
        r, lab = history_pairs(history, emb, k, min_similarity, k_namespace, profiles)
        rows += r
        labels += lab
        groups += [seed] * len(r)
    if not rows:
        raise MemlabError("no training pairs; check the training seeds and dataset")
    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels)
    model = build_model().fit(x, y)
    n_splits = min(5, len(seeds))
    cv = cross_validated(x, y, groups, n_splits) if n_splits >= 2 and len(set(labels)) > 1 else {}
    mixed = set(styles.values()) - {"classic"} or any(hard.values())  # other families or hard negatives
    card = {
        "features": list(FEATURES),
        "features_version": FEATURES_VERSION,
        "classes": [str(c) for c in model.classes_],
        "train_seeds": seeds,
        **({"train_styles": _seed_groups(seeds, styles, hard)} if mixed else {}),
        "dataset": dataset,
        "size": size,
        "embedder": embedder,
        "knn_k": k,
        "min_pair_similarity": min_similarity,
        "knn_k_namespace": k_namespace,
        "profiles": profiles,
        "n_pairs": len(labels),
        "class_counts": dict(sorted(Counter(labels).items())),
        "cv": cv,
        "cv_scheme": f"GroupKFold(n_splits={n_splits}) by seed" if cv else "none",
        "model": type(model).__name__,
        "command": (
            f"memlab train judge --seeds {format_training_seeds(seeds, styles, hard)} --dataset {dataset} "
            f"--size {size} --embedder {embedder} --k {k} --min-similarity {min_similarity} "
            f"--k-namespace {k_namespace}" + (f" --profiles {profiles}" if profiles != "store" else "") + " --out FILE"
        ),
    }
    return model, card


def cross_validated(x: Any, y: Any, groups: Sequence[int], n_splits: int) -> dict[str, float]:
    """Macro F1, each class's F1 and accuracy of out-of-fold predictions, folds grouped by seed (history)."""
    from sklearn.metrics import f1_score
    from sklearn.model_selection import GroupKFold, cross_val_predict

    pred = cross_val_predict(build_model(), x, y, groups=groups, cv=GroupKFold(n_splits=n_splits))
    cv = {"macro_f1": float(f1_score(y, pred, average="macro"))}
    for rel in sorted(set(y.tolist())):
        cv[f"f1_{rel.lower()}"] = float(f1_score(y == rel, pred == rel, zero_division=0.0))
    cv["accuracy"] = float((pred == y).mean())
    return cv


def format_seeds(seeds: Sequence[int]) -> str:
    """Sorted seeds as ranges: ``[1000, 1001, 1002, 1005]`` -> ``"1000-1002,1005"`` (inverse of :func:`parse_seeds`)."""
    parts: list[str] = []
    ordered = sorted(set(int(s) for s in seeds))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ",".join(parts)


def _seed_groups(seeds: Sequence[int], styles: Mapping[int, str], hard: Mapping[int, float]) -> dict[str, str]:
    """``{"terse+narrative@0.2": "1200-1219", ...}``: the seeds of each (family, hard-negative share)."""
    groups: dict[str, list[int]] = {}
    for seed in seeds:
        share = hard.get(seed, 0.0)
        key = styles.get(seed, "classic") + (f"@{share:g}" if share else "")
        groups.setdefault(key, []).append(seed)
    return {key: format_seeds(group) for key, group in groups.items()}


def format_training_seeds(seeds: Sequence[int], styles: Mapping[int, str], hard: Mapping[int, float]) -> str:
    """The ``--seeds`` spec of :func:`parse_training_seeds` for these seeds, families and shares."""
    parts: list[str] = []
    for key, group in _seed_groups(seeds, styles, hard).items():
        style, _, share = key.partition("@")
        suffix = "" if style == "classic" and not share else f"@{style}" + (f"@{share}" if share else "")
        parts += [f"{rng}{suffix}" for rng in group.split(",")]
    return ",".join(parts)


def save(model: Any, card: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """Write the model as JSON trees (``out``, a ``.json`` file) and its card beside it (``.card.json``)."""
    from memlab.models.trees import save_model

    out = Path(out)
    if out.suffix != ".json":
        raise MemlabError(f"the model file must end in .json (JSON trees, no pickle); got {out}")
    return save_model(model, card, out)
