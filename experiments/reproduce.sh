#!/usr/bin/env bash
# Re-run every study whose figures the README and reports cite, into one MLflow store, then regenerate the
# reports from it. Several hours on a 2-core machine (the presets on LoCoMo and the 100k scale points are the
# longest steps); nothing trains: the learned judge loads its shipped model (memlab/models/judge/).
# Usage: bash experiments/reproduce.sh [sqlite:////abs/path/mlruns.db]   (default: the checkout's mlruns.db)
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 LITELLM_LOCAL_MODEL_COST_MAP=True
if [ $# -ge 1 ]; then export MLFLOW_TRACKING_URI="$1"; fi
P=.venv/bin/python
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }

step quickstart and its judge ablation
$P -m memlab --multirun +experiment=quickstart judge=similarity,slot,learned,none

step the README\'s policy sweep \(reports/policy_sweep.md\)
$P -m memlab --multirun hydra/launcher=joblib hydra.launcher.n_jobs=2 +experiment=policy_sweep \
    judge=slot,similarity,none retention=exponential,none pipeline.budget_tokens=250,1000
$P -m memlab.cli report --experiment policy_sweep --force \
    --baseline 'judge=none retention=none pipeline.budget_tokens=1000'

step project histories: judges x difficulties, seeds 0-2 \(one consolidation of the whole history\)
$P -m memlab --multirun +experiment=project_history judge=learned,slot,similarity,none \
    dataset.difficulty=easy,default,hard seed=0,1,2 pipeline.schedule=end
step the learned judge on seventeen more evaluation seeds at the default difficulty
$P -m memlab --multirun +experiment=project_history judge=learned dataset.difficulty=default pipeline.schedule=end \
    seed=3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19
step the production schedule against one consolidation, seeds 0-4
$P -m memlab --multirun +experiment=project_history pipeline.schedule=session,end seed=0,1,2,3,4

step judges across phrasing families and hand-written histories \(reports/judge_families.md\)
F="experiment_name=project_history_families"
$P -m memlab --multirun +experiment=project_history $F judge=cascade judge@judge.fallback=slot,learned_v11 \
    dataset=ferrybook_history,builtin_history
$P -m memlab --multirun +experiment=project_history $F judge=cascade judge@judge.fallback=slot,learned_v11 \
    dataset=project_history dataset.style=classic,ticket,chat,wiki,terse,narrative seed=0,1,2
$P -m memlab --multirun +experiment=project_history $F judge=learned_v11 dataset=ferrybook_history,builtin_history
$P -m memlab --multirun +experiment=project_history $F judge=learned_v11 \
    dataset=project_history dataset.style=classic,ticket,chat,wiki,terse,narrative seed=0,1,2
$P -m memlab report judge_families --force

step the four source designs against tuned
PRESETS=seed_git_notes_memory_nollm,mycelic_nollm,squidbot_nollm,astra_nollm,tuned
B=pipeline.budget_tokens=250,500,1000,2000
$P -m memlab --multirun +experiment=$PRESETS $B dataset=builtin_history
$P -m memlab --multirun seed=0,1,2 +experiment=$PRESETS $B dataset=project_history
$P -m memlab --multirun seed=0,1,2 +experiment=$PRESETS $B dataset=consolidation_history
S="dataset=consolidation_history seed=0,1,2 experiment_name=consolidation_sensitivity"
$P -m memlab --multirun +experiment=seed_git_notes_memory_nollm $S
$P -m memlab --multirun +experiment=seed_git_notes_memory_nollm $S retention=none,salience_prune
$P -m memlab --multirun +experiment=seed_git_notes_memory_nollm $S judge=none,slot
$P -m memlab --multirun +experiment=seed_git_notes_memory_nollm $S clusterer=none,time_window
$P -m memlab --multirun +experiment=$PRESETS $B dataset=locomo
$P -m memlab --multirun +experiment=$PRESETS $B dataset=ferrybook_history
$P -m memlab --multirun +experiment=$PRESETS $B dataset=adr_decisions dataset.split=dev
$P -m memlab --multirun +experiment=tuned dataset=locomo 'dataset.conversations=[conv-26,conv-30]' \
    experiment_name=tuned_per_budget selector=current_facts,knapsack,mmr,recency,retention_topk,seed_weighted $B
$P experiments/presets/per_budget.py
M="dataset=project_history seed=0,1,2 experiment_name=preset_mechanisms"
$P -m memlab --multirun +experiment=seed_git_notes_memory_nollm $M judge=similarity,none
$P -m memlab --multirun +experiment=mycelic_nollm $M judge=slot,none
$P -m memlab --multirun +experiment=squidbot_nollm $M summarizer=running_document,none
$P -m memlab --multirun +experiment=astra_nollm $M
$P -m memlab --multirun +experiment=astra_nollm $M summarizer=none pipeline.insights=false pipeline.identity_anchor=false
$P -m memlab.cli report --experiment attribution_reader_ph --force \
    --baseline '+experiment=seed_git_notes_memory_nollm dataset=project_history' \
    --attribute '+experiment=tuned dataset=project_history' --max-groups 6
$P -m memlab.cli report --experiment attribution_locomo --force --baseline '+experiment=mycelic_nollm dataset=locomo' \
    --attribute '+experiment=tuned dataset=locomo' --max-groups 4
$P -m memlab.cli report --experiment attribution_locomo_core --force --max-groups 4 \
    --baseline '+experiment=mycelic_nollm dataset=locomo summarizer=extractive judge=cascade selector=current_facts selector.min_confidence=0.99 learned_supersede_threshold=0.2' \
    --attribute '+experiment=tuned dataset=locomo'
step real git-notes memories, both embedders
$P -m memlab --multirun +experiment=gitnotes_real embedder=minilm,tfidf
step real git-notes memories with a cold MiniLM cache: everything embedded inside the timed run
$P -m memlab +experiment=gitnotes_real "embedder.cache_dir=$(mktemp -d)" experiment_name=gitnotes_real_cold
step scaling to 10,000 memories
$P -m memlab +experiment=project_history_large dataset.size=10000

step temporal resolvers on every temporal set
$P -m memlab --multirun +experiment=temporal_norm temporal=rules,pattern_table,dateparser,none
$P -m memlab --multirun +experiment=temporal_norm temporal=rules,dateparser dataset.context=phrase
step LoCoMo: leave-one-conversation-out estimate, headline, resolvers, errata, plain baseline
PYTHONPATH=$PWD $P experiments/locomo_temporal/loocv.py
$P -m memlab +experiment=locomo_temporal
$P -m memlab --multirun +experiment=locomo_temporal temporal=none,pattern_table,rules,dateparser
$P -m memlab +experiment=locomo_temporal "dataset.errata=\${paths.data_dir}/locomo/locomo_dev_audit_errors.json" \
    'tags=[locomo,temporal,errata]'
$P -m memlab dataset=locomo embedder=minilm temporal=rules experiment_name=locomo_temporal \
    'dataset.heldout=[conv-41,conv-42,conv-43]' 'tags=[locomo,baseline]'
step LoCoMo-style generated conversations, seeds 0-2
$P -m memlab --multirun dataset=locomo_synth embedder=minilm temporal=rules,pattern_table,none seed=0,1,2 \
    experiment_name=locomo_synth

step real decision records: dev and sealed repositories, strip and keep, LORO folds of the default judge
$P -m memlab --multirun +experiment=adr_decisions dataset.split=sealed \
    judge=cascade,record,reference,slot,similarity,none dataset.refs=strip,keep
$P -m memlab --multirun +experiment=adr_decisions dataset.split=dev judge=reference,slot,similarity,none \
    dataset.refs=strip,keep
FOLDS=$(mktemp -d)
$P experiments/adr_decisions/loro.py --sets default --models-out "$FOLDS"
$P experiments/adr_decisions/pipeline_folds.py "$FOLDS" --cascade
$P experiments/adr_decisions/pipeline_folds.py "$FOLDS" --cascade dataset.refs=keep

step "agents' memory files: dev and sealed repositories, LORO folds of the default judge"
$P -m memlab +experiment=memory_files
$P -m memlab --multirun +experiment=memory_files judge=none,similarity,slot,cascade_edit
$P -m memlab --multirun +experiment=memory_files dataset.split=sealed judge=edit,cascade_edit,none,similarity,slot
$P -m memlab --multirun +experiment=memory_files retention=overtaken retention.max_later_share=0.2,0.3,0.5,0.7 \
    judge=cascade_edit
$P -m memlab --multirun +experiment=memory_files dataset.split=sealed retention=overtaken \
    retention.max_later_share=0.2,0.3,0.5 judge=cascade_edit
MFOLDS=$(mktemp -d)
$P experiments/memory_files/loro.py --sets all --models-out "$MFOLDS"
$P experiments/memory_files/pipeline_folds.py "$MFOLDS" tracking=mlflow
$P experiments/memory_files/pipeline_folds.py "$MFOLDS" --cascade tracking=mlflow

step reports
$P -m memlab.cli report adr --force
$P -m memlab.cli report project_history --force
$P -m memlab.cli report locomo --force
$P -m memlab.cli report temporal --force
$P -m memlab.cli report presets --force
$P -m memlab.cli report memory_files --force

step performance: episodes at 1k/10k/100k, temporal resolvers, the SessionStart hook \(reports/perf.md\)
$P -m memlab.cli bench episode --sizes 1000,10000,100000 --repeats 2 --cold-sizes 1000
$P -m memlab.cli bench temporal --repeats 2
$P -m memlab.cli bench hook --sizes 1000,10000 --runs 20 --out reports/bench_hook.json
