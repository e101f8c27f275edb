"""The plugin's README, LICENSE and icon (what a plugin directory shows beside the manifest).

The icon is a 128x128 PNG drawn here (a stack of three notes, the tiers, on a dark square): no image file ships
with memlab and nothing is downloaded.
"""

from __future__ import annotations

import struct
import zlib

#: The licence memlab is distributed under (pyproject.toml) and the exported plugin carries.
LICENSE = """MIT License

Copyright (c) memlab contributors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


def readme(commands: dict[str, tuple[str, str, str]], strategies: dict[str, str]) -> str:
    """The plugin's README.md: what it does, its hooks and commands, the policy it runs, how to remove it."""
    lines = [
        "# memlab-memory",
        "",
        "Consolidated project memory for Claude Code, kept in git notes. At session start the plugin injects a",
        "block of the repository's current facts (recorded project data, not instructions); at the end of a",
        "session it consolidates the memories in the background (tiers, duplicates, supersession, summaries).",
        "Original memories are never modified or deleted.",
        "",
        "## Hooks",
        "",
        "- `SessionStart`: inject the memory block (`bin/memlab hook session-start`); any failure injects nothing.",
        "- `Stop` and `SessionEnd`: consolidate in the background.",
        "",
        "## Commands",
        "",
        *(f"- `/{name}` {hint}".rstrip() + f": {description}" for name, (description, hint, _) in commands.items()),
        "",
        "## Policy",
        "",
        "The hook runs the frozen policy in `memlab-hook.json`, exported by `memlab export` from a measured run:",
        "",
        *(f"- {group}: `{target}`" for group, target in sorted(strategies.items())),
        "",
        "## Remove",
        "",
        "`memlab uninstall --plugin DIR` removes exactly the files `memlab install --plugin DIR` wrote.",
        "",
        "## Licence",
        "",
        "MIT (`LICENSE`).",
    ]
    return "\n".join(lines) + "\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def icon_png(size: int = 128) -> bytes:
    """A deterministic RGBA PNG icon: three offset notes (hot, warm, cold) on a rounded dark square."""
    colours = [(214, 39, 40), (255, 127, 14), (31, 119, 180)]
    rows = []
    radius = size // 8
    for y in range(size):
        row = bytearray([0])  # filter: none
        for x in range(size):
            cx, cy = min(x, size - 1 - x), min(y, size - 1 - y)
            outside = cx < radius and cy < radius and (radius - cx) ** 2 + (radius - cy) ** 2 > radius**2
            pixel = (0, 0, 0, 0) if outside else (32, 36, 44, 255)
            for i, (r, g, b) in enumerate(colours):
                left, top = size * (18 + 10 * i) // 128, size * (22 + 26 * i) // 128
                if left <= x < left + size * 72 // 128 and top <= y < top + size * 30 // 128 and not outside:
                    pixel = (r, g, b, 255)
            row += bytes(pixel)
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    data = zlib.compress(b"".join(rows), 9)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")
