"""The strategy groups of a policy: the one table the rest of memlab derives its group lists from.

The builder's build order (:data:`GROUPS`), the base class every option of a group inherits (the kind's one
definition, which the builder checks and the tracer reads), the option ``conf/config.yaml`` picks, the option of
the hook's default spec (:data:`memlab.adapter.spec.DEFAULT_OPTIONS`) and whether an episode benchmark exercises
the group (:data:`memlab.benchmarks.base.POLICY`) are read from :data:`TABLE`. ``tests/test_groups.py`` checks
that ``conf/config.yaml``'s defaults list, the ``conf/`` folders, the allow-list
(:data:`memlab.wiring.strategy_index.TARGETS`) and the fields of :class:`memlab.wiring.components.Components` agree with
it.

The module imports nothing: the SessionStart hook reads it on every session start.
"""

from __future__ import annotations

_S = "memlab.strategies"
#: One row per strategy group, in build order: (group, base class of its options, option of
#: ``conf/config.yaml``, option of the hook's default spec, exercised by an episode).
TABLE: tuple[tuple[str, str, str, str, bool], ...] = (
    ("embedder", "memlab.embed.base.EmbedderBase", "minilm", "tfidf", True),
    ("retention", f"{_S}.retention.base.RetentionBase", "exponential", "exponential", True),
    ("clusterer", f"{_S}.clusterer.base.ClustererBase", "agglomerative", "agglomerative", True),
    ("summarizer", f"{_S}.summarizer.base.SummarizerBase", "extractive", "extractive", True),
    ("judge", f"{_S}.judge.base.JudgeBase", "similarity", "similarity", True),
    ("temporal", f"{_S}.temporal.base.TemporalBase", "pattern_table", "pattern_table", False),
    ("selector", f"{_S}.selector.base.SelectorBase", "seed_weighted", "seed_weighted", True),
    ("retriever", f"{_S}.retriever.base.RetrieverBase", "dense", "dense", True),
    # the benchmark's reader answers questions from each policy's context (history benchmarks declare it)
    ("reader", f"{_S}.reader.base.ReaderBase", "extractive", "none", False),
    # which records may enter the SessionStart block (captured fragments and fixtures stay in the store)
    ("admission", f"{_S}.admission.base.AdmissionBase", "none", "none", True),
)

#: The strategy groups, in build order (every Components field, every spec's strategies).
GROUPS: tuple[str, ...] = tuple(row[0] for row in TABLE)
#: Group -> dotted name of the base class every option of the group inherits.
BASES: dict[str, str] = {row[0]: row[1] for row in TABLE}
#: Group -> the option ``conf/config.yaml`` picks.
CONFIG_DEFAULTS: dict[str, str] = {row[0]: row[2] for row in TABLE}
#: Group -> the option of the hook's default spec (a repository without an exported spec).
SPEC_DEFAULTS: dict[str, str] = {row[0]: row[3] for row in TABLE}
#: The strategy groups an episode benchmark exercises (the temporal resolver is read by temporal questions only,
#: the reader by the benchmarks that declare it).
EPISODE_GROUPS: tuple[str, ...] = tuple(row[0] for row in TABLE if row[4])
#: Settings groups a benchmark may declare besides strategies (``pipeline.*`` knobs).
SETTINGS_GROUPS: tuple[str, ...] = ("pipeline",)
#: Conf groups whose options are built by :func:`memlab.wiring.build.build_node` but are not strategies.
OTHER_BUILT_GROUPS: tuple[str, ...] = ("dataset", "tracking")
