"""Neutralising text that could frame a prompt: tags, chat role markers, instruction tokens, image links.

Injected memories are written by anyone who can push to a repository. Before they reach a model, every
``<`` that could open or close a tag (``</memory_consolidated_summaries>``, ``<|im_start|>``, ``<<SYS>>``)
becomes ``&lt;``, a role marker's colon (``Human:``, ``System:``) becomes ``꞉`` (U+A789), ``[INST]`` and
``[/INST]`` become ``⟦INST⟧``/``⟦/INST⟧``, a markdown image whose address names a scheme or host
(``![x](https://evil/…)``: a client that renders it fetches the address) loses its link, and control
characters (but tab and newline), bidirectional controls and tag characters are removed.

Matching runs on a *shadow* of the text, so look-alikes cannot slip through: compatibility forms folded
(NFKD: full-width ``＜``/``：``, mathematical letters), invisible characters dropped (format characters
such as U+200B and bidi controls, variation selectors, Hangul fillers, combining marks), and Greek,
Cyrillic and other letters that look Latin read as Latin (``Ηuman`` with a Greek eta), as are look-alike
colons, angle brackets and slashes. Only the characters that frame are replaced in the original text; the
rest is kept as written. :func:`neutralise` is idempotent.
"""

from __future__ import annotations

import re

#: Letters that look like the Latin letters of role words and instruction tokens (read as those letters).
_LETTERS = {
    "A": "ΑАᎪᗅꓮＡ",
    "B": "ΒВᏴꓐ",
    "C": "СϹᏟꓚ",
    "D": "ᎠꓓԀ",
    "E": "ΕЕᎬꓰ",
    "H": "ΗНᎻꓧʜн",
    "I": "ΙІӀꓲ",
    "J": "ЈᎫ",
    "K": "ΚКᏦ",
    "L": "Ꮮꓡʟ",
    "M": "ΜМᎷꓟм",
    "N": "Νꓠ",
    "O": "ΟОՕꓳ",
    "P": "ΡРᏢꓑ",
    "R": "Ꮢꓣʀ",
    "S": "ЅᏚꓢ",
    "T": "ΤТᎢꓔт",
    "U": "ꓴ",
    "V": "ᏙꓦѴ",
    "W": "ᎳꓪԜ",
    "X": "ΧХꓫ",
    "Y": "ΥҮꓬʏ",
    "Z": "ΖᏃꓜ",
    "a": "аɑα",
    "c": "сϲ",
    "d": "ԁ",
    "e": "еҽ",
    "h": "һհ",
    "i": "іıι",
    "j": "јȷ",
    "l": "ӏǀ",
    "n": "ոηп",
    "o": "оοօσ",
    "p": "рρ",
    "r": "гᴦ",
    "s": "ѕꜱ",
    "u": "υսᴜ",
    "v": "νѵ",
    "x": "хχ",
    "y": "уγ",
}
#: Punctuation that looks like what frames (``:``, ``<``, ``/``, ``[``, ``]``, ``!``). U+A789, the colon
#: written in place of a role marker's, is deliberately absent.
_PUNCT = {
    ":": "∶ːˑ˸׃։⁚᛬ꓽ︰",
    "<": "‹⟨〈〈˂ᐸ❮≺⧼",
    "/": "∕⁄⧸╱",
    "[": "⁅",
    "]": "⁆",
    "!": "ǃ",
}
_LOOKALIKE = {ch: latin for latin, chars in (_LETTERS | _PUNCT).items() for ch in chars}
#: Default-ignorable code points outside the format category (which is dropped as a whole).
_IGNORABLE = (
    {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, 0x2800}
    | set(range(0x180B, 0x1810))
    | set(range(0xFE00, 0xFE10))
    | set(range(0xE0100, 0xE01F0))
)

#: A ``<`` that could open or close a tag or a special token (``<tag``, ``</tag``, ``<//tag``, ``<|``, ``<<``).
_TAG_RE = re.compile(r"<(?=[\s/\\]*(?:[^\W\d]|[!?|<\[]))")
#: Removed outright: control characters but tab and newline (NUL, BEL, ESC, DEL, C1: a terminal or a model can
#: read them as commands), bidirectional controls (they reorder what a reader sees) and tag characters
#: (U+E0000-U+E007F: invisible, yet a model reads the ASCII they spell).
_REMOVED_RE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]"
)
#: Chat role markers a model may read as a turn boundary (matched in lower case; the word must not follow
#: a letter or digit, checked by :func:`_marks`).
_ROLE_RE = re.compile(r"(?:human|assistant|system|user|developer)\s*:")
_INST_RE = re.compile(r"\[\s*(/?)\s*(inst|sys)\s*\]")
#: Image alt text: brackets balanced, three levels deep (markdown renders ``![a [b] c](…)`` as one image).
_ALT = r"[^\[\]\n]"
for _ in range(3):
    _ALT = rf"(?:[^\[\]\n]|\[{_ALT}*\])"
#: An inline markdown image whose address has a scheme (``https:``, ``data:``) or starts with ``//``.
_IMAGE_RE = re.compile(
    rf"!\[(?P<alt>{_ALT}*)\]\(\s*<?(?P<url>(?:[a-z][a-z0-9+.\-]*:|//)[^\s)>]*)>?"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
)


class _Shadow(dict):
    """``str.translate`` table: invisible characters dropped, look-alikes read as what they look like."""

    def __missing__(self, code: int) -> int | str | None:
        import unicodedata

        ch = chr(code)
        if code in _IGNORABLE or unicodedata.category(ch) in ("Cf", "Mn", "Me"):
            value: int | str | None = None
        else:
            value = _LOOKALIKE.get(ch, code)
        self[code] = value
        return value


_TABLE = _Shadow()
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _fold(m: re.Match[str]) -> str:
    return m.group(0).translate(_TABLE)


def shadow(text: str) -> str:
    """What matching reads: NFKD, invisible characters dropped, look-alikes folded, lower case."""
    if text.isascii():
        return text.lower()
    import unicodedata

    return _NON_ASCII.sub(_fold, unicodedata.normalize("NFKD", text)).lower()


def _mapped(text: str) -> tuple[str, list[int]]:
    """:func:`shadow` of ``text`` and, for each of its characters, the index of the character it came from."""
    import unicodedata

    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        part = ch.lower() if ch.isascii() else unicodedata.normalize("NFKD", ch).translate(_TABLE).lower()
        out.append(part)
        origin.extend([i] * len(part))
    return "".join(out), origin


def _host(url: str) -> str:
    """The host of an address (its scheme when it has none, as ``data:``)."""
    if "//" in url:
        return re.split(r"[/?#\\]", url.split("//", 1)[1], maxsplit=1)[0] or "an outside host"
    return url.split(":", 1)[0].lower() + ":"


def _replace(text: str, find, folded: str | None = None) -> str:
    """``text`` with the spans that ``find(shadow, source)`` gives replaced: ``(start, end, new text)`` spans of
    the shadow in order (``source(start, end)``: the original text of a shadow span; ``folded``: the
    shadow of ``text`` when it is known).
    """
    if text.isascii():
        folded, origin = text.lower(), None
        spans = find(folded, lambda a, b: text[a:b])
    else:
        spans = find(shadow(text) if folded is None else folded, None)
        if not spans:
            return text
        folded, origin = _mapped(text)
        spans = find(folded, lambda a, b: text[origin[a] : origin[b - 1] + 1] if b > a else "")
    out: list[str] = []
    last = 0
    for start, end, new in spans:
        if origin is not None:
            start, end = origin[start], origin[end - 1] + 1
        if start < last:
            continue
        out += [text[last:start], new]
        last = end
    return "".join(out) + text[last:] if spans else text


def _images(folded: str, source) -> list[tuple[int, int, str]]:
    if "![" not in folded:
        return []
    out = []
    for m in _IMAGE_RE.finditer(folded):
        alt = " ".join(source(*m.span("alt")).split()) if source else ""
        out.append((m.start(), m.end(), f"(image “{alt}” from {_host(m.group('url'))}, link removed)"))
    return out


def _marks(folded: str, source) -> list[tuple[int, int, str]]:
    out = [(m.start(), m.end(), "&lt;") for m in _TAG_RE.finditer(folded)] if "<" in folded else []
    if ":" in folded:
        for m in _ROLE_RE.finditer(folded):
            before = folded[m.start() - 1] if m.start() else " "
            if before == "\ua789" or not before.isalnum():
                out.append((m.end() - 1, m.end(), "\ua789"))
    if "[" in folded:
        out += [(m.start(), m.end(), f"⟦{m.group(1)}{m.group(2).upper()}⟧") for m in _INST_RE.finditer(folded)]
    return sorted(out)


def neutralise(text: str) -> str:
    """``text`` with framing neutralised and control, bidirectional and tag characters removed (see the module
    docstring); idempotent.
    """
    text = _REMOVED_RE.sub("", text)
    folded = shadow(text)
    if "![" in folded:
        text = _replace(text, _images, folded)
        folded = shadow(text)
    return _replace(text, _marks, folded)


def framing(text: str) -> list[str]:
    """The framing that :func:`neutralise` would change in ``text`` (``[]`` when there is none)."""
    folded = text.lower() if text.isascii() else _mapped(text)[0]
    return [folded[a:b] for a, b, _ in _images(folded, None) + _marks(folded, None)]
