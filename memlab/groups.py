"""The strategy groups of a policy: the one table the rest of memlab derives its group lists from.

The builder's build order (:data:`GROUPS`), the protocol of each group
(:data:`memlab.protocols.GROUP_PROTOCOLS`), the base class its options inherit, the option
``conf/config.yaml`` picks, the option of the hook's default spec (:data:`memlab.adapter.spec.DEFAULT_OPTIONS`)
and whether an episode benchmark exercises the group (:data:`memlab.benchmarks.base.POLICY`) are read from
:data:`TABLE`. ``tests/test_groups.py`` checks that ``conf/config.yaml``'s defaults list, the ``conf/``
folders, the allow-list (:data:`memlab.strategy_index.TARGETS`) and the fields of
:class:`memlab.components.Components` agree with it.

The module imports nothing: the SessionStart hook reads it on every session start.
"""

from __future__ import annotations

_S = "memlab.strategies"
#: One row per strategy group, in build order: (group, protocol in :mod:`memlab.protocols`, base class of its
#: options, option of ``conf/config.yaml``, option of the hook's default spec, exercised by an episode).
TABLE: tuple[tuple[str, str, str, str, str, bool], ...] = (
    ("embedder", "Embedder", "memlab.embed.base.EmbedderBase", "minilm", "tfidf", True),
    ("retention", "RetentionFunction", f"{_S}.retention.base.RetentionBase", "exponential", "exponential", True),
    ("clusterer", "Clusterer", f"{_S}.clusterer.base.ClustererBase", "agglomerative", "agglomerative", True),
    ("summarizer", "Summarizer", f"{_S}.summarizer.base.SummarizerBase", "extractive", "extractive", True),
    ("judge", "SupersessionJudge", f"{_S}.judge.base.JudgeBase", "similarity", "similarity", True),
    ("temporal", "TemporalResolver", f"{_S}.temporal.base.TemporalBase", "pattern_table", "pattern_table", False),
    ("selector", "InjectionSelector", f"{_S}.selector.base.SelectorBase", "seed_weighted", "seed_weighted", True),
    ("retriever", "Retriever", f"{_S}.retriever.base.RetrieverBase", "dense", "dense", True),
    # the benchmark's reader answers questions from each policy's context (history benchmarks declare it)
    ("reader", "Reader", f"{_S}.reader.base.ReaderBase", "extractive", "none", False),
    # which records may enter the SessionStart block (captured fragments and fixtures stay in the store)
    ("admission", "AdmissionStrategy", f"{_S}.admission.base.AdmissionBase", "none", "none", True),
)

#: The strategy groups, in build order (every Components field, every spec's strategies).
GROUPS: tuple[str, ...] = tuple(row[0] for row in TABLE)
#: Group -> name of its protocol in :mod:`memlab.protocols`.
PROTOCOL_NAMES: dict[str, str] = {row[0]: row[1] for row in TABLE}
#: Group -> dotted name of the base class every option of the group inherits.
BASES: dict[str, str] = {row[0]: row[2] for row in TABLE}
#: Group -> the option ``conf/config.yaml`` picks.
CONFIG_DEFAULTS: dict[str, str] = {row[0]: row[3] for row in TABLE}
#: Group -> the option of the hook's default spec (a repository without an exported spec).
SPEC_DEFAULTS: dict[str, str] = {row[0]: row[4] for row in TABLE}
#: The strategy groups an episode benchmark exercises (the temporal resolver is read by temporal questions only,
#: the reader by the benchmarks that declare it).
EPISODE_GROUPS: tuple[str, ...] = tuple(row[0] for row in TABLE if row[5])
#: Protocol -> (methods, other attributes) it names: an object is an instance of the ``runtime_checkable``
#: protocol when it has every one and no method is ``None``. :func:`memlab.build.build_node` checks a built
#: strategy against this table rather than with ``isinstance`` so that the SessionStart hook, which builds its
#: selector on every session start, does not import :mod:`typing`; ``tests/test_groups.py`` checks that the
#: table and :mod:`memlab.protocols` agree.
PROTOCOL_MEMBERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Embedder": (("encode",), ("model_id", "name", "version")),
    "RetentionFunction": (("score",), ("name", "version")),
    "Clusterer": (("fit_predict",), ("name", "version")),
    "Summarizer": (("summarize",), ("name", "version")),
    "SupersessionJudge": (("judge",), ("name", "version")),
    "TemporalResolver": (("resolve",), ("name", "version")),
    "InjectionSelector": (("select",), ("name", "version")),
    "Retriever": (("rank",), ("name", "version")),
    "Reader": (("answer",), ("name", "reads", "version")),
    "AdmissionStrategy": (("admit",), ("name", "version")),
}
#: Settings groups a benchmark may declare besides strategies (``pipeline.*`` knobs).
SETTINGS_GROUPS: tuple[str, ...] = ("pipeline",)
#: Conf groups whose options are built by :func:`memlab.build.build_node` but are not strategies.
OTHER_BUILT_GROUPS: tuple[str, ...] = ("dataset", "tracking")
