"""LoCoMo-style synthetic conversations with exact temporal gold (``dataset=locomo_synth``).

``python -m memlab.benchmarks.locomo_synth --seed 0 --out datasets/generated/locomo_synth_seed0.json``
writes a file the LoCoMo loader reads, plus ``locomo_synth_seed0.gold.json`` with the gold intervals.
"""

from memlab.data.locomo_synth.config import GENERATOR_VERSION, SynthConfig

__all__ = ["GENERATOR_VERSION", "SynthConfig"]
