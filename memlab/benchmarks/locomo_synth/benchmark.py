"""``dataset=locomo_synth``: generate (or reuse) a LoCoMo-format file, then evaluate it as LoCoMo.

The file is cached in ``out_dir`` under a name that hashes every knob and the generator version; the
evaluation is :class:`memlab.benchmarks.locomo.benchmark.LocomoBenchmark`'s on that file, through the
whole policy (extra keyword arguments go to it). The dataset card names the generator and the generated
file's checksum. On top of LoCoMo's metrics it reports date accuracy against the exact gold intervals of
the ``.gold.json`` side file, overall and per expression kind (:mod:`memlab.benchmarks.locomo_synth.score`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from memlab.benchmarks.base import BenchmarkCard, BenchmarkResult
from memlab.benchmarks.locomo.benchmark import USES, LocomoBenchmark, LocomoRunData
from memlab.benchmarks.locomo_synth.score import gold_scores
from memlab.core.errors import MemlabError
from memlab.core.sha import file_sha256
from memlab.data.locomo_synth.config import GENERATOR_VERSION, SynthConfig
from memlab.data.locomo_synth.io import cached, write
from memlab.wiring.components import Components


class LocomoSynthBenchmark(LocomoBenchmark):
    """LoCoMo evaluation on generated conversations with exact temporal gold.

    Args:
        out_dir: Cache folder for generated files (``${paths.generated_dir}``).
        path: Write exactly this file instead of the cache (regenerated each run; same bytes).
        errata: Must stay empty (generated gold is exact); accepted so the LoCoMo defaults compose.
        **kwargs: The generator's knobs, :class:`~memlab.data.locomo_synth.config.SynthConfig`'s fields (a knob
            not given takes its default there, so each default is written once); the other keywords go to
            ``LocomoBenchmark`` (answer, heldout, llm_answer, ...).
    """

    card: ClassVar[BenchmarkCard] = BenchmarkCard(
        "locomo_synth",
        str(GENERATOR_VERSION),
        "generated (MIT)",
        "synth_date_acc",
        USES,
        "generated LoCoMo-style conversations with exact temporal gold per expression kind",
    )

    def __init__(
        self, out_dir: str | None = None, path: str | None = None, errata: str | None = None, **kwargs: Any
    ) -> None:
        self.knobs = {k: v for k, v in kwargs.items() if k in SynthConfig.__dataclass_fields__}
        locomo_kwargs = {k: v for k, v in kwargs.items() if k not in self.knobs}
        self.out_dir = out_dir
        self.synth_path = path
        if errata:
            raise MemlabError("locomo_synth has no errata (its gold is exact); drop dataset.errata")
        super().__init__(path=path or "", errata=None, **locomo_kwargs)
        self.prepared_: tuple[SynthConfig, Path, Path] | None = None

    def prepare(self) -> tuple[SynthConfig, Path, Path]:
        """Validate the knobs and make sure the data and gold files exist; returns (config, data, gold)."""
        if self.prepared_ is None:
            cfg = SynthConfig.from_mapping(self.knobs)
            if self.synth_path:
                data_path, gold_path = write(cfg, self.synth_path)
            else:
                if not self.out_dir:
                    raise MemlabError(
                        "locomo_synth needs dataset.out_dir (default ${paths.generated_dir}) or dataset.path"
                    )
                data_path, gold_path = cached(cfg, self.out_dir)
            self.path = str(data_path)
            self.prepared_ = (cfg, data_path, gold_path)
        return self.prepared_

    def check(self) -> None:
        """Generate (or find) the file, then check it as LoCoMo."""
        self.prepare()
        super().check()

    def score(self, data: LocomoRunData, outcomes: Sequence[Any], components: Components, seed: int) -> BenchmarkResult:
        """LoCoMo's metrics plus date accuracy against the exact gold, overall and per expression kind."""
        cfg, data_path, gold_path = self.prepare()
        result = super().score(data, outcomes, components, seed)
        gold = json.loads(gold_path.read_text(encoding="utf-8"))
        result.metrics.update(gold_scores(result.predictions, gold["items"]))
        sha = file_sha256(data_path)
        source = f"memlab.benchmarks.locomo_synth seed={cfg.seed} key={cfg.key()} -> {data_path}"
        result.card = self.card.data(sha, source)
        result.info = {
            **result.info,
            "generator": cfg.as_dict(),
            "data_path": str(data_path),
            "gold_path": str(gold_path),
        }
        return result
