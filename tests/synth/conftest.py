import pytest

from memlab.data.locomo_synth.config import SynthConfig
from memlab.data.locomo_synth.generator import generate


@pytest.fixture(scope="session")
def default_data():
    """Data and gold for the default knobs at seed 0."""
    return generate(SynthConfig(seed=0))
