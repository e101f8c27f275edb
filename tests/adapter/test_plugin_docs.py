"""The exported plugin carries a README (what it does, its hooks, commands and policy), a LICENSE and an icon, and
uninstall removes them with the rest."""

from __future__ import annotations

import json
import struct

from memlab.adapter.plugin import install_plugin, uninstall_plugin
from tests.adapter.test_security import write_spec


def test_the_plugin_has_a_readme_a_licence_and_an_icon(tmp_path):
    spec = write_spec(tmp_path / "spec")
    plugin = tmp_path / "plugin"
    install_plugin(spec, plugin)
    readme = (plugin / "README.md").read_text()
    assert readme.startswith("# memlab-memory\n")
    for needle in ("SessionStart", "/recall", "/consolidate", "/status", "memlab uninstall --plugin", "MIT"):
        assert needle in readme, needle
    targets = {n.get("_target_") for n in json.loads((plugin / "memlab-hook.json").read_text())["strategies"].values()}
    assert all(f"`{t}`" in readme for t in targets if t)  # the policy it runs
    assert (plugin / "LICENSE").read_text().startswith("MIT License\n")
    png = (plugin / "icon.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (128, 128)
    manifest = json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["license"] == "MIT" and manifest["keywords"]
    uninstall_plugin(plugin)
    assert not plugin.exists()
