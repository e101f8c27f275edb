"""Report figures are saved whole: a legend or title outside the axes widens the PNG instead of being cut off."""

from __future__ import annotations

import struct

from memlab.observability.plots import pyplot
from memlab.reports.common import save


def test_a_legend_outside_the_axes_is_not_clipped(tmp_path):
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1], label="a configuration with a long name=value label")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("a title")
    path = save(fig, tmp_path / "f.png")
    width, _ = struct.unpack(">II", path.read_bytes()[16:24])
    assert width > 4 * 120 + 100  # the 4-inch figure at 120 dpi grew to hold the legend
