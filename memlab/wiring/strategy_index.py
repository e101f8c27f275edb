"""The allow-list: every class a Hydra config or an exported hook spec may build, per conf group.

A ``_target_`` that is not listed here for its group is refused by :func:`memlab.wiring.build.build_node`, so a
config or a spec (which may come from a repository the hook serves) can never make memlab import or call
anything else — not even another ``memlab`` function. The list is written out rather than derived from
``conf/`` so that it holds where only the package is installed; ``tests/test_build.py`` checks that it
names exactly the ``_target_`` of every ``conf/<group>/*.yaml``.
"""

from __future__ import annotations

#: Conf group -> the targets its options may name.
TARGETS: dict[str, frozenset[str]] = {
    "embedder": frozenset(
        {
            "memlab.embed.minilm.MiniLMEmbedder",
            "memlab.embed.tfidf.TfidfEmbedder",
        }
    ),
    "retention": frozenset(
        {
            "memlab.strategies.retention.actr.ActrRetention",
            "memlab.strategies.retention.exponential.ExponentialRetention",
            "memlab.strategies.retention.fifo_cap.FifoCapRetention",
            "memlab.strategies.retention.none.NoRetention",
            "memlab.strategies.retention.power_law.PowerLawRetention",
            "memlab.strategies.retention.salience_prune.SaliencePruneRetention",
            "memlab.strategies.retention.sliding_window.SlidingWindowRetention",
            "memlab.strategies.retention.overtaken.OvertakenRetention",
        }
    ),
    "clusterer": frozenset(
        {
            "memlab.strategies.clusterer.agglomerative.AgglomerativeClusterer",
            "memlab.strategies.clusterer.hdbscan.HdbscanClusterer",
            "memlab.strategies.clusterer.knn_graph.KnnGraphClusterer",
            "memlab.strategies.clusterer.none.NoClusterer",
            "memlab.strategies.clusterer.time_window.TimeWindowClusterer",
        }
    ),
    "summarizer": frozenset(
        {
            "memlab.strategies.summarizer.dspy_summarizer.DSPySummarizer",
            "memlab.strategies.summarizer.extractive.ExtractiveSummarizer",
            "memlab.strategies.summarizer.none.NoSummarizer",
            "memlab.strategies.summarizer.running_document.RunningDocumentSummarizer",
            "memlab.strategies.summarizer.session_narrative.SessionNarrativeSummarizer",
        }
    ),
    "judge": frozenset(
        {
            "memlab.strategies.judge.cascade.CascadeJudge",
            "memlab.strategies.judge.dspy_judge.DSPyJudge",
            "memlab.strategies.judge.edit.EditJudge",
            "memlab.strategies.judge.learned.LearnedJudge",
            "memlab.strategies.judge.none.NoJudge",
            "memlab.strategies.judge.recapture.RecaptureJudge",
            "memlab.strategies.judge.record.RecordJudge",
            "memlab.strategies.judge.reference.ReferenceJudge",
            "memlab.strategies.judge.similarity.SimilarityJudge",
            "memlab.strategies.judge.slot.SlotJudge",
        }
    ),
    "temporal": frozenset(
        {
            "memlab.strategies.temporal.dateparser.DateparserResolver",
            "memlab.strategies.temporal.dspy_resolver.DSPyResolver",
            "memlab.strategies.temporal.none.NoResolver",
            "memlab.strategies.temporal.pattern_table.PatternTableResolver",
            "memlab.strategies.temporal.rules.RulesResolver",
        }
    ),
    "selector": frozenset(
        {
            "memlab.strategies.selector.current_facts.CurrentFactsSelector",
            "memlab.strategies.selector.knapsack.KnapsackSelector",
            "memlab.strategies.selector.mmr.MmrSelector",
            "memlab.strategies.selector.none.NoSelector",
            "memlab.strategies.selector.recency.RecencySelector",
            "memlab.strategies.selector.retention_topk.RetentionTopkSelector",
            "memlab.strategies.selector.seed_weighted.SeedWeightedSelector",
        }
    ),
    "retriever": frozenset(
        {
            "memlab.strategies.retriever.bm25.Bm25Retriever",
            "memlab.strategies.retriever.dense.DenseRetriever",
            "memlab.strategies.retriever.hybrid.HybridRetriever",
            "memlab.strategies.retriever.none.NoRetriever",
        }
    ),
    "reader": frozenset(
        {
            "memlab.strategies.reader.extractive.ExtractiveReader",
            "memlab.strategies.reader.llm.LLMReader",
            "memlab.strategies.reader.none.NoReader",
        }
    ),
    "admission": frozenset(
        {
            "memlab.strategies.admission.learned.LearnedAdmission",
            "memlab.strategies.admission.none.NoAdmission",
        }
    ),
    "dataset": frozenset(
        {
            "memlab.benchmarks.adr.benchmark.AdrDecisionsBenchmark",
            "memlab.benchmarks.gitnotes_real.benchmark.GitNotesRealBenchmark",
            "memlab.benchmarks.locomo.benchmark.LocomoBenchmark",
            "memlab.benchmarks.locomo_synth.benchmark.LocomoSynthBenchmark",
            "memlab.benchmarks.longmemeval.benchmark.LongMemEvalBenchmark",
            "memlab.benchmarks.memory_files.benchmark.MemoryFilesBenchmark",
            "memlab.benchmarks.project_history.benchmark.BuiltinHistoryBenchmark",
            "memlab.benchmarks.project_history.benchmark.ConsolidationHistoryBenchmark",
            "memlab.benchmarks.project_history.benchmark.ProjectHistoryBenchmark",
            "memlab.benchmarks.project_history.benchmark.ProjectHistoryFileBenchmark",
            "memlab.benchmarks.temporal_norm.benchmark.TemporalNormBenchmark",
        }
    ),
    "tracking": frozenset(
        {
            "memlab.tracking.base.NullTracker",
            "memlab.tracking.mlflow_tracker.MlflowTracker",
        }
    ),
}
